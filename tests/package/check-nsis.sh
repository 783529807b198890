#!/usr/bin/env bash
# Compiles the Windows installer definition (CPack's NSIS script with installer/windows/cohort.nsh) with Debian's
# makensis, so a syntax or macro error shows up on Linux. The installer it makes holds this machine's Linux
# programs and is thrown away: what it proves is that the script compiles, not that it installs (that needs
# Windows; see README "Windows: the NSIS installer").
#
#   tests/package/check-nsis.sh [BUILD_DIR]     (default: build; makensis from the Debian package nsis)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build_dir="$(cd "${1:-$root/build}" && pwd)"

fail() { printf 'check-nsis: FAIL: %s\n' "$*" >&2; exit 1; }

[ -f "$build_dir/CPackConfig.cmake" ] || fail "$build_dir is not a configured Cohort build tree (no CPackConfig.cmake)"
command -v makensis >/dev/null || fail "makensis is missing (apt-get install nsis; installer/install-deps-debian.sh has it)"

work="$(mktemp -d /tmp/cohort-check-nsis.XXXXXX)"
trap 'rm -rf "$work"' EXIT

echo "== compiling the NSIS installer definition (makensis $(makensis -VERSION))"
# BrandingText /TRIM* is refused by makensis outside Windows; the branding is not what is checked here.
if ! (cd "$work" && cpack --config "$build_dir/CPackConfig.cmake" -G NSIS -B "$work/out" -D CPACK_NSIS_BRANDING_TEXT= \
        >"$work/cpack.log" 2>&1); then
  cat "$work/cpack.log" >&2
  find "$work/out" -name NSISOutput.log -exec tail -n 30 {} \; >&2
  fail "cpack -G NSIS"
fi
script="$(find "$work/out" -name project.nsi | head -n 1)"
[ -n "$script" ] || fail "no project.nsi"
for hook in 'include ".*cohort.nsh"' 'insertmacro COHORT_BEFORE_INSTALL' 'insertmacro COHORT_AFTER_INSTALL' \
            'insertmacro COHORT_UNINSTALL'; do
  grep -Eq "$hook" "$script" || fail "the generated script lacks: $hook"
done
installer="$(find "$work/out" -maxdepth 1 -name 'cohort-*.exe' | head -n 1)"
[ -n "$installer" ] || fail "makensis made no installer"
echo "installer script compiles: $(basename "$installer"), $(du -k "$installer" | cut -f1) KiB (Linux programs inside; discarded)"
