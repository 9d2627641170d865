#!/usr/bin/env bash
# Fails if any C++ file differs from clang-format's output (.clang-format, pinned to Debian
# bookworm's clang-format 14).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
version=$(clang-format --version | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1)
case "$version" in
  14.*) ;;
  *) echo "iclproof: error: clang-format $version found, the style is pinned to 14.x" >&2; exit 1 ;;
esac
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
bad=0
for f in "${files[@]}"; do
  if ! clang-format --style=file "$f" | cmp -s - "$f"; then
    echo "clang-format: $f is not formatted (run: clang-format -i $f)"
    bad=1
  fi
done
if [ $bad -ne 0 ]; then exit 1; fi
echo "iclproof: clang-format 14 clean (${#files[@]} files)"
