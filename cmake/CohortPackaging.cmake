# Packages: CPack with DEB and TGZ on Linux, NSIS (and ZIP) on Windows. Included from the top-level CMakeLists.txt
# after the programs. The install rules themselves sit next to what they install (app/*, resources/); this file adds
# the Windows runtime deployment and the package descriptions.
#
#   cmake --build build && (cd build && cpack -G DEB)    # cohort_<version>-1_<arch>.deb
#   (cd build && cpack -G TGZ)                            # cohort-<version>-Linux-<cpu>.tar.gz
#   cpack -G NSIS  (Windows, NSIS 3 installed)            # cohort-<version>-win64.exe
#
# tests/package/check-deb.sh builds, installs, runs and purges the .deb.

if(NOT PROJECT_IS_TOP_LEVEL)
  return()
endif()

include(GNUInstallDirs)

set(cohort_programs cohortd cohort-hub)
if(TARGET cohort)
  list(APPEND cohort_programs cohort)
endif()

# Linux: the libraries come from the distribution's packages, found through the standard paths. Without this the
# installed programs would carry qt_standard_project_setup()'s RPATH ($ORIGIN:$ORIGIN/../lib), pointing at /usr/bin.
if(UNIX AND NOT APPLE)
  set_target_properties(${cohort_programs} PROPERTIES INSTALL_RPATH "")
endif()

# ---------------------------------------------------------------------------------------------------------------
# Windows: put every DLL the programs need next to them, so the installed folder runs on its own.
if(WIN32)
  # Qt: windeployqt through Qt's deploy script (libraries, plugins, qt.conf). The desktop app uses every Qt module
  # the other two use, so deploying it covers all three.
  if(TARGET cohort)
    set(cohort_qt_deploy_target cohort)
  else()
    set(cohort_qt_deploy_target cohortd)
  endif()
  qt_generate_deploy_app_script(TARGET ${cohort_qt_deploy_target} FILENAME_VARIABLE cohort_qt_deploy_script
                                NO_UNSUPPORTED_PLATFORM_ERROR)
  install(SCRIPT "${cohort_qt_deploy_script}")

  # Everything else (libsodium, OpenSSL, QuaZip from vcpkg; LibTorch) is found by walking the programs' imports.
  set(cohort_dll_dirs)
  if(DEFINED VCPKG_INSTALLED_DIR AND DEFINED VCPKG_TARGET_TRIPLET)
    list(APPEND cohort_dll_dirs "${VCPKG_INSTALLED_DIR}/${VCPKG_TARGET_TRIPLET}/bin")
  endif()
  if(OPENSSL_CRYPTO_LIBRARY)
    get_filename_component(cohort_openssl_lib_dir "${OPENSSL_CRYPTO_LIBRARY}" DIRECTORY)
    list(APPEND cohort_dll_dirs "${cohort_openssl_lib_dir}/../bin")
  endif()
  set(cohort_torch_lib_dir "")
  if(Torch_DIR)
    # An official LibTorch distribution: <libtorch>/share/cmake/Torch -> <libtorch>/lib holds its DLLs.
    get_filename_component(cohort_torch_lib_dir "${Torch_DIR}/../../../lib" ABSOLUTE)
    list(APPEND cohort_dll_dirs "${cohort_torch_lib_dir}")
  endif()
  if(DEFINED QT6_INSTALL_PREFIX AND DEFINED QT6_INSTALL_BINS)
    list(APPEND cohort_dll_dirs "${QT6_INSTALL_PREFIX}/${QT6_INSTALL_BINS}") # resolved here, deployed by windeployqt
  endif()
  set(cohort_program_files "")
  foreach(program IN LISTS cohort_programs)
    string(APPEND cohort_program_files " \"$<TARGET_FILE:${program}>\"")
  endforeach()
  set(cohort_dll_dir_args "")
  foreach(dir IN LISTS cohort_dll_dirs)
    string(APPEND cohort_dll_dir_args " \"${dir}\"")
  endforeach()
  # Written as a bracket argument so the regular expressions need no second level of escaping; @...@ is filled in
  # now, ${...} at install time. System DLLs and Qt's (windeployqt's job) are left out.
  set(cohort_runtime_code [=[
    file(GET_RUNTIME_DEPENDENCIES
      EXECUTABLES @cohort_program_files@
      DIRECTORIES @cohort_dll_dir_args@
      RESOLVED_DEPENDENCIES_VAR cohort_dlls
      UNRESOLVED_DEPENDENCIES_VAR cohort_unresolved
      PRE_EXCLUDE_REGEXES "^[Aa][Pp][Ii]-[Mm][Ss]-" "^[Ee][Xx][Tt]-[Mm][Ss]-"
      POST_EXCLUDE_REGEXES "[Ss][Yy][Ss][Tt][Ee][Mm]32" "Qt6[A-Za-z0-9]*\\.dll$")
    if(cohort_unresolved)
      message(WARNING "Cohort: DLLs not found; the installed programs need them: ${cohort_unresolved}")
    endif()
    if(cohort_dlls)
      file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/@CMAKE_INSTALL_BINDIR@" TYPE SHARED_LIBRARY FILES ${cohort_dlls})
    endif()
  ]=])
  string(CONFIGURE "${cohort_runtime_code}" cohort_runtime_code @ONLY)
  install(CODE "${cohort_runtime_code}")
  # LibTorch loads some of its DLLs only when needed (CUDA, cuDNN): ship its whole lib folder's DLLs.
  if(cohort_torch_lib_dir)
    install(DIRECTORY "${cohort_torch_lib_dir}/" DESTINATION ${CMAKE_INSTALL_BINDIR} FILES_MATCHING PATTERN "*.dll")
  endif()
  # The MSVC runtime (vcruntime, msvcp) for machines without the redistributable.
  set(CMAKE_INSTALL_SYSTEM_RUNTIME_DESTINATION ${CMAKE_INSTALL_BINDIR})
  include(InstallRequiredSystemLibraries)
