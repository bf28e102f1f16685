#!/usr/bin/env bash
# The house rules, checked before anything is built (scripts/test.sh runs this first):
# clang-format, no source file over 800 lines, commit subjects "area: summary" within 72
# characters, no reference outside the repository, no include that climbs out of its folder,
# and the library's environment read only through its one parser.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
status=0
fail() {
  echo "check-house: $*" >&2
  status=1
}

mapfile -t sources < <(git ls-files '*.cpp' '*.h')

# 1. Formatting: .clang-format is the style; a table kept by hand says `// clang-format off`.
if command -v clang-format >/dev/null; then
  if ! clang-format --dry-run --Werror "${sources[@]}" 2>/tmp/check-house-format.txt; then
    grep -m 20 'error:' /tmp/check-house-format.txt >&2 || true
    fail "clang-format: $(grep -c 'error:' /tmp/check-house-format.txt) places differ (clang-format -i <file>)"
  fi
else
  fail "clang-format is not installed (scripts/setup-debian.sh installs it)"
fi

# 2. Small files: no source, shader, script or CMake file over 800 lines.
while read -r lines file; do
  [ "$file" = total ] && continue
  [ "$lines" -gt 800 ] && fail "$file has $lines lines (at most 800: split it by idea)"
done < <(git ls-files '*.cpp' '*.h' '*.comp' '*.glsl' '*.py' '*.sh' '*.cmake' '*CMakeLists.txt' |
  xargs wc -l)

# 3. Commit subjects from the day the rule began: "area: summary", at most 72 characters.
if git rev-parse --verify -q HEAD >/dev/null; then
  while IFS= read -r subject; do
    case "$subject" in
      Merge*) continue ;;
    esac
    if [ "${#subject}" -gt 72 ]; then
      fail "commit subject over 72 characters (${#subject}): $subject"
    elif ! [[ "$subject" =~ ^[A-Za-z0-9_./+-]+(,\ ?[A-Za-z0-9_./+-]+)*:\ [^\ ] ]]; then
      fail "commit subject not 'area: summary': $subject"
    fi
  done < <(git log --since=2026-12-06T00:00:00Z --format=%s)
fi

# 4. The repository stands alone: nothing refers to the team folder beside it.
outside='\.\./'"shared"  # spelt in two parts, so this file does not match itself
if git grep -n -I "$outside" >/dev/null; then
  git grep -n -I "$outside" >&2
  fail "files refer to a folder outside the repository (ARCHITECTURE.md is the design map)"
fi

# 5. Includes name their layer: a relative include that climbs ("../") would pass the
#    layered build's walls (cmake/layers.cmake).
if git grep -n -E '#include "\.\./' -- src include >/dev/null; then
  git grep -n -E '#include "\.\./' -- src include >&2
  fail "an include climbs with ../ (name the layer: \"core/...\")"
fi

# 6. The environment: the library reads it only in src/common/settings.cpp, at most 15 VKT_*.
getenv_elsewhere=$(git grep -l -E 'std::getenv|getenv\(' -- src include |
  grep -v -E '^src/common/settings\.cpp$' || true)
[ -n "$getenv_elsewhere" ] && fail "getenv outside src/common/settings.cpp: $getenv_elsewhere"
count=$(git grep -h -o -E '"VKT_[A-Z0-9_]+"' -- src include | sort -u | wc -l)
[ "$count" -gt 15 ] && fail "the library names $count VKT_* variables (at most 15)"

[ "$status" = 0 ] && echo "check-house: all rules hold"
exit "$status"
