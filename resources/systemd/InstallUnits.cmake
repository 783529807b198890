# Runs at install time (install(CODE) in resources/CMakeLists.txt includes it), so the units name the programs
# where this install puts them: /usr/bin for the .deb, CMAKE_INSTALL_PREFIX/bin for `cmake --install`.
# CPack's tarball stages under a temporary prefix; CohortPackaging.cmake sets COHORT_UNIT_BINDIR for it.
# In: COHORT_UNITS (names), COHORT_UNITS_SOURCE_DIR, COHORT_UNITS_WORK_DIR, COHORT_UNITS_DESTINATION (relative
# to the prefix), COHORT_UNITS_BINDIR (relative or absolute).
if(DEFINED ENV{COHORT_UNIT_BINDIR} AND NOT "$ENV{COHORT_UNIT_BINDIR}" STREQUAL "")
  set(COHORT_UNIT_BINDIR "$ENV{COHORT_UNIT_BINDIR}")
elseif(IS_ABSOLUTE "${COHORT_UNITS_BINDIR}")
  set(COHORT_UNIT_BINDIR "${COHORT_UNITS_BINDIR}")
else()
  set(COHORT_UNIT_BINDIR "${CMAKE_INSTALL_PREFIX}/${COHORT_UNITS_BINDIR}")
endif()
cmake_path(NORMAL_PATH COHORT_UNIT_BINDIR)
string(REGEX REPLACE "/+$" "" COHORT_UNIT_BINDIR "${COHORT_UNIT_BINDIR}")

foreach(unit IN LISTS COHORT_UNITS)
  configure_file("${COHORT_UNITS_SOURCE_DIR}/${unit}.in" "${COHORT_UNITS_WORK_DIR}/${unit}" @ONLY)
  file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/${COHORT_UNITS_DESTINATION}" TYPE FILE
       PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
       FILES "${COHORT_UNITS_WORK_DIR}/${unit}")
endforeach()
