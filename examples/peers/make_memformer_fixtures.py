#!/usr/bin/python3
"""Regenerates tests/peers/memformer_*: small models made with the Memformer paper's OWN code.

Run by hand (not in CI), with Debian's python3-torch (1.13):
    M=<mirror of github:SanchayanDutta/LinearTransformer>   # commit c232288 for the checked-in files
    git -C $M show "HEAD:ICLR_2025 Dynamic Memory CGD Implementation.ipynb" > /tmp/peers/cgd.ipynb
    git -C $M show "HEAD:ICLR_2025 Memformer LFOM on Isotropic Data.ipynb" > /tmp/peers/lfom.ipynb
    /usr/bin/python3 examples/peers/make_memformer_fixtures.py /tmp/peers tests/peers

The repository has no licence file, so nothing of it is copied here: this script reads each
notebook, takes the code cell that defines their Transformer_F (with attention, in_context_loss
and generate_data) and executes it, so the models below are THEIR class with THEIR forward
(identity_q, zero_p, the memory R and run_mode). Training follows the notebooks' two stages,
shortened to run on a CPU in a minute: run_mode 0 with AdamW on fresh batches (their
"variable_L" loop), then run_mode 1 fine-tuning allparam, alpha and gamma with Adam on one
fixed batch (their "Fine-tune gamma on the validation data" cell). Data: their generate_data
('normal', no U, D: x ~ N(0, I), w ~ N(0, I)), d = 3, N = 10, three layers (their einsum
'BNM,ML,BLi->BNi' costs B N^3 (d+1) per attention: smaller than the paper's d = 5, N = 20 to
train on a loaded CPU in minutes).

Each model is written with torch.save(model.state_dict(), NAME.pt) after one forward pass (so
the stored Q are those their identity_q leaves), with a sidecar NAME.json (schema
iclproof-peer-model) holding the data model, run_mode and a probe: one prompt and the
prediction their model made on it (float32), which the unit test reproduces.
"""
import json
import sys

import torch

import peer_fixture_files  # this folder's: the sidecar writer and the probe

folder, out = sys.argv[1], sys.argv[2]
N, d, L = 10, 3, 3
torch.set_num_threads(1)


def load_notebook_class(path):
    nb = json.load(open(path))
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "code" and "class Transformer_F" in src:
            ns = {}
            exec(compile(src, path, "exec"), ns)  # their cell, as it is
            return ns
    raise SystemExit(f"{path}: no cell defines Transformer_F")


def probe(ns, model):
    torch.manual_seed(12345)
    Z, y = ns["generate_data"]("normal", N, d, 1, 0.1)
    return peer_fixture_files.probe(model, Z, y, N, d)


def save(ns, name, layout, model, run_mode, notebook):
    model.run_mode = run_mode
    pr = probe(ns, model)  # a forward pass: identity_q / zero_p have acted on the parameters
    torch.save(model.state_dict(), f"{out}/{name}.pt")
    sidecar = {"schema": "iclproof-peer-model", "schema_version": 1, "layout": layout,
               "weights": f"{name}.pt", "run_mode": run_mode,
               "data": {"N": N, "inputs": "gaussian"}, "probe": pr,
               "made_by": "examples/peers/make_memformer_fixtures.py with github:SanchayanDutta/"
                          f"LinearTransformer \"{notebook}\" (Transformer_F)"}
    peer_fixture_files.write_sidecar(f"{out}/{name}.json", sidecar)


def train(ns, make, per_layer_alpha=None, steps0=300, steps1=300, seed=0):
    torch.manual_seed(seed)
    model = make(0)
    opt = torch.optim.AdamW([model.allparam], lr=0.01, betas=(0.99, 0.9), weight_decay=0)
    for t in range(steps0):  # stage 1: run_mode 0, fresh batches
        Z, y = ns["generate_data"]("normal", N, d, 500, 0.1)
        opt.zero_grad()
        loss = ns["in_context_loss"](model, Z, y)
        loss.backward()
        for l in range(L):  # their clip_and_step, clip_r = 0.01
            for k in range(2):
                g = model.allparam.grad[l, 0, k]
                if g.norm().item() > 0.01:
                    g.mul_(0.01 / g.norm().item())
        opt.step()
    print(f"{make.__name__}: run_mode 0 loss {loss.item():.4f}", file=sys.stderr)
    model.run_mode = 1
    model.alpha.requires_grad = True
    model.gamma.requires_grad = True
    torch.manual_seed(999)
    Zv, yv = ns["generate_data"]("normal", N, d, 2000, 0.1)
    if per_layer_alpha is not None:  # one scalar per layer, broadcast into their alpha tensor
        scalars = torch.nn.Parameter(torch.full((L,), per_layer_alpha))
        params = [model.allparam, scalars]
    else:
        params = [model.allparam, model.alpha, model.gamma]
    opt = torch.optim.Adam(params, lr=0.01)
    for t in range(steps1):  # stage 2: run_mode 1, one fixed batch
        opt.zero_grad()
        if per_layer_alpha is not None:
            # their forward reads self.alpha[k]: for this pass it is the tied scalars
            saved = model._parameters["alpha"]
            model._parameters["alpha"] = scalars[:, None, None, None].expand_as(saved)
            loss = ns["in_context_loss"](model, Zv, yv)
            model._parameters["alpha"] = saved
        else:
            loss = ns["in_context_loss"](model, Zv, yv)
        loss.backward()
        opt.step()
    if per_layer_alpha is not None:
        with torch.no_grad():
            model.alpha.copy_(scalars.detach()[:, None, None, None].expand_as(model.alpha))
    print(f"{make.__name__}: run_mode 1 loss {loss.item():.4f}", file=sys.stderr)
    return model


cgd = load_notebook_class(f"{folder}/cgd.ipynb")


def cgd_model(run_mode):
    return cgd["Transformer_F"](L, 1, d, 0.0001, run_mode)


m = train(cgd, cgd_model)
save(cgd, "memformer_cgd_L3", "memformer_cgd", m, 1,
     "ICLR_2025 Dynamic Memory CGD Implementation.ipynb")
with torch.no_grad():
    m.allparam[:, :, 1] *= -1  # every Q sign-flipped: an ascent step in every layer
save(cgd, "memformer_cgd_L3_sign_flipped", "memformer_cgd", m, 1,
     "ICLR_2025 Dynamic Memory CGD Implementation.ipynb")

lfom = load_notebook_class(f"{folder}/lfom.ipynb")


def lfom_model(run_mode):
    return lfom["Transformer_F"](L, 1, N, d, 0.0001, run_mode)


m = train(lfom, lfom_model, per_layer_alpha=0.5)
save(lfom, "memformer_lfom_L3", "memformer_lfom", m, 1,
     "ICLR_2025 Memformer LFOM on Isotropic Data.ipynb")
m = train(lfom, lfom_model)  # their fine-tuning: alpha per token
save(lfom, "memformer_lfom_L3_per_token", "memformer_lfom", m, 1,
     "ICLR_2025 Memformer LFOM on Isotropic Data.ipynb")
