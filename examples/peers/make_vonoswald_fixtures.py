#!/usr/bin/python3
"""Regenerates tests/peers/vonoswald_*: von Oswald et al.'s parameter tree, exported to files.

Run by hand (not in CI), with Debian's python3-numpy and python3-torch (1.13):
    /usr/bin/python3 examples/peers/make_vonoswald_fixtures.py tests/peers ETA

Their code (github google-research/self-organising-systems, transformers_learn_icl_by_gd,
Apache-2.0) is JAX/Haiku, which Debian does not package. This script therefore RE-TYPES, in
numpy and without copying, the two pieces the fixtures need, with their parameter names:
  - create_weights (src/data.py): the weights of one gradient-descent step with learning rate
    lr, named 'Transformer_gd/multi_head_attention/{query,key,value,linear}' with param 'w';
  - the forward of their Transformer (src/transformer.py, src/attn.py) in the configuration of
    that construction: one head, linear attention (use_softmax False), attention only, no layer
    norm, no positional encoding, no biases, keys and values from the context tokens only
    (include_query False), h <- h + dampening * attn with dampening 1, prediction -h[-1, -1].
The Haiku tree {module: {param: array}} is flattened to "module/param" names and written twice,
as numpy.savez writes it (NAME.npz) and as torch.save writes a dict of tensors (NAME.pt).

ETA is the learning rate of the construction: give compare's exact one-step GD rate for
uniform inputs at d = 3, N = 10 (its gd_step_reference.eta) so that the model IS one GD step
with eta*. Data: their create_reg_data at input_range 2, w_scale 1 (x ~ U(-1, 1)^d, w ~ N(0, I)).
"""
import sys

import numpy as np
import torch

import peer_fixture_files  # this folder's: the sidecar writer

out, eta = sys.argv[1], float(sys.argv[2])
i_size, o_size, N = 3, 1, 10
D = i_size + o_size


def create_weights(lr):
    """GD weights as their create_weights(i_size, 1, c_size = N, lr, w_init = 0) builds them."""
    value = np.zeros((D, D), np.float32)
    value[i_size, i_size] = -1  # value_lower_right = -I_o; value_lower_left = w_init = 0
    value = value.T
    query = np.zeros((D, D), np.float32)
    query[:i_size, :i_size] = np.eye(i_size)
    projection = np.zeros((D, D), np.float32)
    projection[i_size, i_size] = lr / N
    name = "Transformer_gd/multi_head_attention/"
    return {name + "query": {"w": query}, name + "key": {"w": query.copy()},
            name + "value": {"w": value}, name + "linear": {"w": projection}}


def forward(params, h):
    """Their linear, attention-only, one-head layer: h is (T, D), the last token the query."""
    p = {k.rsplit("/", 1)[-1]: v["w"] for k, v in params.items()}
    q, k, v = h @ p["query"], h[:-1] @ p["key"], h[:-1] @ p["value"]
    attn = (q @ k.T) @ v  # [T, T_ctx] @ [T_ctx, V]: no softmax, no 1/sqrt(key_size)
    h = h + attn @ p["linear"]
    return -h[-1, -1]


def export(name, params, x, y, x_q):
    flat = {f"{module}/{param}": np.asarray(a, np.float32)
            for module, ps in params.items() for param, a in ps.items()}
    np.savez(f"{out}/{name}.npz", **flat)
    torch.save({k: torch.from_numpy(a) for k, a in flat.items()}, f"{out}/{name}.pt")
    h = np.concatenate([np.concatenate([x, y[:, None]], 1),
                        np.concatenate([x_q, np.zeros(1, np.float32)])[None]], 0)
    probe = {"X": x.T.tolist(), "y": y.tolist(), "x_q": x_q.tolist(),
             "y_hat_peer": float(forward(params, h.astype(np.float32))),
             "y_q": float(x_q @ w), "dtype": "float32"}
    for fmt in ("pt", "npz"):
        sidecar = {"schema": "iclproof-peer-model", "schema_version": 1,
                   "layout": "vonoswald_haiku", "weights": f"{name}.{fmt}",
                   "model": {"num_heads": 1, "dampening": 1.0, "num_layers": 1},
                   "data": {"N": N, "inputs": "uniform", "input_range": 2, "weight_scale": 1},
                   "probe": probe,
                   "made_by": "examples/peers/make_vonoswald_fixtures.py: their create_weights "
                              "and forward re-typed in numpy (google-research/self-organising-"
                              "systems, transformers_learn_icl_by_gd)"}
        peer_fixture_files.write_sidecar(f"{out}/{name}_{fmt}.json", sidecar)


rng = np.random.default_rng(7)
x = rng.uniform(-1, 1, (N, i_size)).astype(np.float32)
w = rng.standard_normal(i_size).astype(np.float32)
x_q = rng.uniform(-1, 1, i_size).astype(np.float32)
y = (x @ w).astype(np.float32)
export("vonoswald_gd_L1", create_weights(eta), x, y, x_q)
export("vonoswald_gd_L1_sign_flipped", create_weights(-eta), x, y, x_q)