endif()

# ---------------------------------------------------------------------------------------------------------------
# What every package says about itself.
set(CPACK_VERBATIM_VARIABLES ON)
set(CPACK_PACKAGE_NAME "cohort")
set(CPACK_PACKAGE_VENDOR "The Cohort authors")
# Debian wants "Name <email>" here; give it when publishing: -DCPACK_PACKAGE_CONTACT="Name <address>".
set(CPACK_PACKAGE_CONTACT "The Cohort authors" CACHE STRING "Package maintainer (Debian: Name <email>)")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION [[
Cohort lets this computer take part in training AI models together with
others. It joins a hub, takes work from the task catalogue, runs it on the
processor or graphics card, and shows what it is doing, why, and what the
work has earned. Without a hub it starts a small local network on this
computer.

This package contains cohort, the desktop app with a tray icon; cohortd,
the same engine without a window; and cohort-hub, the coordinator of a
network (node registry, rollout verification, training, checkpoint
publishing, earnings ledger). Both services ship as systemd units,
disabled.]])
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_RESOURCE_FILE_README "${PROJECT_SOURCE_DIR}/README.md")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "Cohort")
# Release binaries without their debug sections (RelWithDebInfo keeps them in the build tree).
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_GENERATOR "")

# The licence and the README go with the programs. Debian expects share/doc/<package>/copyright.
if(UNIX)
  install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/cohort RENAME copyright)
  install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/cohort)
else()
  install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION . RENAME LICENSE.txt)
endif()

if(WIN32)
  set(CPACK_GENERATOR NSIS ZIP)
elseif(APPLE)
  set(CPACK_GENERATOR TGZ)
else()
  set(CPACK_GENERATOR DEB TGZ)
  set(CPACK_SYSTEM_NAME "Linux-${CMAKE_SYSTEM_PROCESSOR}")
endif()

