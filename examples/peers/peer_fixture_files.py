"""What every examples/peers/make_*_fixtures.py writes the same way: a sidecar JSON file (indent
1 and a final newline, as tests/peers/ holds them) and the probe of a peer model (one prompt and
the model's own prediction on it, which tests/unit/compare_peer_models_test.cpp reproduces)."""
import json


def write_sidecar(path, sidecar):
    """The sidecar (schema iclproof-peer-model) as JSON at path."""
    with open(path, "w") as f:
        json.dump(sidecar, f, indent=1)
        f.write("\n")


def probe(model, Z, y, N, d):
    """One prompt Z (batch 1, the peer's generate_data: N context tokens and the query, each
    x then y) with the query's label y, and the peer model's own prediction on it (float32, as
    their attention builds float32 tensors): -model(Z)[0, N, d]."""
    import torch  # only here: make_vonoswald_fixtures.py writes its probe with numpy
    with torch.no_grad():
        y_hat = -model(Z)[0, N, d].item()
    return {"X": [[float(v) for v in row] for row in Z[0, :N, :d].t().tolist()],
            "y": [float(v) for v in Z[0, :N, d].tolist()],
            "x_q": [float(v) for v in Z[0, N, :d].tolist()],
            "y_hat_peer": y_hat, "y_q": float(y[0].item()), "dtype": "float32"}
