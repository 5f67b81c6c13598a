"""Golden gradients for package autograd, computed by PyTorch.

Run with /usr/bin/python3 (NumPy and PyTorch) from this directory:

    python3 gen_golden.py > golden.json

Each case names a function that golden_test.go rebuilds on the tape, its
inputs, the seed (cotangent) of its output, and PyTorch's gradients. float16
and bfloat16 cases are computed in float32 from the exactly representable
inputs and rounded once at the end, which is this library's rule (PyTorch's
CPU kernels of 1.13 lack half matmul and prod). Data are flat row-major
lists; complex numbers are [re, im] pairs.
"""
import json

import numpy as np
import torch

rng = np.random.default_rng(20261201)

HALF = {"float16": torch.float16, "bfloat16": torch.bfloat16}
TORCH = {"float32": torch.float32, "float64": torch.float64,
         "complex64": torch.complex64, "complex128": torch.complex128}


def random(shape, dt, zeros=0):
    if dt.startswith("complex"):
        a = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    else:
        a = rng.uniform(0.5, 1.5, shape) * rng.choice([-1, 1], shape)
    t = torch.tensor(a)
    t = t.to(HALF.get(dt) or TORCH[dt])
    flat = t.reshape(-1)
    for i in rng.choice(flat.numel(), size=min(zeros, flat.numel()), replace=False):
        flat[i] = 0
    return t


def compute(t):
    """The dtype PyTorch computes in: float32 for the half types."""
    return t.to(torch.float32) if t.dtype in HALF.values() else t


def flat(t):
    t = t.detach().reshape(-1)
    if t.is_complex():
        t = t.to(torch.complex128)
        return [[float(v.real), float(v.imag)] for v in t]
    return [float(v) for v in t.to(torch.float64)]


def prod(x, axes, keep):
    dims = sorted(a % x.dim() for a in (axes if axes is not None else range(x.dim())))
    for a in reversed(dims):
        x = torch.prod(x, dim=a, keepdim=True)
    if not keep:
        for a in reversed(dims):
            x = x.squeeze(a)
    return x


FUNCS = {
    "mul": lambda p, a, b: a * b,
    "matmul": lambda p, a, b: a @ b,
    "prod": lambda p, a: prod(a, p.get("axis"), p.get("keepdims", False)),
    # A view chain: transposed, reversed, stepped, times a broadcast operand.
    "views": lambda p, a, b: prod(a.T.flip(0)[:, ::2] * b, [0], False),
    # Subtraction both ways round and negation, broadcasting.
    "sub": lambda p, a, b: (a - b) * -(b - 0.5 * a),
}


def case(name, dt, shapes, params=None, zeros=0):
    params = params or {}
    xs = [random(s, dt, zeros) for s in shapes]
    leaves = [compute(x).clone().requires_grad_(True) for x in xs]
    y = FUNCS[name](params, *leaves)
    seed = random(tuple(y.shape), dt)
    grads = torch.autograd.grad(y, leaves, compute(seed))
    out_dt = HALF.get(dt) or TORCH[dt]
    return {
        "func": name, "dtype": dt, "params": params,
        "inputs": [{"shape": list(x.shape), "data": flat(x)} for x in xs],
        "seed": {"shape": list(seed.shape), "data": flat(seed)},
        "grads": [flat(g.to(out_dt)) for g in grads],
    }


cases = []
for dt in ["float32", "float16", "bfloat16", "complex64"]:
    for sa, sb in [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((), (2, 3)), ((5,), (5,))]:
        cases.append(case("mul", dt, [sa, sb]))
    for sa, sb in [((4,), (4,)), ((4,), (4, 3)), ((2, 4), (4,)), ((3, 4), (4, 2)),
                   ((2, 1, 3, 4), (3, 4, 2)), ((2, 3, 4), (4, 5)), ((4,), (2, 4, 3))]:
        cases.append(case("matmul", dt, [sa, sb]))
    for axis in [None, [0], [-1], [0, 2]]:
        for keep in [False, True]:
            for zeros in [0, 1, 2]:
                p = {"keepdims": keep}
                if axis is not None:
                    p["axis"] = axis
                cases.append(case("prod", dt, [(3, 2, 4)], p, zeros))
    cases.append(case("views", dt, [(6, 3), (3, 1)]))
# Drawn after the cases above, so that theirs stay as they were.
for dt in ["float32", "float16", "bfloat16", "complex64"]:
    for sa, sb in [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((), (2, 3)), ((5,), (5,))]:
        cases.append(case("sub", dt, [sa, sb]))
print(json.dumps({"torch": torch.__version__, "cases": cases}))
