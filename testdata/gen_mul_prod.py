"""Writes mul_prod_golden.json: NumPy's results for multiply and prod cases
where NumPy's rules agree with the library's (semantics §2-6), so that the Go
tests can check against an independent implementation without Python.

Run from the repository root: /usr/bin/python3 testdata/gen_mul_prod.py

Where NumPy differs, the case is built so that it agrees:
  - mixed dtype pairs are only those NumPy promotes as the library does;
  - bfloat16 does not exist in NumPy and is left out;
  - prod of bool/int8/int16/uint8/uint16/int32/uint32 passes dtype= to get
    the 32-bit result the library returns (NumPy widens to int64);
  - prod of float16 is computed in float32 and rounded once (NumPy rounds
    after every product);
  - float prods are compared with a tolerance (NumPy multiplies in another
    order), and so are complex128 products (NumPy's build fuses ac-bd into a
    multiply-add); everything else must match bit for bit.
"""
import json
import math

import numpy as np

rng = np.random.default_rng(20261129)


def encode_scalar(v, dt):
    if np.issubdtype(dt, np.complexfloating):
        return [encode_scalar(v.real, np.float64), encode_scalar(v.imag, np.float64)]
    if np.issubdtype(dt, np.floating):
        f = float(v)
        if math.isnan(f):
            return "nan"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return f
    if dt == np.bool_:
        return bool(v)
    return int(v)


def encode(a):
    return {"dtype": str(a.dtype), "shape": list(a.shape),
            "data": [encode_scalar(v, a.dtype) for v in a.reshape(-1)]}


SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, np.inf, -np.inf, np.nan, 1e-30, 1e30, 6e4, 1e-7]


def random_array(shape, dt):
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    if dt == np.bool_:
        a = rng.integers(0, 2, n).astype(dt)
    elif np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        a = rng.integers(info.min, int(info.max) + 1, n, dtype=np.int64 if info.min < 0 else np.uint64).astype(dt)
    else:
        real = rng.uniform(-4, 4, n)
        pick = rng.integers(0, 12, n)
        special = rng.choice(np.array(SPECIALS), n)
        real = np.where(pick == 0, special, real)
        if np.issubdtype(dt, np.complexfloating):
            imag = rng.uniform(-4, 4, n)
            a = (real + 1j * imag).astype(dt)
        else:
            with np.errstate(over="ignore"):
                a = real.astype(dt)
    return a.reshape(shape)


def view(a, spec):
    """Applies a view: ("T",) transposes, ("step", steps) slices with steps."""
    if spec is None:
        return a
    if spec[0] == "T":
        return a.T
    return a[tuple(slice(None, None, s) for s in spec[1])]


cases = []


def mul_case(ashape, adt, bshape, bdt, aview=None, bview=None):
    a = random_array(ashape, adt)
    b = random_array(bshape, bdt)
    with np.errstate(all="ignore"):
        out = np.multiply(view(a, aview), view(b, bview))
    cases.append({"op": "mul", "a": encode(a), "b": encode(b), "a_view": aview, "b_view": bview, "out": encode(out)})


SAME = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float16", "float32", "float64", "complex64", "complex128"]
for dt in SAME:
    mul_case([3, 4], dt, [3, 4], dt)
    mul_case([2, 3, 4], dt, [4], dt)
    mul_case([5, 1], dt, [1, 6], dt, aview=("step", [-2, 1]))
    mul_case([4, 6], dt, [6, 4], dt, aview=("T",))
    mul_case([70], dt, [70], dt, bview=("step", [-1]))
    mul_case([], dt, [3, 2], dt)

# Pairs whose NumPy promotion is the library's.
MIXED = [("int8", "uint8"), ("int16", "uint8"), ("int32", "uint32"), ("int8", "int64"), ("uint8", "uint16"),
         ("int16", "uint32"), ("bool", "int16"), ("bool", "float32"), ("float16", "float32"),
         ("float32", "float64"), ("float64", "complex64"), ("float32", "complex64"), ("int8", "float16"),
         ("uint8", "float16"), ("complex64", "complex128"), ("uint64", "uint8")]
for x, y in MIXED:
    mul_case([3, 5], x, [5], y)
    mul_case([4, 3], y, [3, 4], x, bview=("T",))


def prod_case(shape, dt, axis, keepdims, xview=None):
    x = random_array(shape, dt)
    if np.issubdtype(x.dtype, np.floating) or np.issubdtype(x.dtype, np.complexfloating):
        # Magnitudes near 1 keep long products finite, with a few specials.
        n = x.size
        mag = rng.uniform(0.5, 2, n) * rng.choice([-1.0, 1.0], n)
        pick = rng.integers(0, 40, n)
        mag = np.where(pick == 0, rng.choice(np.array([0.0, -0.0, np.inf, np.nan]), n), mag)
        if np.issubdtype(x.dtype, np.complexfloating):
            mag = mag + 1j * rng.uniform(-1, 1, n)
        x = mag.astype(x.dtype).reshape(shape)
    elif np.issubdtype(x.dtype, np.integer):
        small = rng.integers(-8, 9, x.size)
        if np.dtype(dt).kind == "u":
            small = np.abs(small)
        big = x.reshape(-1)
        x = np.where(rng.integers(0, 4, x.size) == 0, big, small.astype(x.dtype)).reshape(shape)
    v = view(x, xview)
    ax = tuple(axis) if isinstance(axis, list) else axis
    acc = {"bool": np.int32, "int8": np.int32, "int16": np.int32, "uint8": np.uint32, "uint16": np.uint32,
           "int32": np.int32, "uint32": np.uint32, "float16": np.float32}.get(str(x.dtype))
    with np.errstate(all="ignore"):
        if str(x.dtype) == "float16":
            out = np.prod(v.astype(np.float32), axis=ax, keepdims=keepdims).astype(np.float16)
        elif acc is not None:
            out = np.prod(v, axis=ax, keepdims=keepdims, dtype=acc)
        else:
            out = np.prod(v, axis=ax, keepdims=keepdims)
    out = np.asarray(out)
    cases.append({"op": "prod", "x": encode(x), "x_view": xview, "axis": axis, "keepdims": keepdims,
                  "out": encode(out)})


for dt in SAME:
    prod_case([3, 4, 5], dt, None, False)
    prod_case([3, 4, 5], dt, 1, True)
    prod_case([3, 4, 5], dt, [0, 2], False)
    prod_case([3, 4, 5], dt, [-1, 0], True)
    prod_case([3, 4, 5], dt, [], False)
    prod_case([6, 7], dt, 0, False, xview=("T",))
    prod_case([6, 7], dt, None, True, xview=("step", [-2, 3]))
    prod_case([2, 0], dt, 1, False)
    prod_case([], dt, None, False)

with open("testdata/mul_prod_golden.json", "w") as f:
    json.dump({"generator": "testdata/gen_mul_prod.py", "numpy": np.__version__, "cases": cases}, f,
              separators=(",", ":"))
print(len(cases), "cases")
