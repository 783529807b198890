# cohort_add_test(<name> SOURCES ... LIBS ... [LABELS ...] [TIMEOUT s])
# LABELS fast: the fast tier (`ctest -L fast`), tests that need no LibTorch, no engine process and seconds at most;
# a build without LibTorch (COHORT_TORCH=OFF) makes only these.
function(cohort_add_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(NOT COHORT_TORCH AND NOT "fast" IN_LIST T_LABELS)
    return()
  endif()
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test cohort::options cohort_test_support ${T_LIBS})
  add_test(NAME ${name} COMMAND ${name})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS "${T_LABELS}"
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;COHORT_BUILD_DIR=${PROJECT_BINARY_DIR};QT_LOGGING_RULES=cohort.*.debug=false")
endfunction()
