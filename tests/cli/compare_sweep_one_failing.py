#!/usr/bin/env python3
"""A seed sweep (`iclproof compare A.json B.json ...`) fails when one file fails.

Usage: compare_sweep_one_failing.py ICLPROOF GOOD_WEIGHTS WORKDIR TASKS

GOOD_WEIGHTS is a weights file that passes every gated metric. The sweep is run twice on the
same files but one: GOOD plus a copy of it (seed field 2) must exit 0, "2 of 2"; GOOD plus a
broken copy (P W_V negated: the read-out flips sign, seed field 3) must exit 1, "1 of 2", with
the broken file's row FAIL, the good one's PASS, and sweep.json files_passed = 1 of files = 2.
So the one changed file alone decides the exit code.
"""
import copy
import json
import pathlib
import subprocess
import sys


def run(exe, files, tasks, json_out):
    cmd = [exe, "compare", *map(str, files), "--tasks", str(tasks), "--json", str(json_out)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    print("$ " + " ".join(cmd) + f"\n{p.stdout}{p.stderr}(exit {p.returncode})")
    return p


def main(argv):
    exe, good_path, work, tasks = argv[1], pathlib.Path(argv[2]), pathlib.Path(argv[3]), argv[4]
    work.mkdir(parents=True, exist_ok=True)
    good = json.loads(good_path.read_text())
    twin = copy.deepcopy(good)
    twin["seed"] = 2
    broken = copy.deepcopy(good)
    broken["seed"] = 3
    for ps in broken["parameter_sets"]:
        ps["W_V"]["data"] = [[-v for v in row] for row in ps["W_V"]["data"]]
    (work / "twin.json").write_text(json.dumps(twin))
    (work / "broken.json").write_text(json.dumps(broken))
    problems = []

    p = run(exe, [good_path, work / "twin.json"], tasks, work / "passing.json")
    if p.returncode != 0 or "verdict: 2 of 2 files pass" not in p.stdout:
        problems.append(f"two passing files: exit {p.returncode}, expected 0 and '2 of 2'")

    p = run(exe, [good_path, work / "broken.json"], tasks, work / "one_failing.json")
    if p.returncode != 1:
        problems.append(f"one failing file: exit {p.returncode}, expected 1")
    if "verdict: 1 of 2 files pass" not in p.stdout:
        problems.append("one failing file: no 'verdict: 1 of 2 files pass'")
    rows = {line.split(":")[0]: line for line in p.stdout.splitlines() if ": PASS" in line
            or ": FAIL" in line}
    if ": FAIL" not in rows.get(str(work / "broken.json"), ""):
        problems.append("the broken file's row is not FAIL")
    if ": PASS" not in rows.get(str(good_path), ""):
        problems.append("the good file's row is not PASS")
    try:
        s = json.loads((work / "one_failing.json").read_text())
        if s.get("files") != 2 or s.get("files_passed") != 1:
            problems.append(f"sweep json: files {s.get('files')}, files_passed "
                            f"{s.get('files_passed')}; expected 2 and 1")
    except (OSError, ValueError) as e:
        problems.append(f"sweep json unreadable: {e}")
    for m in problems:
        print("compare-sweep: " + m)
    print("compare-sweep: " + ("FAILED" if problems else "ok: one failing file fails the sweep"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
