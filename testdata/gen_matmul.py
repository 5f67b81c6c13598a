#!/usr/bin/env python3
"""Generate testdata/matmul_golden.json: matmul results from NumPy, and from
PyTorch (exact float64 product rounded once) for the 16-bit float types.

Run from the repository root:  python3 testdata/gen_matmul.py
The Go test (TestMatmulGolden) reads the JSON; CI needs no Python.
"""
import json
import numpy as np
import torch

rng = np.random.default_rng(20261129)


def encode(x):
    """A tensor as {dtype, shape, data} with data flattened in C order."""
    if isinstance(x, torch.Tensor):
        name = str(x.dtype).removeprefix("torch.")
        data = x.float().flatten().tolist()
        return {"dtype": name, "shape": list(x.shape), "data": data}
    x = np.asarray(x)
    flat = x.flatten()
    if x.dtype.kind == "c":
        data = [[float(v.real), float(v.imag)] for v in flat]
    elif x.dtype.kind == "b":
        data = [bool(v) for v in flat]
    elif x.dtype.kind in "iu":
        data = [int(v) for v in flat]
    else:
        data = [float(v) for v in flat]
    return {"dtype": str(x.dtype), "shape": list(x.shape), "data": data}


def ints(dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)


def normal(dtype, shape):
    return rng.standard_normal(shape).astype(dtype)


cases = []


def add(name, a, b, res=None):
    """res is the library's result dtype where NumPy's promotion differs
    (int32 with float32 is float32 here, float64 in NumPy): the operands are
    converted to it first, as the library does."""
    if res is None:
        out = np.matmul(a, b)
    else:
        out = np.matmul(a.astype(res), b.astype(res))
    cases.append({"name": name, "a": encode(a), "b": encode(b), "out": encode(out)})


def add_torch(name, a, b, dtype):
    # This PyTorch has no CPU half-precision matmul; the exact product in
    # float64, rounded once to the result dtype, is what accumulating in
    # float32 and rounding once approximates (the Go test allows for the
    # float32 accumulation error).
    out = torch.matmul(a.double(), b.double()).to(dtype)
    cases.append({"name": name, "a": encode(a), "b": encode(b), "out": encode(out)})


add("float32 batch@matrix", normal(np.float32, (2, 3, 4)), normal(np.float32, (4, 5)))
add("float64 vector@batch", normal(np.float64, (6,)), normal(np.float64, (3, 6, 2)))
add("float64 batch@vector", normal(np.float64, (2, 3, 6)), normal(np.float64, (6,)))
add("float32 dot", normal(np.float32, (17,)), normal(np.float32, (17,)))
add("int8 wraps", ints(np.int8, (3, 4)), ints(np.int8, (4, 2)))
add("int32 wraps", ints(np.int32, (3, 5)), ints(np.int32, (5, 2)))
add("int64 broadcast batches", ints(np.int64, (2, 1, 3, 4)), ints(np.int64, (3, 4, 2)))
add("uint16 wraps", ints(np.uint16, (2, 7)), ints(np.uint16, (7, 3)))
add("uint8 with int8 promotes to int16", ints(np.uint8, (3, 4)), ints(np.int8, (4, 2)))
add("uint32 with int32 promotes to int64", ints(np.uint32, (2, 3)), ints(np.int32, (3, 2)))
add("uint64 wraps", ints(np.uint64, (2, 3)), ints(np.uint64, (3, 2)))
add("bool", rng.integers(0, 2, (3, 5)).astype(bool), rng.integers(0, 3, (5, 4)) == 0)
add("int32 with float32", rng.integers(-9, 9, (3, 4)).astype(np.int32), normal(np.float32, (4, 3)), np.float32)
add("complex64 no conjugation",
    (normal(np.float32, (2, 3)) + 1j * normal(np.float32, (2, 3))).astype(np.complex64),
    (normal(np.float32, (3, 2)) + 1j * normal(np.float32, (3, 2))).astype(np.complex64))
add("complex128 with float64",
    normal(np.float64, (4, 3)) + 1j * normal(np.float64, (4, 3)), normal(np.float64, (3, 4)))

g = torch.Generator().manual_seed(4)
add_torch("float16 accumulates in float32",
          torch.randn(5, 40, generator=g).half(), torch.randn(40, 3, generator=g).half(), torch.float16)
add_torch("bfloat16 batches",
          torch.randn(2, 4, 30, generator=g).bfloat16(), torch.randn(2, 30, 3, generator=g).bfloat16(), torch.bfloat16)
add_torch("float16 with bfloat16 promotes to float32",
          torch.randn(3, 8, generator=g).half(), torch.randn(8, 2, generator=g).bfloat16(), torch.float32)

with open("testdata/matmul_golden.json", "w") as f:
    json.dump({"generator": "testdata/gen_matmul.py", "numpy": np.__version__,
               "torch": torch.__version__, "cases": cases}, f, indent=1)
    f.write("\n")
print(len(cases), "cases")
