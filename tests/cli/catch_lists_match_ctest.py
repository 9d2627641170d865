#!/usr/bin/env python3
"""Every Catch2 test case is one ctest entry that runs it, and nothing else.

catch_discover_tests turns each line of `<exe> --list-test-names-only` into a ctest entry
named PREFIX + name whose command is `<exe> <escaped name> <extra args>`. A name containing
';' is split there into entries that match no test case; Catch2 then prints "No test cases
matched" and, without `--warn NoTests`, exits 0, so ctest counted a test that never ran as
passed. This check compares, per executable:
  - the names the executable lists, prefixed, with the ctest entries whose command runs that
    executable (same count, same names);
  - each entry's test spec, unescaped (CatchAddTests.cmake escapes ',' '[' ']'), with the
    entry's own name (the entry runs the test case it is named after);
  - that every entry passes `--warn NoTests` (a spec that matches nothing fails, exit 2).
and that every catch_discover_tests call in the source tree is in the list checked.

Usage: catch_lists_match_ctest.py CTEST BUILD_DIR SOURCE_DIR TARGET=EXE=PREFIX...
(PREFIX may be empty; a TARGET whose EXE is '-' is not built in this configuration).
"""
import json
import pathlib
import re
import subprocess
import sys


def unescape_spec(spec):
    return re.sub(r"\\([,\[\]])", r"\1", spec)


def main(argv):
    if len(argv) < 5:
        print(__doc__)
        return 2
    ctest, build, source = argv[1], argv[2], pathlib.Path(argv[3])
    checked = {}
    for arg in argv[4:]:
        target, exe, prefix = arg.split("=", 2)
        checked[target] = (exe, prefix)

    problems = []
    # Every catch_discover_tests(<target> ...) in the tree is checked here.
    discovered = set()
    for path in list(source.rglob("CMakeLists.txt")) + list(source.rglob("*.cmake")):
        if any(part.startswith("build") for part in path.relative_to(source).parts):
            continue
        for m in re.finditer(r"^\s*catch_discover_tests\(\s*([A-Za-z0-9_]+)", path.read_text(),
                             re.M):
            discovered.add(m.group(1))
    for target in sorted(discovered - set(checked)):
        problems.append(f"catch_discover_tests({target}) is not checked by this test")

    shown = subprocess.run([ctest, "--show-only=json-v1"], cwd=build, capture_output=True,
                           text=True, check=True)
    entries = json.loads(shown.stdout)["tests"]
    total_listed = 0
    for target, (exe, prefix) in sorted(checked.items()):
        if exe == "-":
            print(f"{target}: not built in this configuration")
            continue
        listed = subprocess.run([exe, "--list-test-names-only"], capture_output=True, text=True)
        names = [line for line in listed.stdout.split("\n") if line.strip()]
        expected = [prefix + n for n in names]
        registered = [e for e in entries if e.get("command") and e["command"][0] == exe]
        got = [e["name"] for e in registered]
        total_listed += len(names)
        print(f"{target}: {len(names)} test cases listed, {len(got)} ctest entries")
        if len(names) == 0:
            problems.append(f"{target}: lists no test case")
        for n in names:
            if ";" in n:
                problems.append(f"{target}: the name {n!r} contains ';' (ctest splits it)")
        for name in sorted(set(expected) - set(got)):
            problems.append(f"{target}: test case {name!r} has no ctest entry")
        for name in sorted(set(got) - set(expected)):
            problems.append(f"{target}: ctest entry {name!r} is no test case")
        if len(got) != len(set(got)) or len(expected) != len(got):
            problems.append(f"{target}: {len(expected)} test cases but {len(got)} ctest entries")
        for e in registered:
            cmd = e["command"]
            spec = unescape_spec(cmd[1]) if len(cmd) > 1 else ""
            if prefix + spec != e["name"]:
                problems.append(f"{target}: entry {e['name']!r} runs the spec {cmd[1:2]!r}")
            if not any(a == "--warn" and b == "NoTests" for a, b in zip(cmd, cmd[1:])):
                problems.append(f"{target}: entry {e['name']!r} lacks --warn NoTests")
    for p in problems:
        print("catch-lists: " + p)
    if problems:
        print(f"catch-lists: FAILED, {len(problems)} problem(s)")
        return 1
    print(f"catch-lists: ok, {total_listed} test cases, each exactly one ctest entry")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
