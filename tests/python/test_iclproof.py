"""The Python package iclproof (docs/python.md), against the command line of the same build.

Run by the ctest python.pytest as `/usr/bin/python3 -m pytest tests/python` with PYTHONPATH at
build/python, ICLPROOF_EXE the command line and ICLPROOF_SOURCE_DIR the repository.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import iclproof
from iclproof import _iclproof

EXE = os.environ.get("ICLPROOF_EXE", iclproof._build.ICLPROOF)
SOURCE = Path(os.environ.get("ICLPROOF_SOURCE_DIR", Path(__file__).resolve().parents[2]))
PEERS = SOURCE / "tests" / "peers"


def cli(*args, check_code=None):
    p = subprocess.run([EXE, *map(str, args)], capture_output=True, text=True)
    if check_code is not None:
        assert p.returncode == check_code, p.stdout + p.stderr
    return p


def cli_error(*args):
    p = cli(*args, check_code=2)
    lines = p.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("iclproof: error: "), p.stderr
    return lines[-1][len("iclproof: error: "):]


# ---- import --------------------------------------------------------------------------------


def test_import_does_not_import_torch():
    code = "import sys, iclproof; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_readme_line_works():
    code = "import iclproof; print(iclproof.check('vonoswald.*', cases=20).passed)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "True"


# ---- check, list, report: the command line's rows ----------------------------------------------


def same_rows(python_rows, cli_json):
    by_name = {p["name"]: p for p in cli_json["properties"]}
    assert [r.property for r in python_rows] == list(by_name)
    for r in python_rows:
        c = by_name[r.property]
        for key in ("verdict", "log2_max_error", "log2_tolerance", "tolerance", "margin_log10",
                    "trust_level", "verdict_reasons", "cases", "checks", "failure"):
            assert r.raw.get(key) == c.get(key), (r.property, key)


@pytest.mark.parametrize("scalar,seed", [("mpfr", 3), ("rational", 5)])
def test_check_gives_the_rows_of_the_command_line(tmp_path, scalar, seed):
    run = iclproof.check("vonoswald.prop1*", scalar=scalar, cases=15, seed=seed, quiet=True)
    cli("check", "--property", "vonoswald.prop1*", "--scalar", scalar, "--cases", 15, "--seed",
        seed, "--quiet", "--json", tmp_path / "c.json", check_code=0)
    same_rows(run.rows, json.loads((tmp_path / "c.json").read_text()))
    assert run.passed and all(r.passed for r in run.rows)
    row = run.row("vonoswald.prop1_layer_moves_every_token_by_one_gd_step")
    if scalar == "rational":
        assert row.tolerance == "exact"
    else:
        assert 0 < row.error <= row.tolerance and row.margin > 0
        assert row.trust_level == "tolerance under a rounding model"


def test_list_gives_every_claim_and_citation():
    props = iclproof.list("vonoswald.*")
    text = cli("list", "--property", "vonoswald.*", check_code=0).stdout
    names = [line for line in text.splitlines() if line and not line.startswith(" ")]
    assert [p.name for p in props] == names
    for p in props:
        assert f"  claim:     {p.claim}\n" in text
        for t in p.theorems:
            assert f"  theorem:   {t['theorem']} ({t['role']})\n" in text
        assert f"  can reach: {p.can_reach}" in text


def test_report_gives_the_rows_and_gate_of_the_command_line(tmp_path):
    r = iclproof.report(str(tmp_path / "py"), pattern="vonoswald.prop1*", cases=5,
                        sweep_bits=(), plots=False, quiet=True)
    cli("report", "--out", tmp_path / "cli", "--property", "vonoswald.prop1*", "--cases", 5,
        "--no-sweep", "--no-plots", "--quiet", check_code=0)
    c = json.loads((tmp_path / "cli" / "report.json").read_text())
    assert r.passed
    assert [(p["name"], p["verdict"], p["gate"], p["worst_check"]) for p in r.rows] == [
        (p["name"], p["verdict"], p["gate"], p["worst_check"]) for p in c["properties"]]


# ---- compare: weights held in memory ------------------------------------------------------------


def card_of(sidecar):
    card = json.loads(sidecar.read_text())
    extra = {k: v for k, v in card.items()
             if k not in ("schema", "schema_version", "layout", "weights", "data", "probe",
                          "made_by", "tensor")}
    return card, extra


def test_compare_json_equals_the_command_line_json(tmp_path):
    sidecar = PEERS / "vonoswald_gd_L1_npz.json"
    card, extra = card_of(sidecar)
    weights = dict(np.load(PEERS / card["weights"]))
    r = iclproof.compare(weights, layout=card["layout"], data=card["data"], seed=7, tasks=200,
                         calibration_tasks=2000, **extra)
    # The command line on the same tensors and card, written as compare writes them.
    shutil.copy(PEERS / card["weights"], tmp_path / "weights.npz")
    mine = {"schema": "iclproof-peer-model", "schema_version": 1, "layout": card["layout"],
            "weights": "weights.npz", "data": card["data"], **extra}
    (tmp_path / "model.json").write_text(json.dumps(mine, indent=1))
    cli("compare", tmp_path / "model.json", "--tasks", 200, "--calibration-tasks", 2000,
        "--seed", 7, "--json", tmp_path / "cli.json", check_code=0)
    expected = (tmp_path / "cli.json").read_text()
    assert r.to_json().replace(os.path.dirname(r.path), str(tmp_path)) == expected
    # and the verdict and numbers of the fixture's own sidecar (its .npz read by the CLI)
    cli("compare", sidecar, "--tasks", 200, "--calibration-tasks", 2000, "--seed", 7,
        "--json", tmp_path / "fixture.json", check_code=0)
    fixture = json.loads((tmp_path / "fixture.json").read_text())
    assert r.passed and r.verdict == fixture["verdict"] == "pass"
    assert [(m.name, m.value, m.passed) for m in r.metrics] == [
        (m["name"], m["value"], m["passed"]) for m in fixture["metrics"]]
    assert r.gated() and not r.reasons


def test_compare_a_torch_state_dict_gives_the_verdict_and_numbers_of_the_command_line(tmp_path):
    torch = pytest.importorskip("torch")
    sidecar = PEERS / "ahn_L1_gaussian_pt.json"
    card, extra = card_of(sidecar)
    state_dict = torch.load(PEERS / card["weights"])
    assert all(isinstance(v, torch.Tensor) for v in state_dict.values())
    r = iclproof.compare(state_dict, layout=card["layout"], data=card["data"], tasks=300,
                         seed=11, calibration_tasks=2000, **extra)
    cli("compare", sidecar, "--tasks", 300, "--calibration-tasks", 2000, "--seed", 11,
        "--json", tmp_path / "cli.json", check_code=0)
    c = json.loads((tmp_path / "cli.json").read_text())
    assert r.verdict == c["verdict"] == "pass"
    assert [(m.name, m.value, m.threshold, m.gated, m.passed) for m in r.metrics] == [
        (m["name"], m["value"], m["threshold"], m["gated"], m["passed"]) for m in c["metrics"]]
    assert r.tables == c["tables"]


def test_compare_a_sign_flipped_model_fails_with_reasons():
    card, extra = card_of(PEERS / "vonoswald_gd_L1_sign_flipped_npz.json")
    weights = dict(np.load(PEERS / card["weights"]))
    r = iclproof.compare(weights, layout=card["layout"], data=card["data"], tasks=200,
                         calibration_tasks=2000, **extra)
    assert not r.passed and r.verdict == "fail" and r.reasons
    assert all(not m.passed for m in r.gated() if any(m.name in x for x in r.reasons))


def python_and_cli_errors(tmp_path, weights, layout, data):
    """The Python error and the command line's for the same tensors and card, with the folder
    of each card replaced by <dir>."""
    with pytest.raises(iclproof.Error) as e:
        iclproof.compare(weights, layout=layout, data=data, tasks=10)
    np.savez(tmp_path / "weights.npz", **weights)
    card = {"schema": "iclproof-peer-model", "schema_version": 1, "layout": layout,
            "weights": "weights.npz", "data": data}
    (tmp_path / "model.json").write_text(json.dumps(card))
    message = cli_error("compare", tmp_path / "model.json", "--tasks", 10)
    py = re.sub(r"/[^ ]*/iclproof-[^/ ]+/", "<dir>/", str(e.value))
    return py, message.replace(str(tmp_path) + "/", "<dir>/")


def allparam(d=3):
    a = np.zeros((1, 1, 2, d + 1, d + 1), dtype=np.float32)
    a[0, 0, 1, :d, :d] = -np.eye(d)
    return a


def test_compare_unknown_layout_is_the_command_line_error(tmp_path):
    py, c = python_and_cli_errors(tmp_path, {"allparam": allparam()}, "no_such_layout",
                                  {"N": 10, "inputs": "gaussian"})
    assert py == c and "unknown layout 'no_such_layout'" in py


def test_compare_wrong_shape_is_the_command_line_error(tmp_path):
    py, c = python_and_cli_errors(tmp_path, {"allparam": np.zeros((2, 4, 4), np.float32)},
                                  "ahn_allparam", {"N": 10, "inputs": "gaussian"})
    assert py == c and "shape" in py


def test_compare_nan_is_the_command_line_error(tmp_path):
    a = allparam()
    a[0, 0, 1, 0, 1] = np.nan
    py, c = python_and_cli_errors(tmp_path, {"allparam": a}, "ahn_allparam",
                                  {"N": 10, "inputs": "gaussian"})
    assert py == c and ("nan" in py.lower() or "finite" in py)


def test_check_bad_input_is_the_command_line_error():
    for kwargs, args in [({"scalar": "float"}, ["--scalar", "float"]),
                         ({"pattern": "no_such_family.*"}, ["--property", "no_such_family.*"]),
                         ({"scalar": "rational", "bits": 64},
                          ["--scalar", "rational", "--precision", "64"])]:
        with pytest.raises(iclproof.Error) as e:
            iclproof.check(cases=1, **kwargs)
        assert str(e.value) == cli_error("check", "--cases", 1, *args)


# ---- verify: a construction written as matrices --------------------------------------------------


def prop1(sign=-1, eta=Fraction(1, 2), rectangular=False):
    """Von Oswald's Prop. 1; with rectangular=True the key and query maps are the d x (d+1)
    matrices [I_d, 0] (h = d), which only fit when read row by row."""
    def kq(d, N, eta):
        return np.eye(d, d + 1, dtype=int) if rectangular else np.diag([1] * d + [0])
    return iclproof.Construction(
        name="prop1_test" + ("_flipped" if sign == 1 else "") + ("_rect" if rectangular else ""),
        layers=[iclproof.LSA(W_K=kq, W_Q=kq, W_V=lambda d, N, eta: np.diag([0] * d + [sign]),
                             P=lambda d, N, eta: np.diag([Fraction(eta) / N] * (d + 1)))],
        params={"eta": eta})


@pytest.mark.parametrize("rectangular", [False, True])
def test_verify_prop1_passes_in_rationals_and_mpfr(rectangular):
    r = iclproof.verify(prop1(rectangular=rectangular), "gd", cases=30, quiet=True)
    assert r.passed and set(r.runs) == {"rational", "mpfr"}
    exact, mpfr = r.runs["rational"].rows[0], r.runs["mpfr"].rows[0]
    assert exact.tolerance == "exact" and exact.verdict == "pass"
    assert mpfr.verdict == "pass" and 0 < mpfr.tolerance and mpfr.margin > 0
    assert mpfr.trust_level == "tolerance under a rounding model"


def test_verify_sign_flip_fails_with_the_failing_case(capfd):
    r = iclproof.verify(prop1(sign=1), "gd", cases=30)
    out = capfd.readouterr().out
    assert not r.passed
    for s in ("rational", "mpfr"):
        row = r.runs[s].rows[0]
        assert row.verdict == "fail" and "X (d x N)" in row.failure and "x_q" in row.failure
    assert out.count("---- user.prop1_test_flipped") == 2 and "reproduce: iclproof.verify(" in out
    assert f"tolerance of user.prop1_test_flipped in mpfr: {iclproof.ROUNDING_BOUND}\n" in out


def test_verify_other_references_and_pq_layers():
    # Ahn et al.'s Lemma 1 with A = eta I, one P/Q layer: one GD step with eta.
    def P(d, N, eta):
        return np.diag([0] * d + [1])

    def Q(d, N, eta):
        return np.diag([-eta] * d + [0])
    c = iclproof.Construction(name="ahn_lemma1_test", layers=[iclproof.PQ(P=P, Q=Q)],
                              params={"eta": Fraction(1, 3)})
    r = iclproof.verify(c, "gd", cases=20, quiet=True)
    assert r.passed
    # two such layers are two GD steps, and not one
    two = iclproof.Construction(name="ahn_two_layers", layers=[iclproof.PQ(P=P, Q=Q)] * 2,
                                params={"eta": Fraction(1, 3)})
    assert iclproof.verify(two, "gd", cases=20, quiet=True, steps=2).passed
    assert not iclproof.verify(two, "gd", cases=20, scalar="rational", quiet=True).passed
    # preconditioned GD with P_l = eta I is the same as GD
    pgd = iclproof.verify(c, "preconditioned_gd", cases=10, quiet=True,
                          preconditioners=lambda d, N, eta: [np.eye(d, dtype=object) * eta])
    assert pgd.passed


def failing_case(row):
    """X, y, x_q (exact binary values of the doubles printed) and the exact reference of the
    failing case a rational run printed."""
    def values(label):
        m = re.search(re.escape(label) + r" = \n((?:  \[[^\]]*\]\n)+)", row.failure)
        return [[Fraction(float(v)) for v in line.strip()[1:-1].split(",")]
                for line in m.group(1).splitlines()]
    ref = re.search(r"reference =\n  \[([^\]]+)\]", row.failure).group(1)
    return values("X (d x N)"), values("y (1 x N)")[0], values("x_q"), Fraction(ref)


@pytest.mark.parametrize("reference,params", [
    ("gd", {"steps": 3}), ("ridge", {"lambda": Fraction(1, 5)}), ("min_norm_least_squares", {}),
    ("newton", {"alpha": Fraction(1, 7), "steps": 2}), ("cg", {"steps": 1})])
def test_each_reference_is_the_closed_form(reference, params):
    """One-dimensional inputs (d = 1), where every reference has a closed form in Fractions:
    the exact reference value the engine printed must be it (Prop. 1 is none of these, so the
    rational run fails and prints its case)."""
    c = prop1()
    c.d = (1, 1)
    c.N = (2, 6)
    eta = c.params["eta"]
    r = iclproof.verify(c, reference, cases=5, scalar="rational", quiet=True,
                        **params)
    row = r.runs["rational"].rows[0]
    assert row.verdict == "fail"
    X, y, xq, printed = failing_case(row)
    x = X[0]
    N = len(x)
    xx = sum(v * v for v in x)
    xy = sum(a * b for a, b in zip(x, y))
    if reference == "gd":
        w = Fraction(0)
        for _ in range(params["steps"]):
            w -= eta * (w * xx - xy) / N
    elif reference == "ridge":
        w = xy / (xx + params["lambda"])
    elif reference in ("min_norm_least_squares", "cg"):  # one CG step is exact in 1-D
        w = xy / xx if xx else Fraction(0)
    else:
        m = params["alpha"] * xx
        for _ in range(params["steps"]):
            m = 2 * m - m * xx * m
        w = m * xy
    assert printed == w * xq[0][0]


def test_verify_bad_input_raises_one_clear_error():
    good = prop1()
    with pytest.raises(iclproof.Error, match=r"unknown reference 'sgd' \(known: gd, "):
        iclproof.verify(good, "sgd")
    bad_shape = iclproof.Construction(
        name="bad_shape", layers=[iclproof.LSA(W_K=np.eye(2), W_Q=np.eye(2), W_V=np.eye(2),
                                               P=np.eye(3))], params={"eta": 1}, d=(2, 2))
    with pytest.raises(iclproof.Error, match=r"^at d = 2, N = 1: lsa_layer: head 0 has W_K 2x2"):
        iclproof.verify(bad_shape, "gd", cases=2)
    with pytest.raises(ValueError, match=r"layer 0 head 0 P: entry \[0\]\[0\] is nan, not a finite"):
        iclproof.verify(iclproof.Construction(
            name="nan", layers=[iclproof.LSA(W_K=np.eye(2), W_Q=np.eye(2), W_V=np.eye(2),
                                             P=np.full((2, 2), np.nan))], d=(1, 1)), "gd", eta=1)
    with pytest.raises(TypeError, match=r"entry \[0\]\[0\] is a Decimal, not a Fraction, int, "):
        iclproof.verify(iclproof.Construction(
            name="decimal", layers=[iclproof.LSA(
                W_K=np.eye(2), W_Q=np.eye(2), W_V=np.eye(2),
                P=np.array([[Decimal(1), 0], [0, 1]], dtype=object))], d=(1, 1)), "gd", eta=1)
    fixed = iclproof.LSA(W_K=np.diag([1, 0]), W_Q=np.diag([1, 0]), W_V=np.diag([0, -1]),
                         P=np.array([["1/2", 0], [0, "1/2"]], dtype=object))
    with pytest.raises(iclproof.Error, match=r"reference 'gd' needs the parameter eta"):
        iclproof.verify(iclproof.Construction(name="no_eta", layers=[fixed], d=(1, 1)), "gd",
                        cases=1)
    with pytest.raises(iclproof.Error, match=r"has no parameter lambda"):
        iclproof.verify(good, "gd", **{"lambda": 1})


# ---- the binding's array conversion ----------------------------------------------------------


def test_exact_matrix_is_row_major_and_exact():
    m = np.array([[1, 2, 3], [4, 5, 6]])
    assert _iclproof.exact_matrix(m, "m") == [["1", "2", "3"], ["4", "5", "6"]]
    assert _iclproof.exact_matrix(m.T, "m") == [["1", "4"], ["2", "5"], ["3", "6"]]
    assert _iclproof.exact_matrix(np.asfortranarray(m), "m") == [["1", "2", "3"], ["4", "5", "6"]]
    assert _iclproof.exact_matrix([[Fraction(1, 3), "3/4"], [0.1, np.float32(0.5)]], "m") == [
        ["1/3", "3/4"], ["3602879701896397/36028797018963968", "1/2"]]
    with pytest.raises(TypeError, match="is a bool"):
        _iclproof.exact_matrix([[True]], "m")
    with pytest.raises(ValueError, match="'x' is not an exact number"):
        _iclproof.exact_matrix([["x"]], "m")
    with pytest.raises(ValueError, match="a matrix has 2 dimensions, this has 1"):
        _iclproof.exact_matrix([1, 2], "m")


# ---- GIL, progress lines, Ctrl-C -------------------------------------------------------------


def test_a_long_call_releases_the_gil():
    """While a check runs in another thread, this thread keeps running: no gap between its
    ticks spans half the call (holding the GIL, one gap would span all of it)."""
    import threading

    done = threading.Event()
    worker = threading.Thread(target=lambda: (iclproof.check("vonoswald.*", cases=300,
                                                             quiet=True), done.set()))
    start = last = time.monotonic()
    gap = 0.0
    worker.start()
    while not done.is_set():
        time.sleep(0.001)
        now = time.monotonic()
        gap, last = max(gap, now - last), now
    worker.join()
    total = time.monotonic() - start
    assert gap < 0.5 * total, (gap, total)


def test_progress_lines_are_the_command_lines(capfd, monkeypatch):
    monkeypatch.setenv("ICLPROOF_PROGRESS_SECONDS", "0")
    iclproof.check("vonoswald.prop1*", cases=30)
    err = capfd.readouterr().err
    # check's --jobs workers finish the properties in any order: [k/3 done] with any k
    finished = re.findall(r"^iclproof check: \[[1-3]/3 done\] (vonoswald[.]prop1_\w+): 30/30 "
                          r"cases, finished \(elapsed [0-9]+ s\)$", err, re.M)
    assert sorted(finished) == [p.name for p in iclproof.list("vonoswald.prop1*")], err


def test_compare_progress_lines_are_the_command_lines(capfd, monkeypatch):
    """compare's per-task lines (compare/task_progress.hpp) come through as check's do."""
    monkeypatch.setenv("ICLPROOF_PROGRESS_SECONDS", "0")
    card, extra = card_of(PEERS / "vonoswald_gd_L1_npz.json")
    weights = dict(np.load(PEERS / card["weights"]))
    iclproof.compare(weights, layout=card["layout"], data=card["data"], tasks=50,
                     calibration_tasks=200, **extra)
    err = capfd.readouterr().err
    counting = (r"^iclproof compare: forward passes of the learned model: [1-9][0-9]*/50 tasks, "
                r"[0-9.e+]+ tasks/s, ETA [0-9]+ s \(elapsed [0-9]+ s\)$")
    assert re.search(counting, err, re.M), err
    assert re.search(r"^iclproof compare: forward passes of the learned model: 50/50 tasks, "
                     r"finished \(elapsed [0-9]+ s\)$", err, re.M), err




def test_ctrl_c_stops_a_long_check_with_keyboard_interrupt():
    code = ("import iclproof\n"
            "try:\n"
            "    iclproof.check('*', cases=100000, quiet=True)\n"
            "except KeyboardInterrupt:\n"
            "    print('KeyboardInterrupt', flush=True)\n"
            "    raise\n")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(4)
        assert p.poll() is None, "the check ended before the interrupt"
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        assert time.monotonic() - sent < 5, "not prompt"
        assert "KeyboardInterrupt" in out and p.returncode != 0, err
    finally:
        if p.poll() is None:  # the test failed: end the check's process group, then Python
            for stat in Path("/proc").glob("[0-9]*/stat"):
                try:
                    fields = stat.read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == p.pid:  # a child of the Python process: a group leader
                    os.killpg(int(stat.parent.name), signal.SIGKILL)
            p.kill()
            p.wait()
