"""iclproof from Python (docs/python.md).

    import iclproof
    run = iclproof.check("vonoswald.*", cases=20)          # the rows and verdicts of `check`
    result = iclproof.compare(model.state_dict(), layout="ahn_allparam", data={...})
    iclproof.verify(construction, "gd", cases=100)         # a construction of one's own

Every entry point runs the verifier of this build (`iclproof`, or `iclproof-python-engine` for
verify and list, linked from the same libraries) as a child process through the compiled module
iclproof._iclproof: the GIL is released while it runs, its table and progress lines are passed
through to sys.stdout and sys.stderr as they come, and Ctrl-C ends it and raises
KeyboardInterrupt. Rows, verdicts and JSON are therefore the command line's own (the one judge,
trust/verdict.hpp). A bad input raises iclproof.Error (a ValueError) carrying the command
line's one-line message; nothing is run after it. This module imports numpy (for arrays) and
never torch: a torch state_dict is converted through numpy by duck typing.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from . import _build
from ._iclproof import exact_matrix as _exact_matrix
from ._iclproof import run as _run

__all__ = [
    "Error", "check", "report", "list", "compare", "verify", "references",
    "Layout", "LSA", "PQ", "Head", "Construction", "CheckRun", "Row", "CompareResult",
    "Metric", "ReportRun", "VerifyResult", "PropertyInfo", "ROUNDING_BOUND",
]

_list = list  # `list` below is iclproof.list()


class Error(ValueError):
    """Bad input, or a run that could not be made: the command line's one-line message."""


def _execute(argv: Sequence[str]) -> int:
    code, message = _run([str(a) for a in argv])
    if code == 2 or code < 0:
        raise Error(message or f"{os.path.basename(argv[0])} stopped with code {code}")
    return code


# ---- rows of `check` -------------------------------------------------------------------------


def _pow2(x: Optional[float]) -> Optional[float]:
    return None if x is None else 2.0 ** x


@dataclass
class Row:
    """One row of a `check` table: the property, its error, tolerance, margin, verdict and trust
    level, as check.json (schema iclproof-check/3) records them (`raw` holds all of it)."""

    property: str
    cases: int
    error: Optional[float]  # absolute error at the check with the smallest margin
    tolerance: Union[float, str, None]  # "exact" in rationals (every check an equality)
    margin: Optional[float]  # log10(tolerance / error); inf when exact
    verdict: str  # pass | fail | gave-up | not-applicable
    trust_level: Optional[str]
    passed: bool
    reasons: List[str]
    failure: str
    counterexample: str
    reproduce: str
    raw: Dict[str, Any] = field(repr=False)

    @staticmethod
    def _from(j: Dict[str, Any]) -> "Row":
        exact = j.get("tolerance") == "exact"
        margin = j.get("margin_log10")
        return Row(
            property=j["name"],
            cases=j.get("cases", 0),
            error=_pow2(j.get("log2_max_error")),
            tolerance="exact" if exact else _pow2(j.get("log2_tolerance")),
            margin=math.inf if margin is None and exact and j.get("verdict") == "pass" else margin,
            verdict=j["verdict"],
            trust_level=j.get("trust_level"),
            passed=j["verdict"] in ("pass", "not-applicable"),
            reasons=j.get("verdict_reasons", []),
            failure=j.get("failure", "") or "",
            counterexample=j.get("counterexample", "") or "",
            reproduce=j.get("reproduce", "") or "",
            raw=j,
        )


@dataclass
class CheckRun:
    """A `check` run: `passed` is its exit code 0 (every property passed); `rows` one per
    property; `json` the whole check.json."""

    passed: bool
    rows: List[Row]
    json: Dict[str, Any] = field(repr=False)

    def row(self, name: str) -> Row:
        for r in self.rows:
            if r.property == name:
                return r
        raise KeyError(name)


