#!/usr/bin/python3
"""Generate format_golden.json: arrays and the strings Tensor.String must print.

Each case holds the dtype, the shape and the raw little-endian element bytes
(hex), and the expected text: MegEngine's Tensor repr, that is NumPy's str()
under np.set_printoptions(precision=4, suppress=True) wrapped as
Tensor(<body>, dtype=<name>, device=xpux:0), without dtype= for float32.
NumPy has no bfloat16: those cases store bfloat16 bits and expect the
printout of the float32 values they widen to (semantics §8).

Run with the system Python (NumPy installed): /usr/bin/python3 gen_format.py
"""
import json
import os

import numpy as np

np.set_printoptions(precision=4, suppress=True)
np.seterr(over="ignore", under="ignore")
rng = np.random.default_rng(20261129)
cases = []


def wrap(body, name):
    dt = "" if name == "float32" else ", dtype=" + name
    return "Tensor(" + body + dt + ", device=xpux:0)"


def add(a, note=""):
    a = np.array(a, order="C")  # ascontiguousarray would make 0-d arrays 1-d
    cases.append({
        "note": note,
        "dtype": a.dtype.name,
        "shape": list(a.shape),
        "hex": a.astype(a.dtype.newbyteorder("<")).tobytes().hex(),
        "want": wrap(str(a), a.dtype.name),
    })


def add_bfloat16(f32, note=""):
    """Round float32 values to bfloat16 (to nearest even) and add them."""
    f32 = np.array(f32, dtype=np.float32, order="C")
    shape = f32.shape
    f32 = f32.reshape(-1)  # 0-d arithmetic would give scalars
    u = f32.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f32)
    r[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)
    widened = (r.astype(np.uint32) << 16).view(np.float32).reshape(shape)
    cases.append({
        "note": note,
        "dtype": "bfloat16",
        "shape": list(shape),
        "hex": r.astype("<u2").tobytes().hex(),
        "want": wrap(str(widened), "bfloat16"),
    })


ints = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
floats = ["float16", "float32", "float64"]
complexes = ["complex64", "complex128"]

