#!/usr/bin/env bash
# The Windows branches of the platform code compile: every source under engine/ and ui/ with a _WIN32 / Q_OS_WIN
# branch is type-checked (-fsyntax-only) by MinGW-w64's g++ against the Qt headers, as if for Windows. This is no
# Windows build (that needs the Qt installer and LibTorch for Windows, README "Windows"), but a Winsock or Win32 call
# with a wrong signature, a missing header or a POSIX call left in a Windows branch fails here, on Linux.
# Sources that need headers MinGW cannot see on this machine (OpenSSL, libsodium, LibTorch) are not in the list:
# their platform code sits behind engine/platform.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
cxx=x86_64-w64-mingw32-g++-posix
if ! command -v "$cxx" > /dev/null; then
  echo "check-windows-sources: $cxx missing (installer/install-deps-debian.sh installs g++-mingw-w64-x86-64-posix)" >&2
  exit 1
fi
qt=$(dirname "$(find /usr/include -maxdepth 3 -type d -name QtCore -path '*qt6*' | head -1)")
mapfile -t sources < <(grep -rlE '_WIN32|Q_OS_WIN' engine ui --include='*.cpp' | sort)
check() {
  "$cxx" -std=c++20 -fsyntax-only -w -DQT_NO_KEYWORDS -DQT_NO_CAST_FROM_ASCII -DUNICODE -D_UNICODE \
    -I. -Iengine -I"$qt" -I"$qt/QtCore" -I"$qt/QtNetwork" -I"$qt/QtSql" -I"$qt/QtGui" -I"$qt/QtWidgets" "$1" ||
    { echo "check-windows-sources: $1 does not compile for Windows" >&2; return 1; }
}
export -f check
export cxx qt
printf '%s\0' "${sources[@]}" | xargs -0 -n1 -P "$(nproc)" bash -c 'check "$0"' 
echo "check-windows-sources: ${#sources[@]} sources with Windows branches compile for Windows (MinGW-w64, syntax only)"
