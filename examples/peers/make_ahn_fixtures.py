#!/usr/bin/python3
"""Regenerates tests/peers/ahn_*: small models trained with Ahn et al.'s OWN model code.

Run by hand (not in CI), with Debian's python3-torch (1.13):
    git -C <mirror of github:chengxiang/LinearTransformer> show HEAD:linear_transformer.py \
        > /tmp/peers/linear_transformer.py
    /usr/bin/python3 examples/peers/make_ahn_fixtures.py /tmp/peers tests/peers [NAME ... | --pt-only]

With NAMEs (e.g. ahn_L2_with_P_trained) only those fixtures are trained and written; each is
trained from its own seed, so it does not depend on which others are made.

With a third argument --pt-only, nothing is trained: each tests/peers/ahn_*.safetensors already
there is loaded into their Transformer_F and saved again with torch.save(model.state_dict())
as ahn_*.pt, next to a sidecar ahn_*_pt.json naming it (the same data model and probe), so that
both readers are tested on the same weights.

The first argument is a folder holding the peer's linear_transformer.py (commit b6ddc35 was
used for the checked-in files); this script imports Transformer_F, generate_data,
generate_data_inplace and in_context_loss from it and does not copy any of it. Training follows
their "rotation demonstration-Adam" notebook (AdamW, betas (0.99, 0.9), per-matrix gradient
clipping, U from the SVD of a uniform matrix, D = diag(1, 1, 1/2, 1/4, 1), the learning rate
halved at fixed steps), shortened to run on a CPU in minutes: 1200 steps of batch 4000 with a
fresh batch every step (their notebook: batch 20000, resampled every 100 steps, 100000 steps).

Each model is written as a safetensors file holding the state_dict (one tensor, allparam), as
torch.save(model.state_dict()) writes it (NAME.pt, with the sidecar NAME_pt.json), and a
sidecar JSON (schema iclproof-peer-model, layout ahn_allparam) with the data model (N, and U and
D as passed to their generate_data). safetensors is written by hand (8-byte little-endian header
length, JSON header padded with spaces to a multiple of 8, raw little-endian float32 data), as
the Debian system has no safetensors package.
"""
import json
import struct
import sys

import torch

import peer_fixture_files  # this folder's: the sidecar writer and the probe

sys.path.insert(0, sys.argv[1])
out = sys.argv[2]
import linear_transformer as lt  # noqa: E402  (the peer's file)

only = set(sys.argv[3:])
N, d, B = 20, 5, 4000
torch.set_num_threads(1)


def save_pt(name, model):
    """torch.save of the state_dict, and a copy of the sidecar NAME.json that names it."""
    torch.save(model.state_dict(), f"{out}/{name}.pt")
    with open(f"{out}/{name}.json") as f:
        sidecar = json.load(f)
    sidecar["weights"] = f"{name}.pt"
    peer_fixture_files.write_sidecar(f"{out}/{name}_pt.json", sidecar)


if len(sys.argv) > 3 and sys.argv[3] == "--pt-only":
    import glob
    import os
    for path in sorted(glob.glob(f"{out}/ahn_*.safetensors")):
        name = os.path.basename(path)[:-len(".safetensors")]
        raw = open(path, "rb").read()
        n = struct.unpack("<Q", raw[:8])[0]
        meta = json.loads(raw[8:8 + n])["allparam"]
        assert meta["dtype"] == "F32"
        begin, end = meta["data_offsets"]
        t = torch.frombuffer(bytearray(raw[8 + n + begin:8 + n + end]), dtype=torch.float32)
        shape = meta["shape"]
        model = lt.Transformer_F(shape[0], shape[1], shape[3], 0.0001)
        with torch.no_grad():
            model.allparam.copy_(t.reshape(shape))
        save_pt(name, model)
    sys.exit(0)


def probe(model, U=None, D=None):
    # One prompt from their generate_data and their model's own prediction on it: the test reads
    # the same weights through the layout and must predict the same value.
    torch.manual_seed(12345)
    Z, y = lt.generate_data("normal", N, d, 1, 0.1, U, D)
    return peer_fixture_files.probe(model, Z, y, N, d)