# ---------------------------------------------------------------------------------------------------------------
# DEB (Debian 12, Ubuntu with the same libraries). Depends: dpkg-shlibdeps reads the programs' ELF imports (Qt,
# LibTorch, libsodium, OpenSSL, libstdc++), plus what is loaded at run time and so invisible to it.
set(CPACK_DEBIAN_PACKAGE_NAME "cohort")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)          # cohort_<version>-<release>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
find_program(COHORT_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(COHORT_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "dpkg-shlibdeps not found (apt install dpkg-dev): the .deb lists only the run-time extras")
endif()
set(cohort_deb_depends
  libqt6sql6-sqlite        # Qt's SQLite driver plugin: hub database, earnings cache
  libopenblas0-openmp      # LibTorch's BLAS; without it Debian's LibTorch falls back to the reference BLAS (~8x slower)
)
if(TARGET cohort)
  list(APPEND cohort_deb_depends
    libqt6svg6             # SVG image and icon-engine plugins: the window and tray icons
    hicolor-icon-theme     # owns the icon folders the icons go into
  )
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland")   # native Wayland windows; XWayland works without it
endif()
list(JOIN cohort_deb_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# Maintainer scripts: restart running services after an upgrade, stop them before removal, clean up on purge.
# Nothing enables or starts a service.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  "${PROJECT_SOURCE_DIR}/installer/debian/postinst"
  "${PROJECT_SOURCE_DIR}/installer/debian/prerm"
  "${PROJECT_SOURCE_DIR}/installer/debian/postrm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# ---------------------------------------------------------------------------------------------------------------
# NSIS (Windows): Start-menu entry, uninstaller in Add/Remove Programs, optional start at sign-in, a running Cohort
# stopped before files are replaced. The hooks are in installer/windows/cohort.nsh.
file(TO_NATIVE_PATH "${PROJECT_SOURCE_DIR}/installer/windows/cohort.nsh" cohort_nsh)
set(CPACK_NSIS_PACKAGE_NAME "Cohort")
set(CPACK_NSIS_DISPLAY_NAME "Cohort ${PROJECT_VERSION}")
set(CPACK_PACKAGE_INSTALL_REGISTRY_KEY "Cohort")
set(CPACK_NSIS_INSTALL_ROOT "$PROGRAMFILES64")
set(CPACK_NSIS_UNINSTALL_NAME "Uninstall")
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\cohort.exe")
set(CPACK_NSIS_BRANDING_TEXT "Cohort ${PROJECT_VERSION}")
set(CPACK_NSIS_MANIFEST_DPI_AWARE ON)
set(CPACK_NSIS_MODIFY_PATH OFF)
# Upgrades install over the previous version (the hook clears its program folders first); uninstalling first
# would also remove the user's start-at-sign-in choice.
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL OFF)
if(TARGET cohort)
  set(CPACK_PACKAGE_EXECUTABLES "cohort" "Cohort")            # Start menu: Cohort -> bin\cohort.exe
endif()
set(CPACK_NSIS_DEFINES "!include \"${cohort_nsh}\"")
set(CPACK_NSIS_EXTRA_PREINSTALL_COMMANDS "!insertmacro COHORT_BEFORE_INSTALL")
set(CPACK_NSIS_EXTRA_INSTALL_COMMANDS "!insertmacro COHORT_AFTER_INSTALL")
set(CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS "!insertmacro COHORT_UNINSTALL")

# ---------------------------------------------------------------------------------------------------------------
# Per-generator settings, read by cpack for each generator: the tarball is staged under a temporary prefix, so its
# systemd units name /usr/local/bin, where `tar -C /usr/local --strip-components=1` puts the programs.
set(cohort_cpack_project_config "${PROJECT_BINARY_DIR}/CohortCPackOptions.cmake")
file(WRITE "${cohort_cpack_project_config}" [[
# Generated by cmake/CohortPackaging.cmake.
if(CPACK_GENERATOR STREQUAL "TGZ" OR CPACK_GENERATOR STREQUAL "TXZ")
  set(ENV{COHORT_UNIT_BINDIR} "/usr/local/bin")
else()
  unset(ENV{COHORT_UNIT_BINDIR})
endif()
]])
set(CPACK_PROJECT_CONFIG_FILE "${cohort_cpack_project_config}")

include(CPack)