def _read_json(path: str) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _check_run(code: int, path: str) -> CheckRun:
    j = _read_json(path)
    return CheckRun(passed=code == 0, rows=[Row._from(p) for p in j["properties"]], json=j)


def check(pattern: str = "*", scalar: str = "mpfr", bits: Optional[int] = None,
          cases: int = 100, seed: int = 1, size: str = "small", certified: bool = False,
          proof_audit: Optional[str] = None, quiet: bool = False) -> CheckRun:
    """`iclproof check --property PATTERN --scalar SCALAR [--precision BITS] --cases CASES
    --seed SEED --size SIZE [--certified] [--proof-audit FILE]`: prints its table, returns its
    rows."""
    with tempfile.TemporaryDirectory(prefix="iclproof-") as tmp:
        out = os.path.join(tmp, "check.json")
        argv = [_build.ICLPROOF, "check", "--property", pattern, "--scalar", scalar,
                "--cases", cases, "--seed", seed, "--size", size, "--json", out]
        if bits is not None:
            argv += ["--precision", bits]
        if certified:
            argv.append("--certified")
        if proof_audit:
            argv += ["--proof-audit", proof_audit]
        if quiet:
            argv.append("--quiet")
        return _check_run(_execute(argv), out)


# ---- report ---------------------------------------------------------------------------------


@dataclass
class ReportRun:
    """A report folder: `passed` is the report's exit code 0; `rows` one per property (the
    property entries of report.json, schema iclproof-report); `json` all of report.json."""

    passed: bool
    folder: str
    rows: List[Dict[str, Any]]
    json: Dict[str, Any] = field(repr=False)


def report(out: str, pattern: str = "*", scalar: str = "mpfr", bits: Optional[int] = None,
           cases: int = 100, seed: int = 1, sweep_bits: Optional[Sequence[int]] = None,
           plots: bool = True, weights: Sequence[str] = (), compare_tasks: Optional[int] = None,
           proof_audit: Optional[str] = None, quiet: bool = False) -> ReportRun:
    """`iclproof report --out OUT ...`: writes the folder, returns report.json's rows. With
    sweep_bits=() the precision sweep is left out (--no-sweep)."""
    argv = [_build.ICLPROOF, "report", "--out", out, "--property", pattern, "--scalar", scalar,
            "--cases", cases, "--seed", seed]
    if bits is not None:
        argv += ["--precision", bits]
    if sweep_bits is not None:
        argv += ["--sweep-bits", ",".join(str(b) for b in sweep_bits)] if sweep_bits else ["--no-sweep"]
    if not plots:
        argv.append("--no-plots")
    for w in weights:
        argv += ["--weights", w]
    if compare_tasks is not None:
        argv += ["--compare-tasks", compare_tasks]
    if proof_audit:
        argv += ["--proof-audit", proof_audit]
    if quiet:
        argv.append("--quiet")
    code = _execute(argv)
    j = _read_json(os.path.join(out, "report.json"))
    return ReportRun(passed=code == 0, folder=out, rows=j["properties"], json=j)


# ---- list -----------------------------------------------------------------------------------


@dataclass
class PropertyInfo:
    """What `iclproof list` prints for one property."""

    name: str
    claim: str
    kind: str
    theorems: List[Dict[str, str]]  # {"theorem": "proofs/File.v:name", "role": ...}
    papers: List[str]
    coverage: str
    fully_proved: bool
    can_reach: str
    limited_by: str
    runs_in: List[str]
    not_in: Dict[str, str]
    sizes: str


def list(pattern: str = "*") -> List[PropertyInfo]:  # noqa: A001 (iclproof.list, as the CLI)
    """Every property matching PATTERN: claim, citations with roles, coverage, reachable trust
    level, scalars, sizes (`iclproof list --property PATTERN`)."""
    with tempfile.TemporaryDirectory(prefix="iclproof-") as tmp:
        out = os.path.join(tmp, "list.json")
        _execute([_build.ENGINE, "list", pattern, out])
        return [PropertyInfo(**p) for p in _read_json(out)]


