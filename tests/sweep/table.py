#!/usr/bin/env python3
"""Markdown table of `iclproof check --json` files: per property and configuration the cases
run, the worst margin log10(tolerance / error) over all checks, the verdict and the time."""
import json
import sys

runs = [json.load(open(path)) for path in sys.argv[1:]]
names = sorted({p["name"] for r in runs for p in r["properties"]})
head = "| property | " + " | ".join(
    f"{r['scalar']} {r['precision_bits']}b seed {r['seed']}: cases, margin, verdict, s" for r in runs)
print(head + " |")
print("|---" * (len(runs) + 1) + "|")
for name in names:
    cells = []
    for r in runs:
        p = next((p for p in r["properties"] if p["name"] == name), None)
        if p is None:
            cells.append("-")
            continue
        if p["verdict"] == "not-applicable":  # no body in this scalar: no margin, no error
            cells.append("not applicable")
            continue
        m = p["margin_log10"]
        margin = "exact" if m is None and p["log2_max_error"] is None else (
            "n/a" if m is None else f"{m:+.2f}")
        cells.append(f"{p['cases']}, {margin}, {p['verdict'].upper()}, {p['seconds']:.1f}")
    print(f"| {name} | " + " | ".join(cells) + " |")
