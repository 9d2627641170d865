#!/usr/bin/python3
"""The von Oswald single-LSA-layer training step of iclproof-train, written in Debian's
python3-torch, for the speed comparison (run_bench.sh). Same model, same shapes, same
arithmetic (query-only read-out of the last layer), same optimiser, same task sampling:
x ~ U(-1,1)^d, w ~ N(0, I), fresh tasks every step, float32, Adam, cosine learning-rate
schedule, loss = (1/2) mean (y_hat - y_q)^2. Prints steps per second of the training loop."""
import argparse
import math
import time

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--batch", type=int, default=2048)
    ap.add_argument("--d", type=int, default=10)
    ap.add_argument("--N", type=int, default=10)
    ap.add_argument("--lr", type=float, default=1e-3)
    a = ap.parse_args()
    d, N, B = a.d, a.N, a.batch
    D = d + 1
    torch.manual_seed(1)
    params = [(torch.randn(D, D) * 0.02).requires_grad_() for _ in range(4)]  # W_K, W_Q, W_V, P
    opt = torch.optim.Adam(params, lr=a.lr)
    t0 = time.perf_counter()
    for step in range(a.steps):
        lr = a.lr * 0.5 * (1 + math.cos(math.pi * step / a.steps))
        for g in opt.param_groups:
            g["lr"] = lr
        torch.manual_seed(step + 12345)
        Xall = torch.rand(B, d, N + 1) * 2 - 1
        w = torch.randn(B, d)
        yall = torch.bmm(w.unsqueeze(1), Xall).squeeze(1)
        X, xq = Xall[:, :, :N].contiguous(), Xall[:, :, N].contiguous()
        y, yq = yall[:, :N].contiguous(), yall[:, N].contiguous()
        opt.zero_grad()
        WK, WQ, WV, P = params
        E = torch.cat([torch.cat([X, xq.unsqueeze(2)], 2), torch.cat([y, torch.zeros(B, 1)], 1).unsqueeze(1)], 1)
        PV = P @ WV
        KQ = WK.t() @ WQ
        Ectx = E[:, :, :N]
        C = torch.bmm(Ectx, Ectx.transpose(1, 2))
        eq = E[:, :, N]
        r = torch.matmul(C, PV[d])
        u = torch.matmul(r, KQ)
        pred = -(eq[:, d] + (u * eq).sum(1))
        loss = 0.5 * (pred - yq).square().mean()
        loss.backward()
        opt.step()
    secs = time.perf_counter() - t0
    print(f"python3-torch {torch.__version__}: {a.steps} steps in {secs:.2f} s = {a.steps / secs:.1f} steps/s "
          f"(threads {torch.get_num_threads()}, final loss {loss.item():.4f})")


if __name__ == "__main__":
    main()
