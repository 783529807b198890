#!/usr/bin/env bash
# Installs everything Cohort needs to build, test and run on Debian 12 / Ubuntu 24.04.
# Debian packages only; safe to run again (apt skips what is already installed).
# Works as root or as a user with sudo.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config ccache git
  # Qt 6
  qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  qt6-httpserver-dev qt6-websockets-dev qt6-charts-dev qt6-svg-dev
  libqt6opengl6-dev  # Qt6Charts' CMake package needs Qt6OpenGL's
  libqt6sql6-sqlite qt6-qpa-plugins libqt6svg6 qt6-image-formats-plugins
  # machine learning: Debian's LibTorch (CPU) and an optimized BLAS
  # (without libopenblas0-openmp LibTorch falls back to the reference BLAS, ~8x slower)
  libtorch-dev libopenblas0-openmp
  # the reference BLAS too: cohortd --doctor is tested against it (tst_doctor, by library path)
  libblas3
  # the rollout benchmark's peer: the same model in PyTorch eager
  python3-torch
  # the metrics test parses /metrics with the Prometheus project's own text parser
  python3-prometheus-client
  # archives, crypto
  libquazip1-qt6-dev libsodium-dev libssl-dev zlib1g-dev
  # headless display for GUI tests and for running the app without a desktop
  xvfb xauth
  # the X11 idle source (DesktopIdle loads libXss at run time); tst_platform reads it from a private Xvfb
  libxss1
  # tst_foreground: a real window manager takes a window in and out of full screen on a private Xvfb
  openbox
  # SHARDCAST relays and the download benchmark peers
  nginx-light curl aria2
  # fuzzing (libFuzzer ships with clang); clang-format checks the code style (tests/layout/check_format.sh)
  clang libclang-rt-dev clang-format
  # packaging (cpack -G DEB, tests/package/check-deb.sh): dpkg-shlibdeps, the desktop-file and AppStream
  # validators, man for the man-page check, the icon theme the package installs into; makensis to compile the
  # Windows installer definition (tests/package/check-nsis.sh)
  dpkg-dev desktop-file-utils appstream man-db hicolor-icon-theme nsis
  # the Windows branches of the platform code (Winsock, Win32) must compile: tests/package/check-windows-sources.sh
  g++-mingw-w64-x86-64-posix
)

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "install-deps: run as root or install sudo" >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