# Shapes from 0-d to 4-d, for every dtype.
shapes = [(), (1,), (5,), (2, 3), (3, 1), (2, 3, 4), (2, 1, 2, 3)]
for shape in shapes:
    n = int(np.prod(shape))
    add(rng.integers(0, 2, n).astype(bool).reshape(shape), "bool")
    for t in ints:
        info = np.iinfo(t)
        lo, hi = max(info.min, -1000), min(info.max, 1000)
        add(rng.integers(lo, hi, n, endpoint=True).astype(t).reshape(shape), t)
    for t in floats:
        add((rng.standard_normal(n) * 10).astype(t).reshape(shape), t)
    for t in complexes:
        add((rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(t).reshape(shape), t)
    add_bfloat16((rng.standard_normal(n) * 10).reshape(shape), "bfloat16")

# Extremes of the integer types, and mixed widths.
for t in ints:
    info = np.iinfo(t)
    add(np.array([info.min, 0, info.max], dtype=t), t + " extremes")
    add(np.array(info.max, dtype=t), t + " 0-d max")
    add((np.array([[1, 22, 333], [4444, 5, 6]]) % (int(info.max) + 1)).astype(t), t + " widths")
add(np.array([2**64 - 1, 2**63, 12345678901234567890], dtype=np.uint64), "large uint64")

# Special float values, alone and mixed.
specials = [
    [0.0, -0.0],
    [-0.0],
    [np.nan, 1.0, -np.inf],
    [np.nan],
    [np.inf],
    [-np.inf, np.inf],
    [np.nan, np.inf],
    [1e-7, -1e-7, 1.0],
    [1e20, 1.0],
    [1e8, 1.0],
    [99999999.0, 1.0],
    [1e20, -1e-20, np.nan, 0.0],
    [1e-5, 1e-4, 1e-3],
    [0.5, 1.5],
    [1.0, 2.0],
    [0.03125, 0.09375, 0.0625],
    [0.12345, 1.23456789, 123456.7],
    [1.0 / 3, 2.0 / 3, -1.0 / 3],
    [123456.789, 0.001],
    [1e7, 1e-7],
    [2.5e-5, 3e12],
    [65504.0, -65504.0, 6e-8],
    [1e300, 1e-300],
    [5e-324],
    [0.99995, 9.99995, 0.00005, -0.00005, 0.00015],
    [67108872.0, 33554436.0, 0.5],
    [16777217.0, -3.0],
    [99999999.5, 0.25],
    [0.15625, 0.21875, 1.03125, -2.5],
    [999999.99999, 1.0],
    [1e-300, 1.0],
    [3.4e38, -3.4e38],
]
for vals in specials:
    for t in floats:
        with np.errstate(over="ignore", under="ignore"):
            a = np.array(vals, dtype=np.float64).astype(t)
        add(a, t + " " + repr(vals))
    add_bfloat16(np.array(vals, dtype=np.float64).astype(np.float32), "bfloat16 " + repr(vals))
for vals in specials:
    for v in vals:
        for t in floats:
            with np.errstate(over="ignore", under="ignore"):
                add(np.array(v, dtype=t), t + " 0-d " + repr(v))
        add_bfloat16(np.array(v, dtype=np.float32), "bfloat16 0-d " + repr(v))

# Floats of every magnitude, to exercise the shortest digits and rounding.
for t in floats:
    for scale in [1e-6, 1e-3, 1, 1e3, 1e6, 1e9]:
        with np.errstate(over="ignore"):
            add((rng.standard_normal(8) * scale).astype(t), f"{t} scale {scale}")
        add((rng.standard_normal(()) * scale).astype(t), f"{t} 0-d scale {scale}")
    for _ in range(5):
        bits = rng.integers(0, 2**16, 12).astype(np.uint16)
        if t == "float16":
            add(bits.view(np.float16), "float16 random bits")
            for b in bits[:4]:
                add(np.array(b, dtype=np.uint16).view(np.float16).reshape(()), "float16 0-d random bits")
# Every 257th float16 bit pattern, as a long wrapped row of 0-d values.
for b in range(0, 2**16, 257):
    add(np.array(b, dtype=np.uint16).view(np.float16).reshape(()), "float16 0-d sweep")
for b in range(0, 2**16, 4099):
    add(np.arange(b, b + 16, dtype=np.uint16).view(np.float16), "float16 sweep")

# Complex values: specials, and real/imaginary parts of different styles.
complex_vals = [
    [1 + 2j, -1j],
    [0j, -0.0 + 0j],
    [complex(np.nan, np.inf), 1 + 1j],
    [complex(-np.inf, np.nan)],
    [1e20 + 1j, 1 - 1e-20j],
    [1.5 + 0j, 0.25 - 0.125j],
    [0.1 + 1e-5j, 123456789 + 0.5j],
    [complex(0, -0.0)],
    [1j],
    [-1j],
    [1e16 + 1e-5j],
]
for vals in complex_vals:
    for t in complexes:
        add(np.array(vals, dtype=t), t + " " + repr(vals))
        for v in vals:
            add(np.array(v, dtype=t), t + " 0-d " + repr(v))

# Empty tensors.
for shape in [(0,), (2, 0), (0, 3), (2, 0, 3), (1, 0)]:
    for t in ["bool", "int32", "float32", "float64", "complex64"]:
        add(np.zeros(shape, dtype=t), f"empty {t}")

# Long rows wrap at 75 characters; nested arrays indent their rows.
add(np.arange(100, dtype=np.int64), "long int row")
add(np.arange(60, dtype=np.float64) * 1.5, "long float row")
add((rng.standard_normal((3, 30)) * 1000).astype(np.float32), "wrapped rows")
add(rng.integers(-10**9, 10**9, (2, 2, 20)).astype(np.int64), "wrapped 3-d")
add((rng.standard_normal(40) + 1j * rng.standard_normal(40)).astype(np.complex128), "wrapped complex")
add(rng.integers(0, 2, 50).astype(bool), "wrapped bool")
add(np.arange(24, dtype=np.int32).reshape(2, 3, 4), "3-d")
add(np.arange(48, dtype=np.int16).reshape(2, 2, 3, 4), "4-d")
add(np.arange(6, dtype=np.float32).reshape(1, 1, 6, 1) / 4, "unit dims")

# Summarised tensors (more than 1000 elements).
add(np.arange(1001, dtype=np.int32), "summarised 1-d")
add(np.arange(1000, dtype=np.int32), "threshold 1-d")
add(np.arange(30 * 40, dtype=np.float32).reshape(30, 40) / 7, "summarised 2-d")
add(np.arange(11 * 12 * 13, dtype=np.int64).reshape(11, 12, 13), "summarised 3-d")
add(np.arange(2 * 3 * 200, dtype=np.int32).reshape(2, 3, 200), "summarised short axes")
add(np.arange(5 * 5 * 5 * 9, dtype=np.float64).reshape(5, 5, 5, 9) * 1e6, "summarised 4-d")
big = (rng.standard_normal(2000) * 1e3).astype(np.float32)
big[1000] = 1e30  # hidden by the summary: must not switch to scientific
add(big, "summarised hides large")
add_bfloat16(rng.standard_normal((40, 40)) * 100, "summarised bfloat16")
add(rng.integers(0, 2, 2000).astype(bool).reshape(40, 50), "summarised bool")
add((rng.standard_normal((10, 200)) + 1j).astype(np.complex64), "summarised complex")

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "format_golden.json")
with open(out, "w") as f:
    json.dump({"numpy": np.__version__, "cases": cases}, f, indent=0)
    f.write("\n")
print(len(cases), "cases written to", out)