# ---- compare --------------------------------------------------------------------------------


@dataclass
class Metric:
    name: str
    value: Optional[float]
    relation: str
    threshold: float
    gated: bool
    passed: bool
    meaning: str
    standard_error: Optional[float]  # where compare reports one for this metric
    raw: Dict[str, Any] = field(repr=False)


@dataclass
class CompareResult:
    """`iclproof compare`'s result for weights held in memory. `to_json()` is the text
    `compare --json` writes for the same tensors, data model and seed; `path` names the
    temporary sidecar the tensors were written beside (deleted after the call), which is where
    the JSON's file names point."""

    passed: bool
    verdict: str
    experiment: str
    metrics: List[Metric]
    reasons: List[str]  # the failing gated metrics, with their values and thresholds
    notes: List[str]
    tables: Dict[str, Any]
    path: str
    json: Dict[str, Any] = field(repr=False)
    _text: str = field(repr=False, default="")

    def to_json(self) -> str:
        return self._text

    def gated(self) -> List[Metric]:
        return [m for m in self.metrics if m.gated]


def _as_numpy(value: Any, name: str):
    import numpy as np

    if hasattr(value, "detach") and hasattr(value, "cpu"):  # a torch tensor, without torch
        value = value.detach().cpu().numpy()
    a = np.asarray(value)
    if a.dtype == object:
        raise Error(f"weights '{name}': an array of Python objects; give float32 or float64")
    return np.ascontiguousarray(a)


def _json_ready(x: Any) -> Any:
    if hasattr(x, "tolist"):
        return x.tolist()
    if isinstance(x, Mapping):
        return {k: _json_ready(v) for k, v in x.items()}
    if isinstance(x, (_list, tuple)):
        return [_json_ready(v) for v in x]
    return x


