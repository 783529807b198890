#!/usr/bin/env bash
# The CUDA-LibTorch branches compile: every source with a COHORT_TORCH_CUDA branch (the define an official CUDA
# LibTorch sets, cmake/FindCohortTorch.cmake) is type-checked (-fsyntax-only) with it on, against the CUDA headers
# Debian's libtorch-dev ships (c10/cuda, ATen/cuda) and the CUDA Toolkit's. Debian's CPU build lacks the one header
# CMake generates for a CUDA build (c10/cuda/impl/cuda_cmake_macros.h); a stand-in with its single macro is made here.
# This is no CUDA build (that needs a CUDA LibTorch: README "GPU", tests/device/run.sh), but a wrong call into
# at::cuda or c10::cuda, or a missing include, fails here on a machine without one.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
cuda_include=""
for dir in /usr/local/cuda/include /usr/include; do
  if [ -f "$dir/cuda_runtime_api.h" ]; then cuda_include="$dir"; break; fi
done
if [ -z "$cuda_include" ] || [ ! -f /usr/include/ATen/cuda/CUDAContext.h ]; then
  echo "check-torch-cuda-sources: needs the CUDA Toolkit headers and libtorch-dev's ATen/cuda headers" >&2
  exit 1
fi
stub=$(mktemp -d)
trap 'rm -rf "$stub"' EXIT
mkdir -p "$stub/c10/cuda/impl"
printf '#pragma once\n#define C10_CUDA_BUILD_SHARED_LIBS\n' > "$stub/c10/cuda/impl/cuda_cmake_macros.h"
mapfile -t sources < <(grep -rl 'COHORT_TORCH_CUDA' engine app --include='*.cpp' | sort)
if [ "${#sources[@]}" -eq 0 ]; then
  echo "check-torch-cuda-sources: no source has a COHORT_TORCH_CUDA branch (expected engine/ml/TorchRuntime.cpp)" >&2
  exit 1
fi
for source in "${sources[@]}"; do
  c++ -std=c++20 -fsyntax-only -w -DQT_NO_KEYWORDS -DCOHORT_TORCH_CUDA=1 -Iengine -isystem "$stub" \
    -isystem /usr/include/torch/csrc/api/include -isystem "$cuda_include" "$source" ||
    { echo "check-torch-cuda-sources: $source does not compile with a CUDA LibTorch" >&2; exit 1; }
done
echo "check-torch-cuda-sources: ${#sources[@]} source(s) with CUDA-LibTorch branches compile (syntax only)"
