#!/usr/bin/env bash
# One entry point for a fresh Debian 12 / Ubuntu machine:
#   installer/setup.sh run    install dependencies, build, start Cohort (the GUI on the embedded local
#                             network when a display exists, otherwise cohortd with a live progress line)
#   installer/setup.sh test   install dependencies, build, run the whole test suite
# Options: --no-install (skip apt), --build-dir DIR (default: build), any further arguments go to the program.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:-}"
shift || true
install=1
build_dir="$root/build"
while [ $# -gt 0 ]; do
  case "$1" in
    --no-install) install=0; shift ;;
    --build-dir) build_dir="$2"; shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done

case "$mode" in
  run|test) ;;
  *) echo "usage: installer/setup.sh run|test [--no-install] [--build-dir DIR] [-- program arguments]" >&2; exit 2 ;;
esac

if [ "$install" -eq 1 ]; then
  "$root/installer/install-deps-debian.sh"
fi

# ccache keys on relative paths, so a fresh clone elsewhere still hits the cache.
export CCACHE_BASEDIR="$root"
export CCACHE_NOHASHDIR=true
jobs="$(nproc 2>/dev/null || echo 2)"

cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOHORT_GUI=ON -DCOHORT_TESTS=ON
if [ "$mode" = test ]; then
  cmake --build "$build_dir" -j "$jobs"
else
  # A person who wants to contribute waits only for the three programs (245 of the tree's 545 build steps), not for
  # test suites they never run; `setup.sh test` later builds the rest in the same folder.
  cmake --build "$build_dir" -j "$jobs" --target cohort cohortd cohort-hub
fi

if [ "$mode" = test ]; then
  # Tests use the offscreen Qt platform; they start real cohort-hub / cohortd processes on 127.0.0.1.
  exec ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" --timeout 300
fi

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  echo "Starting the Cohort desktop app on the embedded local network (settings: tray menu or Settings…)"
  exec "$build_dir/app/cohort/cohort" "$@"
else
  echo "No display found: starting cohortd on the embedded local network (Ctrl+C stops it cleanly)"
  # It works on the first task this computer can run (or the one joined last time); a --task given here wins,
  # being later on the command line.
  exec "$build_dir/app/cohortd/cohortd" --task auto "$@"
fi