def compare(weights: Mapping[str, Any], layout: str, data: Mapping[str, Any],
            seed: int = 20261122, tasks: int = 10000, precision: int = 256,
            calibration_tasks: int = 100000, tensor: Optional[str] = None,
            **sidecar: Any) -> CompareResult:
    """Judges a model held in memory as `iclproof compare` judges a peer's checkpoint named by a
    sidecar (docs/weights.md): `weights` maps tensor names to numpy arrays or torch tensors (a
    state_dict), `layout` is the sidecar's layout (ahn_allparam, memformer_cgd, memformer_lfom,
    vonoswald_haiku), `data` its data model ({"N": 20, "inputs": "gaussian"}, ...); further
    keyword arguments are further sidecar fields (run_mode, ...). The tensors go through numpy
    into an .npz file read by the command line's own reader."""
    import numpy as np

    if not isinstance(weights, Mapping):
        raise Error("weights must be a mapping of tensor names to arrays (a state_dict)")
    arrays = {str(k): _as_numpy(v, str(k)) for k, v in weights.items()}
    with tempfile.TemporaryDirectory(prefix="iclproof-") as tmp:
        np.savez(os.path.join(tmp, "weights.npz"), **arrays)
        card = {"schema": "iclproof-peer-model", "schema_version": 1, "layout": layout,
                "weights": "weights.npz", "data": _json_ready(dict(data))}
        if tensor is not None:
            card["tensor"] = tensor
        card.update(_json_ready(sidecar))
        path = os.path.join(tmp, "model.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(card, f, indent=1)
        out = os.path.join(tmp, "compare.json")
        argv = [_build.ICLPROOF, "compare", path, "--tasks", tasks, "--precision", precision,
                "--seed", seed, "--calibration-tasks", calibration_tasks, "--json", out]
        code = _execute(argv)
        with open(out, encoding="utf-8") as f:
            text = f.read()
    j = json.loads(text)
    ses = j.get("tables", {}).get("loss_ratio_standard_errors", {})
    metrics = []
    for m in j["metrics"]:
        se = m.get("standard_error")
        if se is None and isinstance(ses, Mapping):
            se = ses.get(m["name"])
        metrics.append(Metric(name=m["name"], value=m["value"], relation=m["relation"],
                              threshold=m["threshold"], gated=m["gated"], passed=m["passed"],
                              meaning=m.get("meaning", ""), standard_error=se, raw=m))
    reasons = [f"{m.name} = {m.value} fails {m.relation} {m.threshold}"
               for m in metrics if m.gated and not m.passed]
    return CompareResult(passed=code == 0, verdict=j["verdict"], experiment=j["experiment"],
                         metrics=metrics, reasons=reasons, notes=j.get("notes", []),
                         tables=j.get("tables", {}), path=path, json=j, _text=text)


# ---- a construction of one's own: verify ---------------------------------------------------

#: The tolerance of a user's construction in MPFR (the exact run needs none).
ROUNDING_BOUND = (
    "generic rounding bound of a linear-attention stack: |computed - reference| <= 2 "
    "gamma_(n+2) (shadow + |reference|), shadow = the same stack run on |weights| and |tokens|, "
    "n = e_L the stack's rounding depth, e_0 = 0, e_(l+1) = max(2, e_l) + D + keys + v + h + "
    "heads for an LSA layer, max(2, e_l) + N + 3 D + heads + 1 for a masked P, Q layer; Higham, "
    "ASNA 2nd ed., Lemma 3.1 and section 3.1 (running the computation in absolute values), as "
    "properties/rounding_shadow.hpp; hand-derived, not a Qed lemma")

#: The references a construction can claim (src/references/; newton: Fu et al. Sec. 5).
references = {
    "gd": "L GD steps from w = 0 on L(w) = 1/(2N) sum (w.x_i - y_i)^2; parameters eta, steps (1)",
    "preconditioned_gd": "w <- w - grad L(w) P_l for each preconditioner P_l (d x d); "
                         "parameter preconditioners",
    "ridge": "w = (X X^T + lambda I)^-1 X y^T; parameter lambda",
    "min_norm_least_squares": "the minimum-norm least-squares solution (X^T)^+ y^T",
    "newton": "iterative Newton: S = X X^T, M_0 = alpha S, M_j = 2 M - M S M; prediction "
              "x_q^T M_k X y^T; parameters alpha, steps",
    "cg": "conjugate gradient on R(w) = 1/(2N) ||X^T w - y^T||^2 from w = 0; parameter steps",
}

Weight = Union[Callable[..., Any], Any]  # a function of (d, N, **params), or a fixed matrix
Size = Union[int, Callable[..., int]]


@dataclass
class Layout:
    """Where x, y and the query sit in the tokens, and the read-out. Columns: the N context
    tokens, then the query, whose y entry starts at 0. Each field is an int or a function of
    (d, N, **params). Default: von Oswald et al.'s tokens (x; y), D = d + 1, read-out
    -(y entry of the query)."""

    dim: Size = lambda d, N, **p: d + 1
    x_row: Size = 0
    y_row: Size = lambda d, N, **p: d
    readout_row: Size = lambda d, N, **p: d
    readout_sign: int = -1


@dataclass
class Head:
    """One attention head. LSA: W_K, W_Q (h x D), W_V (v x D), P (D x v). PQ: P, Q (D x D)."""

    blocks: Dict[str, Weight]


def _heads(kind: str, names: Sequence[str], heads, kwargs) -> List[Head]:
    if heads is not None:
        if kwargs:
            raise Error(f"{kind}: give either heads=[...] or the blocks {', '.join(names)}")
        out = [h if isinstance(h, Head) else Head(dict(h)) for h in heads]
    else:
        out = [Head(dict(kwargs))]
    for h in out:
        if set(h.blocks) != set(names):
            raise Error(f"{kind} head: blocks {sorted(h.blocks)}; a {kind} head has exactly "
                        f"{', '.join(names)}")
    return out


class LSA:
    """Linear self-attention (lsa/lsa_layer.hpp): e_j += sum_heads P (sum_keys (W_V e_i)
    (W_K e_i)^T) (W_Q e_j); masked: the keys are the context tokens only."""

    kind = "lsa"

    def __init__(self, W_K: Weight = None, W_Q: Weight = None, W_V: Weight = None,
                 P: Weight = None, masked: bool = True, heads: Optional[Sequence] = None):
        given = {k: v for k, v in dict(W_K=W_K, W_Q=W_Q, W_V=W_V, P=P).items() if v is not None}
        self.heads = _heads("LSA", ["W_K", "W_Q", "W_V", "P"], heads, given)
        self.masked = bool(masked)


class PQ:
    """Ahn et al.'s linear attention (memformer/z_form_transformer.hpp): Z += (1/N) sum_heads
    P Z M Z^T Q Z; masked (M = diag(I_N, 0)) or not (every token a key)."""

    kind = "pq"

    def __init__(self, P: Weight = None, Q: Weight = None, masked: bool = True,
                 heads: Optional[Sequence] = None):
        given = {k: v for k, v in dict(P=P, Q=Q).items() if v is not None}
        self.heads = _heads("PQ", ["P", "Q"], heads, given)
        self.masked = bool(masked)


def _value(f: Any, d: int, N: int, params: Mapping[str, Any]) -> Any:
    return f(d, N, **params) if callable(f) else f


def _exact_scalar(x: Any, what: str) -> str:
    return _exact_matrix([[x]], what)[0][0]


@dataclass
class Construction:
    """A construction written as matrices: layers (LSA, PQ) whose weights are functions of
    (d, N, **params) returning 2-D arrays of Fractions, ints, "p/q" strings or floats (a float
    is its exact binary value), a token Layout, named parameters (eta, ...), and the size
    ranges the cases draw d and N from."""

    name: str
    layers: Sequence[Any]
    layout: Layout = field(default_factory=Layout)
    params: Dict[str, Any] = field(default_factory=dict)
    d: Sequence[int] = (1, 4)
    N: Sequence[int] = (1, 8)

    def _instance(self, d: int, N: int, reference: str, ref_params: Mapping[str, Any]) -> dict:
        p = self.params
        lay = self.layout
        layers = []
        for l, layer in enumerate(self.layers):
            if not isinstance(layer, (LSA, PQ)):
                raise Error(f"layer {l} is a {type(layer).__name__}; iclproof.verify takes "
                            "LSA and PQ layers")
            heads = []
            for h, head in enumerate(layer.heads):
                heads.append({name: _exact_matrix(_value(f, d, N, p), f"layer {l} head {h} {name}")
                              for name, f in head.blocks.items()})
            layers.append({"kind": layer.kind, "masked": layer.masked, "heads": heads})
        scalars, preconditioners = {}, []
        for key, v in ref_params.items():
            v = _value(v, d, N, p)
            if key == "preconditioners":
                preconditioners = [_exact_matrix(P, f"preconditioner {i}") for i, P in enumerate(v)]
            else:
                scalars[key] = _exact_scalar(v, f"reference parameter {key}")

        def size(x: Size, what: str) -> int:
            v = _value(x, d, N, p)
            if isinstance(v, bool) or not isinstance(v, int):
                raise Error(f"layout {what} is a {type(v).__name__}, not an int")
            return v

        return {"d": d, "N": N, "D": size(lay.dim, "dim"), "x_row": size(lay.x_row, "x_row"),
                "y_row": size(lay.y_row, "y_row"),
                "readout_row": size(lay.readout_row, "readout_row"),
                "sign": int(lay.readout_sign), "layers": layers, "reference_scalars": scalars,
                "preconditioners": preconditioners}


@dataclass
class VerifyResult:
    """verify's runs, one per scalar (rational: the claim checked as an equality; mpfr: within
    ROUNDING_BOUND); `passed` when every run passed."""

    passed: bool
    runs: Dict[str, CheckRun]

    @property
    def rows(self) -> List[Row]:
        return [r for run in self.runs.values() for r in run.rows]


def verify(construction: Construction, reference: str, cases: int = 100,
           scalar: Union[str, Sequence[str]] = ("rational", "mpfr"), bits: Optional[int] = None,
           seed: int = 1, quiet: bool = False, **reference_params: Any) -> VerifyResult:
    """Runs a user's construction through the generic layers and compares its query prediction
    with the claimed reference (iclproof.references) on `cases` random regression tasks, in
    each scalar: rational (exact, tolerance none) and mpfr (`bits`, default 256; tolerance
    ROUNDING_BOUND). Prints each run's `check` header, row and failing case. Reference
    parameters default to the construction's params of the same name (eta, steps, ...)."""
    if reference not in references:
        raise Error(f"unknown reference '{reference}' (known: {', '.join(references)})")
    if not isinstance(construction, Construction):
        raise Error("construction must be an iclproof.Construction")
    wanted = {"gd": ["eta", "steps"], "preconditioned_gd": ["preconditioners"],
              "ridge": ["lambda"], "min_norm_least_squares": [], "newton": ["alpha", "steps"],
              "cg": ["steps"]}[reference]
    params = {k: construction.params[k] for k in wanted if k in construction.params}
    params.update(reference_params)
    unknown = sorted(set(params) - set(wanted))
    if unknown:
        raise Error(f"reference '{reference}' has no parameter {', '.join(unknown)} "
                    f"(it takes: {', '.join(wanted) or 'none'})")
    scalars = [scalar] if isinstance(scalar, str) else _list(scalar)
    for s in scalars:
        if s not in ("rational", "mpfr"):
            raise Error(f"scalar '{s}': a user's construction runs in rational or mpfr")
    try:
        d_min, d_max = (int(v) for v in construction.d)
        N_min, N_max = (int(v) for v in construction.N)
    except (TypeError, ValueError):
        raise Error("Construction.d and .N are (min, max) pairs of ints") from None
    if not (1 <= d_min <= d_max <= 64 and 1 <= N_min <= N_max <= 256):
        raise Error(f"sizes d {d_min}..{d_max}, N {N_min}..{N_max}: need 1 <= d_min <= d_max "
                    "<= 64 and 1 <= N_min <= N_max <= 256")
    instances = [construction._instance(d, N, reference, params)
                 for d in range(d_min, d_max + 1) for N in range(N_min, N_max + 1)]
    kinds = sorted({layer.kind for layer in construction.layers})
    description = (f"{len(construction.layers)} layer(s) of kind {'/'.join(kinds)}, "
                   f"params {', '.join(f'{k} = {v}' for k, v in construction.params.items()) or 'none'}")
    runs = {}
    with tempfile.TemporaryDirectory(prefix="iclproof-") as tmp:
        for s in scalars:
            request = {"name": construction.name, "reference": reference,
                       "description": description, "d_min": d_min, "d_max": d_max,
                       "N_min": N_min, "N_max": N_max, "instances": instances, "scalar": s,
                       "cases": cases, "seed": seed, "bits": bits if s == "mpfr" else None,
                       "reproduce": f"iclproof.verify(<{construction.name}>, '{reference}', "
                                    f"cases={cases}, scalar='{s}', seed={seed}"
                                    + (f", bits={bits}" if bits and s == "mpfr" else "") + ")",
                       "quiet": bool(quiet)}
            path = os.path.join(tmp, f"request-{s}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(request, f)
            out = os.path.join(tmp, f"check-{s}.json")
            argv = [_build.ENGINE, "verify", path, out]
            runs[s] = _check_run(_execute(argv), out)
    return VerifyResult(passed=all(r.passed for r in runs.values()), runs=runs)
