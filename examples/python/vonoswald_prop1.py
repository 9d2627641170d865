"""Von Oswald et al. (2023), Proposition 1, written as matrices: one masked linear self-attention
layer with W_K = W_Q = [[I_d, 0], [0, 0]], W_V = [[0, 0], [0, -1]] (W0 = 0) and P = (eta/N) I
moves the query token to -(one GD step's prediction) (CONSTRUCTIONS.md section 1). Checked
exactly in rationals and in MPFR against one GD step from w = 0. With --flip-sign, W_V's -1
becomes +1: the layer then predicts the negative of GD's step, and both runs must FAIL with the
failing case printed. Exit code 0 when every run passes, 1 otherwise."""
import argparse
import sys
from fractions import Fraction

import numpy as np

import iclproof

parser = argparse.ArgumentParser()
parser.add_argument("--flip-sign", action="store_true", help="W_V's -1 becomes +1 (must FAIL)")
parser.add_argument("--cases", type=int, default=100)
args = parser.parse_args()
sign = 1 if args.flip_sign else -1


def key_query(d, N, eta):  # [[I_d, 0], [0, 0]]
    return np.diag([1] * d + [0])


def value(d, N, eta):  # [[0, 0], [W0 = 0, -I_o]]
    return np.diag([0] * d + [sign])


def projection(d, N, eta):  # (eta / N) I
    return np.diag([Fraction(eta) / N] * (d + 1))


prop1 = iclproof.Construction(
    name="vonoswald_prop1_python" + ("_sign_flipped" if sign == 1 else ""),
    layers=[iclproof.LSA(W_K=key_query, W_Q=key_query, W_V=value, P=projection, masked=True)],
    params={"eta": Fraction(3, 4)},
)
result = iclproof.verify(prop1, "gd", cases=args.cases)  # in rationals, then in MPFR
print("verdict:", "PASS" if result.passed else "FAIL")
sys.exit(0 if result.passed else 1)
