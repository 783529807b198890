#!/usr/bin/env bash
# The one code style (.clang-format): fails, naming each file, when a tracked C++ or CUDA source differs from what
# clang-format-14 makes of it. Fix with: clang-format-14 -i $(git ls-files '*.cpp' '*.h' '*.cu')
# The version is pinned because clang-format's output changes between releases; Debian 12 ships 14.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
formatter="${CLANG_FORMAT:-clang-format-14}"
if ! command -v "$formatter" > /dev/null; then
  echo "check_format: $formatter is not installed (installer/install-deps-debian.sh installs clang-format)" >&2
  exit 1
fi
# Tracked files still on disk (a deletion not yet committed is no source).
mapfile -t sources < <(git ls-files '*.cpp' '*.h' '*.cu' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
# One run over every file: each difference is reported as "<file>:<line>:<col>: error: code should be
# clang-formatted"; any other output (an unreadable .clang-format) fails the check too.
report="$("$formatter" --dry-run --Werror "${sources[@]}" 2>&1)" || true
if [ -n "$report" ]; then
  files="$(printf '%s\n' "$report" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)"
  if [ -n "$files" ]; then
    printf 'not formatted by .clang-format: %s\n' $files >&2
  else
    printf '%s\n' "$report" >&2
  fi
  echo "fix with: $formatter -i \$(git ls-files '*.cpp' '*.h' '*.cu')" >&2
  exit 1
fi
echo "check_format: ${#sources[@]} sources follow .clang-format"
