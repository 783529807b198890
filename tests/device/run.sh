#!/usr/bin/env bash
# tests/device/run.sh — Cohort's device check: build the Qt-free core on a GPU machine, test the CUDA kernels
# against their CPU references, and measure rollout throughput next to PyTorch eager on the same GPU.
#
# Needs only: CMake >= 3.25, a C++20 compiler, the CUDA Toolkit (nvcc), and a Python 3 with PyTorch. No Qt,
# libsodium, OpenSSL or QuaZip: the build is COHORT_CORE_ONLY=ON (engine/quant, ml, toploc, store/safetensors, rl,
# cuda and the plain programs of tests/cuda and tests/device). LibTorch comes from the Python torch
# (python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' -> Torch_DIR); a torch without CMake files
# (Debian's python3-torch) falls back to the system LibTorch (libtorch-dev) through cmake/FindCohortTorch.cmake.
#
# Steps (each prints its own time; the whole run is meant to stay under 8 minutes on a 16-core GPU machine):
#   1. configure + build  device_check, device_rollout (and their libraries) in the build directory
#   2. device_check       CPU references, then every kernel against its CPU reference, bit for bit (quantization
#                         uint8/uint16, TOPLOC chunk top-k + bf16 packing) on odd sizes / ties / NaN; kernel
#                         throughput (--bench). Without a GPU the comparisons are skipped, saying why.
#   3. device_rollout     tokens/s of Cohort's policy (LibTorch on the GPU, fp32) and of PyTorch eager on the same
#                         GPU and weights (peer_rollout_gpu.py), batches 1 and 32, 128 new tokens after a 16-token
#                         prompt: the reference config (d_model 256, 4 layers) and a larger one (d_model 1024,
#                         12 layers, 16 heads, d_ff 4096).
#
# Usage: tests/device/run.sh [options]
#   --cpu-smoke        no GPU work even if one is present: build, run the CPU checks (GPU comparisons skip), and a
#                      short CPU rollout of the reference config next to PyTorch eager on the CPU. For development
#                      machines (nvcc but no GPU): proves the script, the Qt-free build and the skip paths work.
#   --build-dir DIR    build directory (default: <repo>/build-device, or build-device-smoke with --cpu-smoke)
#   --jobs N           parallel build jobs (default: all cores)
#   --python PY        the Python with torch (default: $COHORT_PEER_PYTHON, python3, /usr/bin/python3)
#   --no-cuda          configure without the kernels (COHORT_CUDA=OFF), e.g. where no nvcc exists
#   --no-large         skip the d_model 1024 rollout
#   -h, --help         this text
# Environment: CMAKE_CUDA_ARCHITECTURES overrides the detected GPU architecture (default: the GPU's own, e.g. 90
# on an H100/H200; without a GPU the project default 80-real;90).
# Exit status: 0 when every check passed (skips allowed), 1 when a check or the build failed, 2 for bad arguments.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
smoke=0 jobs="" build="" python="${COHORT_PEER_PYTHON:-}" cuda=auto large=1
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu-smoke) smoke=1 ;;
    --build-dir) build="$2"; shift ;;
    --jobs) jobs="$2"; shift ;;
    --python) python="$2"; shift ;;
    --no-cuda) cuda=OFF ;;
    --no-large) large=0 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown option $1 (--help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$build" ] || build="$root/build-device$([ $smoke = 1 ] && echo -smoke)"
[ -n "$jobs" ] || jobs="$(nproc 2>/dev/null || echo 4)"

start=$(date +%s)
step_start=$start
failures=0
say() { printf '\n== %s ==\n' "$*"; }
took() { local now; now=$(date +%s); printf -- '-- %s: %d s (total %d s)\n' "$1" $((now - step_start)) $((now - start)); step_start=$now; }
fail() { echo "FAILED: $*" >&2; failures=$((failures + 1)); }

say "environment"
echo "repository: $root"
echo "build dir:  $build"
command -v cmake >/dev/null || { echo "cmake not found" >&2; exit 1; }
echo "cmake:      $(cmake --version | head -1)"
generator="Unix Makefiles"
command -v ninja >/dev/null && generator=Ninja
echo "generator:  $generator"

# Python with torch: the peer, and (through torch.utils.cmake_prefix_path) LibTorch for the build.
if [ -z "$python" ]; then
  for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c 'import torch' >/dev/null 2>&1; then python="$candidate"; break; fi
  done
fi
torch_args=()
if [ -n "$python" ] && "$python" -c 'import torch' >/dev/null 2>&1; then
  echo "python:     $python ($("$python" -c 'import torch; print("torch", torch.__version__, "cuda" if torch.cuda.is_available() else "no cuda")'))"
  prefix="$("$python" -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null || true)"
  if [ -n "$prefix" ] && [ -f "$prefix/Torch/TorchConfig.cmake" ]; then
    torch_args=(-DTorch_DIR="$prefix/Torch")
    echo "LibTorch:   $prefix/Torch (from the Python torch)"
  else
    echo "LibTorch:   this torch ships no TorchConfig.cmake (${prefix:-none}); using the system LibTorch (cmake/FindCohortTorch.cmake)"
  fi
else
  python=""
  echo "python:     none with torch found (--python): no PyTorch peer figures; LibTorch from the system"
fi

# nvcc and the GPU.
nvcc="$(command -v nvcc || true)"
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ "$cuda" = auto ]; then cuda=$([ -n "$nvcc" ] && echo ON || echo OFF); fi
echo "nvcc:       ${nvcc:-none}$([ "$cuda" = OFF ] && echo ' (kernels not built)')"
gpu=0 arch_args=()
if [ $smoke = 0 ] && command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  gpu=1
  nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader | sed 's/^/gpu:        /'
  cap="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')"
  if [ -z "${CMAKE_CUDA_ARCHITECTURES:-}" ] && [ -n "$cap" ]; then arch_args=(-DCMAKE_CUDA_ARCHITECTURES="$cap"); fi
