#!/usr/bin/python3
"""Makes tests/peers/memformer_lfom_L3_last_context_alpha_zero: the second of two copies of the
LFOM notebook's model with one alpha per layer (issue 39), with THEIR class and THEIR forward.

The first copy is tests/peers/memformer_lfom_L3 (examples/peers/make_memformer_fixtures.py). The
second is the same state_dict with alpha[L-1, 0, n, :] = 0 for the context tokens n < N of the
last layer, as their per-token fine-tuning leaves those entries (they get no gradient: the last
layer's update of a context token is never read). Both copies make identical predictions; this
script checks it on 2000 prompts of their generate_data (the largest difference must be 0.0
exactly) before writing anything.

Run by hand (not in CI), with Debian's python3-torch (1.13):
    M=<mirror of github:SanchayanDutta/LinearTransformer>   # commit c232288
    git -C $M show "HEAD:ICLR_2025 Memformer LFOM on Isotropic Data.ipynb" > /tmp/peers/lfom.ipynb
    /usr/bin/python3 examples/peers/make_memformer_lfom_unused_alpha.py /tmp/peers tests/peers
"""
import json
import sys

import torch

import peer_fixture_files  # this folder's: the sidecar writer and the probe

folder, out = sys.argv[1], sys.argv[2]
N, d, L = 10, 3, 3
torch.set_num_threads(1)


def load_notebook_class(path):  # as make_memformer_fixtures.py: their cell, as it is
    nb = json.load(open(path))
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "code" and "class Transformer_F" in src:
            ns = {}
            exec(compile(src, path, "exec"), ns)
            return ns
    raise SystemExit(f"{path}: no cell defines Transformer_F")


lfom = load_notebook_class(f"{folder}/lfom.ipynb")
first = lfom["Transformer_F"](L, 1, N, d, 0.0001, 1)
first.load_state_dict(torch.load(f"{out}/memformer_lfom_L3.pt"))
second = lfom["Transformer_F"](L, 1, N, d, 0.0001, 1)
second.load_state_dict(torch.load(f"{out}/memformer_lfom_L3.pt"))
with torch.no_grad():
    second.alpha[L - 1, 0, :N, :] = 0.0
torch.manual_seed(2039)
Z, y = lfom["generate_data"]("normal", N, d, 2000, 0.1)
with torch.no_grad():
    diff = (first(Z)[:, N, d] - second(Z)[:, N, d]).abs().max().item()
print(f"largest difference of the two copies' predictions on 2000 prompts: {diff}",
      file=sys.stderr)
if diff != 0.0:
    raise SystemExit("the copies differ: the zeroed entries reach the prediction")

name = "memformer_lfom_L3_last_context_alpha_zero"
torch.manual_seed(12345)  # the probe prompt of make_memformer_fixtures.py
Zp, yp = lfom["generate_data"]("normal", N, d, 1, 0.1)
pr = peer_fixture_files.probe(second, Zp, yp, N, d)
torch.save(second.state_dict(), f"{out}/{name}.pt")
notebook = "ICLR_2025 Memformer LFOM on Isotropic Data.ipynb"
peer_fixture_files.write_sidecar(f"{out}/{name}.json", {
    "schema": "iclproof-peer-model", "schema_version": 1, "layout": "memformer_lfom",
    "weights": f"{name}.pt", "run_mode": 1, "data": {"N": N, "inputs": "gaussian"}, "probe": pr,
    "made_by": "examples/peers/make_memformer_lfom_unused_alpha.py from memformer_lfom_L3.pt "
               "with github:SanchayanDutta/LinearTransformer "
               f"\"{notebook}\" (Transformer_F): alpha[{L - 1}, 0, :{N}, :] = 0"})
