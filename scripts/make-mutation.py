#!/usr/bin/env python3
"""Writes one tests/mutations/*.patch from an exact old/new string.

Usage: scripts/make-mutation.py NAME FILE RATIONALE TESTS [TARGETS] < spec
where spec holds the old text, a line "=====", and the new text (several such pairs, all
separated by "=====" lines, make several hunks). Each old text must occur exactly once in FILE
(a path relative to the repository root). The patch is a unified diff
with the header lines scripts/mutation-score.sh reads (# rationale:, # tests:, # targets:).
"""
import difflib
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
name, rel, rationale, tests = sys.argv[1:5]
targets = sys.argv[5] if len(sys.argv) > 5 else ""
parts = [part.rstrip("\n") for part in sys.stdin.read().split("\n=====\n")]
if len(parts) % 2:
    sys.exit("make-mutation: the spec needs old/new pairs")
text = (root / rel).read_text()
mutated = text
for old, new in zip(parts[0::2], parts[1::2]):
    if text.count(old) != 1:
        sys.exit(f"make-mutation: the old text occurs {text.count(old)} times in {rel}")
    mutated = mutated.replace(old, new)
diff = difflib.unified_diff(text.splitlines(keepends=True), mutated.splitlines(keepends=True),
                            fromfile="a/" + rel, tofile="b/" + rel, n=3)
head = f"# rationale: {rationale}\n# tests: {tests}\n"
if targets:
    head += f"# targets: {targets}\n"
(root / "tests" / "mutations" / (name + ".patch")).write_text(head + "".join(diff))
print(name)