elif [ $smoke = 1 ]; then
  echo "gpu:        not used (--cpu-smoke)"
else
  echo "gpu:        none (nvidia-smi finds no device): GPU comparisons and GPU rollout figures are skipped"
fi
[ -n "${CMAKE_CUDA_ARCHITECTURES:-}" ] && arch_args=(-DCMAKE_CUDA_ARCHITECTURES="$CMAKE_CUDA_ARCHITECTURES")
cuda_args=(-DCOHORT_CUDA="$cuda")
if [ "$cuda" = ON ]; then
  cuda_root="$(dirname "$(dirname "$nvcc")")"
  cuda_args+=(-DCMAKE_CUDA_COMPILER="$nvcc" -DCUDAToolkit_ROOT="$cuda_root" -DCUDA_TOOLKIT_ROOT_DIR="$cuda_root")
fi
took "environment"

say "configure + build (COHORT_CORE_ONLY=ON, COHORT_CUDA=$cuda)"
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true
mkdir -p "$build"
if ! cmake -S "$root" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=Release -DCOHORT_CORE_ONLY=ON \
     "${cuda_args[@]}" "${arch_args[@]}" "${torch_args[@]}" > "$build/device-run.configure.log" 2>&1; then
  tail -40 "$build/device-run.configure.log"
  echo "configure failed (whole log: $build/device-run.configure.log)" >&2
  exit 1
fi
grep -E "LibTorch:|CUDA compiler identification|Found CUDAToolkit" "$build/device-run.configure.log" || true
if ! cmake --build "$build" -j "$jobs" --target device_check device_rollout > "$build/device-run.build.log" 2>&1; then
  grep -E "error|Error" "$build/device-run.build.log" | head -40
  echo "build failed (whole log: $build/device-run.build.log)" >&2
  exit 1
fi
grep -ciE "warning" "$build/device-run.build.log" | sed 's/^/compiler warnings: /'
took "build"

say "device_check: CPU references and kernels vs references"
bench=()
[ $gpu = 1 ] && [ "$cuda" = ON ] && bench=(--bench)
if [ $smoke = 1 ]; then
  # Hide the driver even where one exists, so the skip path is what runs.
  CUDA_VISIBLE_DEVICES="" "$build/tests/device/device_check" "${bench[@]}" || fail "device_check"
else
  "$build/tests/device/device_check" "${bench[@]}" || fail "device_check"
fi
took "device_check"

rollout() { # rollout <name> <args...>: exit 3 = device unusable (skipped), reported as such
  local name="$1"; shift
  say "rollout: $name"
  "$build/tests/device/device_rollout" "$@"
  local rc=$?
  if [ $rc = 3 ]; then echo "SKIP rollout $name: the device is not usable by this LibTorch (see above)";
  elif [ $rc != 0 ]; then fail "rollout $name (exit $rc)"; fi
  took "rollout $name"
}
peer_args=(--no-peer)
[ -n "$python" ] && peer_args=(--python "$python")
if [ $smoke = 1 ] || [ $gpu = 0 ]; then
  echo
  echo "No GPU figures in this run ($([ $smoke = 1 ] && echo '--cpu-smoke' || echo 'no GPU')): a short CPU rollout of the reference config instead."
  rollout "reference config on the CPU (smoke: short)" --device cpu --config reference --batches 1,4 --new 32 \
    --warmup 1 --repeats 2 "${peer_args[@]}"
else
  rollout "reference config on the GPU" --device cuda --config reference "${peer_args[@]}"
  if [ $large = 1 ]; then
    if [ $(( $(date +%s) - start )) -lt 360 ]; then
      rollout "d_model 1024, 12 layers on the GPU" --device cuda --config large "${peer_args[@]}"
    else
      echo "SKIP the large config: over 6 minutes already (budget 8)"
    fi
  fi
fi

say "summary"
echo "total $(( $(date +%s) - start )) s; $failures failed step(s)"
[ $failures = 0 ]
