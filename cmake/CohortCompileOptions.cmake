# One INTERFACE target carries the project-wide compile hygiene.
add_library(cohort_options INTERFACE)
add_library(cohort::options ALIAS cohort_options)
target_compile_definitions(cohort_options INTERFACE
  QT_NO_KEYWORDS                 # LibTorch has a member named `slots`; use Q_SLOTS / Q_SIGNALS / Q_EMIT
  QT_NO_CAST_FROM_ASCII
  QT_NO_CAST_TO_ASCII
  QT_NO_CONTEXTLESS_CONNECT
  QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
  QT_USE_QSTRINGBUILDER
  QT_DISABLE_DEPRECATED_UP_TO=0x060000)
if(MSVC)
  target_compile_options(cohort_options INTERFACE /W4 /permissive- /Zc:__cplusplus)
else()
  target_compile_options(cohort_options INTERFACE -Wall -Wextra -Wpedantic -Wno-unused-parameter)
endif()
