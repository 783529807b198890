#!/usr/bin/env bash
# The Debian package, end to end, on this machine:
#   1. cpack builds the .deb from an already configured and built tree (default: build/, as installer/setup.sh
#      leaves it; nothing is recompiled if it is up to date);
#   2. its contents are checked: Depends, desktop entry (desktop-file-validate), AppStream metainfo
#      (appstreamcli validate --no-net), icons, man pages (troff warnings, every --help option documented),
#      systemd units;
#   3. `apt-get install ./cohort_*.deb`, then the installed programs run: --version of all three, and cohortd for
#      20 s on the embedded local network with HOME and XDG folders in a temporary directory;
#   4. `apt-get remove --purge cohort`, after which no path the package listed may remain, the user's data must.
# The package is purged on every exit path, also on failure. Needs root (apt-get, dpkg).
#
#   tests/package/check-deb.sh [BUILD_DIR]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build_dir="$(cd "${1:-$root/build}" && pwd)"
package=cohort
run_seconds=20

say() { printf '== %s\n' "$*"; }
fail() { printf 'check-deb: FAIL: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run as root (it installs and purges the package with apt-get)"
[ -f "$build_dir/CPackConfig.cmake" ] || fail "$build_dir is not a configured Cohort build tree (no CPackConfig.cmake)"
for tool in cpack apt-get dpkg dpkg-deb desktop-file-validate appstreamcli man; do
  command -v "$tool" >/dev/null || fail "$tool is missing (installer/install-deps-debian.sh installs it)"
done
if dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^[a-z]i'; then
  fail "$package is already installed here; remove it first (apt-get remove --purge $package)"
fi

work="$(mktemp -d /tmp/cohort-check-deb.XXXXXX)"
chmod 755 "$work" # apt's download user must be able to read the .deb
installed=0
cleanup() {
  local rc=$?
  trap '' PIPE INT TERM HUP # finish the clean-up even if the terminal or the pipe reading our output is gone
  if [ "$installed" -eq 1 ] || dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^[a-z][^n]'; then
    echo "check-deb: purging $package" >&2
    DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -qq "$package" >/dev/null 2>&1 || dpkg --purge "$package" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
trap 'exit 141' PIPE

start=$(date +%s)

# --- 1. build ------------------------------------------------------------------------------------------------------
say "building the .deb from $build_dir"
cmake --build "$build_dir" -j "$(nproc 2>/dev/null || echo 2)" >"$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log" >&2; fail "cmake --build $build_dir"; }
(cd "$work" && cpack --config "$build_dir/CPackConfig.cmake" -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log" >&2; fail "cpack -G DEB failed"; }
mapfile -t debs < <(find "$work/pkg" -maxdepth 1 -name "${package}_*.deb")
[ ${#debs[@]} -eq 1 ] || fail "expected one ${package}_*.deb from cpack, found ${#debs[@]}"
deb="${debs[0]}"
version="$(dpkg-deb -f "$deb" Version)"
upstream_version="${version%-*}"
depends="$(dpkg-deb -f "$deb" Depends)"
echo "package:  $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB, installed size $(dpkg-deb -f "$deb" Installed-Size) KiB"
echo "Depends:  $depends"
echo "Recommends: $(dpkg-deb -f "$deb" Recommends)"

# --- 2. contents ---------------------------------------------------------------------------------------------------
say "checking the package contents"
# Names as on Debian 12; newer releases add a t64 suffix to some, and the LibTorch package carries its version.
for dep in 'libtorch[0-9.]+' 'libqt6core6(t64)?' 'libqt6network6(t64)?' libqt6httpserver6 'libqt6sql6(t64)?' \
           libqt6sql6-sqlite 'libqt6widgets6(t64)?' libqt6charts6 libqt6svg6 libsodium23 'libssl3(t64)?' \
           libopenblas0-openmp; do
  grep -Eq "(^|, )$dep( |,|$)" <<<"$depends" || fail "Depends lacks $dep"
done

tree="$work/tree"
dpkg-deb -x "$deb" "$tree"
for path in usr/bin/cohort usr/bin/cohortd usr/bin/cohort-hub \
            usr/share/applications/io.cohort.Cohort.desktop usr/share/metainfo/io.cohort.Cohort.metainfo.xml \
            usr/share/icons/hicolor/scalable/apps/io.cohort.Cohort.svg \
            usr/share/man/man1/cohort.1.gz usr/share/man/man1/cohortd.1.gz usr/share/man/man1/cohort-hub.1.gz \
            usr/lib/systemd/system/cohort-hub.service usr/lib/systemd/system/cohortd.service \
            usr/share/doc/cohort/copyright usr/lib/cohort/libcohort_engine_parts.so; do
  [ -e "$tree/$path" ] || fail "the package lacks /$path"
done
for state in starting idle working downloading syncing throttled paused offline error; do
  for variant in "" -light -dark; do
    [ -f "$tree/usr/share/icons/hicolor/scalable/status/io.cohort.Cohort-$state$variant.svg" ] ||
      fail "no tray icon for $state$variant"
  done
done
for program in cohort cohortd cohort-hub; do
  if readelf -d "$tree/usr/bin/$program" | grep -Eq 'RPATH|RUNPATH'; then fail "/usr/bin/$program carries an RPATH"; fi
done

echo "desktop-file-validate:"
desktop-file-validate "$tree/usr/share/applications/io.cohort.Cohort.desktop" || fail "desktop-file-validate"
echo "  ok"
echo "appstreamcli validate --no-net:"
appstreamcli validate --no-net "$tree/usr/share/metainfo/io.cohort.Cohort.metainfo.xml" || fail "appstreamcli validate"
grep -q "<release version=\"$upstream_version\"" "$tree/usr/share/metainfo/io.cohort.Cohort.metainfo.xml" ||
  fail "the metainfo has no <release> for $upstream_version"
icon="$(sed -n 's/^Icon=//p' "$tree/usr/share/applications/io.cohort.Cohort.desktop")"
[ -f "$tree/usr/share/icons/hicolor/scalable/apps/$icon.svg" ] || fail "the desktop entry's icon $icon is not installed"

for unit in cohort-hub cohortd; do
  exec_path="$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$tree/usr/lib/systemd/system/$unit.service")"
  [ "$exec_path" = "/usr/bin/$unit" ] || fail "$unit.service starts '$exec_path', not /usr/bin/$unit"
done

# --- 3. install and run ---------------------------------------------------------------------------------------------
say "apt-get install ./$(basename "$deb")"
cp "$deb" "$work/"
installed=1
(cd "$work" && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "./$(basename "$deb")") \
  >"$work/apt-install.log" 2>&1 || { cat "$work/apt-install.log" >&2; fail "apt-get install"; }
grep -E '^(Unpacking|Setting up) cohort' "$work/apt-install.log" || true
dpkg-query -W -f='${db:Status-Abbrev}' "$package" | grep -q '^ii' || fail "$package is not installed after apt-get install"
dpkg -L "$package" >"$work/files.txt"
echo "installed $(grep -c . "$work/files.txt") paths"

for program in cohort cohortd cohort-hub; do
  [ -x "/usr/bin/$program" ] || fail "/usr/bin/$program missing after installation"
  if ldd "/usr/bin/$program" | grep -q 'not found'; then ldd "/usr/bin/$program" >&2; fail "$program: libraries missing"; fi
done
if ldd /usr/lib/cohort/libcohort_engine_parts.so | grep -q 'not found'; then
  ldd /usr/lib/cohort/libcohort_engine_parts.so >&2; fail "the engine module: libraries missing"
fi
# The desktop app finds its engine module where it is installed (/usr/bin/../lib/cohort) and starts the engine.
app_home="$work/app-home"; mkdir -p "$app_home"
HOME="$app_home" XDG_CONFIG_HOME="$app_home/config" XDG_DATA_HOME="$app_home/share" QT_QPA_PLATFORM=offscreen \
  QT_LOGGING_RULES='cohort.*.info=true' timeout 60 /usr/bin/cohort --data-dir "$app_home/data" 2>"$work/app.log" &
app_pid=$!
for _ in $(seq 1 300); do grep -q 'engine module .* loaded in' "$work/app.log" && break; sleep 0.1; done
kill -TERM "$app_pid" 2>/dev/null || true
wait "$app_pid" || true
grep -q 'engine module .* loaded in' "$work/app.log" || { cat "$work/app.log" >&2; fail "cohort did not load its engine module"; }
echo "cohort: $(grep -o 'engine module .* loaded in [0-9]* ms' "$work/app.log")"
out="$(/usr/bin/cohortd --version)"; echo "cohortd --version: $out"
[ "$out" = "cohortd $upstream_version" ] || fail "cohortd --version says '$out', the package is $upstream_version"
out="$(/usr/bin/cohort-hub --version)"; echo "cohort-hub --version: $out"
[ "$out" = "cohort-hub $upstream_version" ] || fail "cohort-hub --version says '$out', the package is $upstream_version"
out="$(QT_QPA_PLATFORM=offscreen /usr/bin/cohort --version 2>/dev/null)"; echo "cohort --version: $out"
[ "$out" = "Cohort $upstream_version" ] || fail "cohort --version says '$out', the package is $upstream_version"

# Man pages: no troff warnings, and every option --help lists is documented.
for program in cohort cohortd cohort-hub; do
  page="/usr/share/man/man1/$program.1.gz"
  [ -f "$page" ] || { echo "man page $page not unpacked here (dpkg path-exclude?); skipped"; continue; }
  warnings="$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null || true)"
  [ -z "$warnings" ] || fail "man page $program.1: $warnings"
  text="$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$page" 2>/dev/null | col -b)"
  if [ "$program" = cohort ]; then help="$(QT_QPA_PLATFORM=offscreen "/usr/bin/$program" --help 2>/dev/null)"
  else help="$("/usr/bin/$program" --help)"; fi
  while IFS= read -r option; do
    grep -qF -- "$option" <<<"$text" || fail "man page $program.1 does not mention $option"
  done < <(grep -oE -- '--[a-z][a-z-]*' <<<"$help" | sort -u)
done
echo "man pages: ok"

if command -v systemd-analyze >/dev/null; then
  systemd-analyze verify /usr/lib/systemd/system/cohort-hub.service /usr/lib/systemd/system/cohortd.service ||
    fail "systemd-analyze verify"
  echo "systemd-analyze verify: ok"
fi
for unit in cohort-hub cohortd; do
  if find /etc/systemd/system -name "$unit.service" 2>/dev/null | grep -q .; then fail "$unit.service was enabled"; fi
done

say "cohortd --duration $run_seconds on the embedded local network (HOME in a temporary folder)"
home="$work/home"
mkdir -p "$home"
set +e
env -i PATH=/usr/bin:/bin HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" \
    XDG_CACHE_HOME="$home/.cache" XDG_RUNTIME_DIR="$work/runtime" LANG=C.UTF-8 \
    timeout --kill-after=10 $((run_seconds + 40)) /usr/bin/cohortd --duration "$run_seconds" >"$work/run.log" 2>&1
rc=$?
set -e
cat "$work/run.log"
[ "$rc" -eq 0 ] || fail "cohortd exited with $rc"
[ -f "$home/.local/share/Cohort/identity/node.key" ] || fail "no node key under \$XDG_DATA_HOME/Cohort"
[ "$(stat -c %a "$home/.local/share/Cohort/identity/node.key")" = 600 ] || fail "node.key is not mode 0600"
[ -f "$home/.config/Cohort/cohort.ini" ] || fail "no settings file under \$XDG_CONFIG_HOME/Cohort"
echo "cohortd ran for $run_seconds s and exited 0; data in \$XDG_DATA_HOME/Cohort, settings in \$XDG_CONFIG_HOME/Cohort"

# --- 4. purge -------------------------------------------------------------------------------------------------------
say "apt-get remove --purge -y $package"
DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -q "$package" >"$work/apt-remove.log" 2>&1 ||
  { cat "$work/apt-remove.log" >&2; fail "apt-get remove --purge"; }
installed=0
grep -E '^(Removing|Purging)' "$work/apt-remove.log" || true
if dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^[a-z][^n]'; then
  fail "$package is still known to dpkg: $(dpkg-query -W -f='${Status}' "$package")"
fi
left=0
while IFS= read -r path; do
  if [ -z "$path" ] || [ "$path" = "/." ]; then continue; fi
  if [ -e "$path" ] || [ -L "$path" ]; then
    if [ -d "$path" ] && [ ! -L "$path" ]; then
      # A directory stays when another package owns it or it holds someone else's files; ours are checked one by one.
      if dpkg -S "$path" >/dev/null 2>&1 || [ -n "$(ls -A "$path")" ]; then continue; fi
    fi
    echo "left behind: $path" >&2
    left=$((left + 1))
  fi
done <"$work/files.txt"
[ "$left" -eq 0 ] || fail "$left paths of the package remain after purge"
if ls /var/lib/dpkg/info/"$package".* >/dev/null 2>&1; then fail "dpkg still holds $package's control files"; fi
[ -f "$home/.local/share/Cohort/identity/node.key" ] || fail "the purge removed the user's data"
echo "nothing of the package remains ($(grep -c . "$work/files.txt") paths checked); the user's data stays"

say "package check passed in $(( $(date +%s) - start )) s"
