#!/usr/bin/env python3
"""The GD reference `compare` uses for K > 1 layers minimises the K-step GD loss.

Usage: compare_gd_reference_k2.py ICLPROOF WEIGHTS(K = 2, anisotropic) WORKDIR CALIBRATION_TASKS

`compare` line-searches eta on CALIBRATION_TASKS tasks of its own (tables.gd_step_reference).
Here the same data model (WEIGHTS_FORMAT: x ~ N(0, Sigma), w ~ N(0, Sigma^-1), y = w^T x, no
noise; R(w) = (1/2N) sum (w^T x_i - y_i)^2, so H = X X^T / N, b = X y / N) is sampled
independently in Python and two GD steps from 0 are taken by their recursion:
    w1 = eta b,  w2 = w1 - eta (H w1 - b) = 2 eta b - eta^2 H b,
so the query loss (1/2) mean (w2^T x_q - y_q)^2 is a quartic in eta, minimised on a grid and by
golden section. The sampling spread of an argmin over CALIBRATION_TASKS tasks (SE_cal) is
measured as the standard deviation over G disjoint Python samples of that size, and the
Python estimate over all G samples has SE_cal / sqrt(G). Pass iff
    |eta_compare - eta_python| <= 4 sqrt(SE_cal^2 + SE_cal^2 / G)
(4 standard errors of the difference of two independent estimates). The K = 1 optimum of the
same model is printed beside it: a reference that used one step's eta for two layers is outside.
"""
import json
import math
import pathlib
import random
import subprocess
import sys

G = 20


def cholesky2(S):
    a, b, d = S[0][0], S[0][1], S[1][1]
    l11 = math.sqrt(a)
    l21 = b / l11
    l22 = math.sqrt(d - l21 * l21)
    return l11, l21, l22


def quartic_sums(rng, L, N, n):
    """Sums over n tasks of the products r_i r_j, r = (-y_q, b.x_q, -(H b).x_q), and of the K=1 terms."""
    l11, l21, l22 = L
    s = [0.0] * 5  # coefficients of eta^0..eta^4 of sum (r0 + 2 r1 eta + r2 eta^2)^2
    one = [0.0, 0.0]  # sum a y, sum a^2 with a = b.x_q (one step: p = eta a)
    for _ in range(n):
        # w ~ N(0, Sigma^-1): w = L^-T z
        z1, z2 = rng.gauss(0, 1), rng.gauss(0, 1)
        w2c = z2 / l22
        w1c = (z1 - l21 * w2c) / l11
        xs = []
        for _ in range(N + 1):
            g1, g2 = rng.gauss(0, 1), rng.gauss(0, 1)
            xs.append((l11 * g1, l21 * g1 + l22 * g2))
        ctx, (q1, q2) = xs[:N], xs[N]
        h11 = sum(x[0] * x[0] for x in ctx) / N
        h12 = sum(x[0] * x[1] for x in ctx) / N
        h22 = sum(x[1] * x[1] for x in ctx) / N
        ys = [w1c * x[0] + w2c * x[1] for x in ctx]
        b1 = sum(y * x[0] for y, x in zip(ys, ctx)) / N
        b2 = sum(y * x[1] for y, x in zip(ys, ctx)) / N
        yq = w1c * q1 + w2c * q2
        r0 = -yq
        r1 = 2 * (b1 * q1 + b2 * q2)
        r2 = -((h11 * b1 + h12 * b2) * q1 + (h12 * b1 + h22 * b2) * q2)
        s[0] += r0 * r0
        s[1] += 2 * r0 * r1
        s[2] += r1 * r1 + 2 * r0 * r2
        s[3] += 2 * r1 * r2
        s[4] += r2 * r2
        a = b1 * q1 + b2 * q2
        one[0] += a * yq
        one[1] += a * a
    return s, one


def argmin(s, hi):
    f = lambda e: (((s[4] * e + s[3]) * e + s[2]) * e + s[1]) * e + s[0]
    grid = [hi * i / 400 for i in range(1, 401)]
    k = min(range(len(grid)), key=lambda i: f(grid[i]))
    a, b = grid[max(k - 1, 0)] if k > 0 else 0.0, grid[min(k + 1, len(grid) - 1)]
    g = (math.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    for _ in range(100):
        if f(c) < f(d):
            b, d = d, c
            c = b - g * (b - a)
        else:
            a, c = c, d
            d = a + g * (b - a)
    return (a + b) / 2


def main(argv):
    exe, weights, work, n_cal = argv[1], argv[2], pathlib.Path(argv[3]), int(argv[4])
    work.mkdir(parents=True, exist_ok=True)
    w = json.loads(pathlib.Path(weights).read_text())
    if w["model"]["layers"] != 2 or w["task"]["inputs"] != "anisotropic" or w["task"]["d"] != 2:
        print("compare-gd-reference: this test needs a d = 2, K = 2 anisotropic weights file")
        return 2
    N = w["task"]["N"]
    S = w["task"]["Sigma"]["data"]
    out = work / "compare.json"
    cmd = [exe, "compare", weights, "--tasks", "200", "--calibration-tasks", str(n_cal), "--json",
           str(out)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    print("$ " + " ".join(cmd) + f"\n(exit {p.returncode})")
    if p.returncode not in (0, 1):
        print(p.stdout + p.stderr)
        return 1
    ref = json.loads(out.read_text())["tables"]["gd_step_reference"]
    print(f"compare: {ref}")
    problems = []
    if ref.get("method") != f"line-searched on {n_cal} calibration tasks":
        problems.append(f"method '{ref.get('method')}', expected a line search on {n_cal} tasks")
    rng = random.Random(20261127)
    L = cholesky2(S)
    hi = 4.0 / ((S[0][0] + S[1][1]) / 2)
    total, one_total, etas = [0.0] * 5, [0.0, 0.0], []
    for _ in range(G):
        s, one = quartic_sums(rng, L, N, n_cal)
        etas.append(argmin(s, hi))
        total = [t + v for t, v in zip(total, s)]
        one_total = [t + v for t, v in zip(one_total, one)]
    eta_py = argmin(total, hi)
    mean = sum(etas) / G
    se_cal = math.sqrt(sum((e - mean) ** 2 for e in etas) / (G - 1))
    tol = 4 * math.sqrt(se_cal ** 2 + se_cal ** 2 / G)
    eta_one = one_total[0] / one_total[1]
    print(f"python: eta* (K = 2) = {eta_py:.6f} over {G} x {n_cal} tasks; SE of one "
          f"{n_cal}-task estimate {se_cal:.6f}; tolerance {tol:.6f}; K = 1 optimum {eta_one:.6f}")
    diff = abs(ref["eta"] - eta_py)
    if not diff <= tol:
        problems.append(f"compare's eta {ref['eta']:.6f} differs from the two-step optimum "
                        f"{eta_py:.6f} by {diff:.6f} > {tol:.6f}")
    for m in problems:
        print("compare-gd-reference: " + m)
    print("compare-gd-reference: " + ("FAILED" if problems else f"ok (difference {diff:.6f})"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