def wanted(*names):
    return not only or any(n in only for n in names)


def save(name, model, data, U=None, D=None):
    t = model.allparam.detach().to(torch.float32).contiguous()
    raw = t.numpy().tobytes()  # little-endian on x86
    header = json.dumps({"allparam": {"dtype": "F32", "shape": list(t.shape),
                                      "data_offsets": [0, len(raw)]}}).encode()
    header += b" " * (-len(header) % 8)
    with open(f"{out}/{name}.safetensors", "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header + raw)
    sidecar = {"schema": "iclproof-peer-model", "schema_version": 1, "layout": "ahn_allparam",
               "weights": f"{name}.safetensors", "tensor": "allparam", "data": data,
               "probe": probe(model, U, D),
               "made_by": "examples/peers/make_ahn_fixtures.py with github:chengxiang/"
                          "LinearTransformer linear_transformer.py (Transformer_F)"}
    peer_fixture_files.write_sidecar(f"{out}/{name}.json", sidecar)
    save_pt(name, model)


def train(n_layer, steps, U=None, D=None, zero_p=True, seed=0, lr=0.01):
    torch.manual_seed(seed)
    model = lt.Transformer_F(n_layer, 1, d, 0.0001)
    if zero_p:
        model.zero_p()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.99, 0.9), weight_decay=0)
    Z, y = lt.generate_data("normal", N, d, B, 0.1, U, D)
    for t in range(steps):
        Z, y = lt.generate_data_inplace(Z, U=U, D=D)  # a fresh batch every step
        if t % (steps // 6) == 0 and t > 0:  # their halving schedule, compressed
            opt.param_groups[0]["lr"] *= 0.5
        opt.zero_grad()
        loss = lt.in_context_loss(model, Z, y)
        loss.backward()
        for l in range(n_layer):  # their clip_and_step, clip_r = 0.01
            for k in range(2):
                g = model.allparam.grad[l, 0, k]
                n = g.norm().item()
                if n > 0.01:
                    g.mul_(0.01 / n)
        opt.step()
        if zero_p:
            model.zero_p()
    print(f"n_layer {n_layer}: final training loss {loss.item():.4f}", file=sys.stderr)
    return model


def matrix(t):
    return [[float(x) for x in row] for row in t.tolist()]


# 1. One layer, isotropic Gaussian data, P = 0 (zero_p): near the exact optimum A* = N/(N+d+1) I.
if wanted("ahn_L1_gaussian", "ahn_L1_gaussian_sign_flipped"):
    m1 = train(1, 1200)
    save("ahn_L1_gaussian", m1, {"N": N, "inputs": "gaussian"})
    # 2. The same, sign-flipped Q: a wrong model (the prediction changes sign).
    with torch.no_grad():
        m1.allparam[:, :, 1] *= -1
    save("ahn_L1_gaussian_sign_flipped", m1, {"N": N, "inputs": "gaussian"})
# 3. Three layers on rotated data, P = 0, as their rotation notebook (shortened: it beats GD but
#    has not aligned with Sigma^-1 yet, and compare says so).
if wanted("ahn_L3_rotated"):
    torch.manual_seed(0)
    U = torch.linalg.svd(torch.FloatTensor(d, d).uniform_(-1, 1))[0]
    D = torch.diag(torch.FloatTensor([1, 1, 1 / 2, 1 / 4, 1]))
    m3 = train(3, 1200, U, D)
    save("ahn_L3_rotated", m3, {"N": N, "inputs": "anisotropic", "U": matrix(U), "D": matrix(D)},
         U, D)
# 4. Two layers with P trained (their default model, without zero_p): the full linear
#    transformer, judged as it is (src/compare/compare_ahn_full.cpp). 300 steps: under-trained.
if wanted("ahn_L2_with_P"):
    m2 = train(2, 300, zero_p=False)
    save("ahn_L2_with_P", m2, {"N": N, "inputs": "gaussian"})
# 5. The same model trained for 1200 steps of the schedule.
if wanted("ahn_L2_with_P_trained"):
    m2t = train(2, 1200, zero_p=False)
    save("ahn_L2_with_P_trained", m2t, {"N": N, "inputs": "gaussian"})
