# Finds LibTorch and defines cohort::torch.
#  1. An official LibTorch distribution (CPU or CUDA) given with -DTorch_DIR=<libtorch>/share/cmake/Torch
#     (or CMAKE_PREFIX_PATH) is used through its own TorchConfig.cmake.
#  2. Otherwise Debian's libtorch-dev 1.13, which ships no TorchConfig.cmake: headers in the system include
#     directory plus torch/csrc/api/include, libraries torch, torch_cpu and c10.
if(TARGET cohort::torch)
  set(CohortTorch_FOUND TRUE)
  return()
endif()

# Only an explicitly given distribution goes through TorchConfig.cmake: Debian's copy of that file drags in
# Caffe2's gflags/glog/protobuf configuration, which the plain libraries do not need.
if(Torch_DIR OR DEFINED ENV{Torch_DIR})
  find_package(Torch CONFIG REQUIRED)
endif()
add_library(cohort_torch INTERFACE)
add_library(cohort::torch ALIAS cohort_torch)

if(Torch_FOUND)
  target_link_libraries(cohort_torch INTERFACE ${TORCH_LIBRARIES})
  target_include_directories(cohort_torch SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
  set(CohortTorch_FLAVOUR "TorchConfig (${Torch_DIR})")
  # A CUDA build of LibTorch: engine/ml may then use its CUDA API (memory cap, device memory).
  if(TARGET c10_cuda)
    target_compile_definitions(cohort_torch INTERFACE COHORT_TORCH_CUDA=1)
    string(APPEND CohortTorch_FLAVOUR ", CUDA")
  endif()
  set(CohortTorch_FOUND TRUE)
else()
  find_path(CohortTorch_INCLUDE_DIR torch/csrc/api/include/torch/torch.h)
  find_library(CohortTorch_torch_LIBRARY torch)
  find_library(CohortTorch_torch_cpu_LIBRARY torch_cpu)
  find_library(CohortTorch_c10_LIBRARY c10)
  include(FindPackageHandleStandardArgs)
  find_package_handle_standard_args(CohortTorch REQUIRED_VARS
    CohortTorch_INCLUDE_DIR CohortTorch_torch_LIBRARY CohortTorch_torch_cpu_LIBRARY CohortTorch_c10_LIBRARY)
  if(CohortTorch_FOUND)
    target_include_directories(cohort_torch SYSTEM INTERFACE
      "${CohortTorch_INCLUDE_DIR}" "${CohortTorch_INCLUDE_DIR}/torch/csrc/api/include")
    target_link_libraries(cohort_torch INTERFACE
      "${CohortTorch_torch_LIBRARY}" "${CohortTorch_torch_cpu_LIBRARY}" "${CohortTorch_c10_LIBRARY}")
    set(CohortTorch_FLAVOUR "Debian libtorch-dev (${CohortTorch_INCLUDE_DIR})")
  endif()
endif()
if(CohortTorch_FOUND)
  message(STATUS "LibTorch: ${CohortTorch_FLAVOUR}")
endif()
