#!/usr/bin/python3
"""Writes the .npy/.npz fixtures the Go tests of package npy decode.

Run from anywhere with /usr/bin/python3 (needs NumPy); it rewrites the
fixtures next to this script and expected.json, which records for every
file the dtype, shape, layout and element values (in the file's element
order) so the Go tests can assert decoded values without Python in CI.

Values are written as strings where JSON numbers would lose precision:
integers as decimal strings (uint64/int64 extremes), floats as Python's
repr of the float64 value ("nan", "inf", "-0.0" included), complex as
[real, imag] pairs of such strings.
"""

import io
import json
import os

import numpy as np
from numpy.lib import format as npformat

HERE = os.path.dirname(os.path.abspath(__file__))

# The NumPy dtypes that have a counterpart in the Go dtype enum.
DTYPES = [
    "bool", "int8", "uint8", "int16", "int32", "int64",
    "uint16", "uint32", "uint64", "float16", "float32", "float64",
    "complex64", "complex128",
]


def sample(name, n):
    """n values of dtype name that exercise its range."""
    dt = np.dtype(name)
    if dt.kind == "b":
        return np.array([i % 3 == 0 for i in range(n)], dtype=dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        base = [info.min, info.max, 0, 1, info.max // 3, info.min // 7 if dt.kind == "i" else 200 % (int(info.max) + 1)]
        return np.array([base[i % len(base)] for i in range(n)], dtype=dt)
    if dt.kind == "f":
        base = [1.5, -0.0, np.inf, -np.inf, np.nan, np.finfo(dt).max,
                np.finfo(dt).tiny, -3.25, 1.0 / 3.0]
        return np.array([base[i % len(base)] for i in range(n)], dtype=dt)
    if dt.kind == "c":
        base = [1.5 - 2j, complex(np.inf, -0.0), complex(np.nan, 1.0),
                -3.25 + 1.0 / 3.0 * 1j, 0j, complex(np.finfo(dt).max, 7.0)]
        return np.array([base[i % len(base)] for i in range(n)], dtype=dt)
    raise ValueError(name)


def scalar_text(x):
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (np.integer, int)):
        return str(int(x))
    if isinstance(x, (np.complexfloating, complex)):
        return [repr(float(x.real)), repr(float(x.imag))]
    return repr(float(x))


def element_order_values(arr, fortran):
    flat = arr.ravel(order="F" if fortran else "C")
    return [scalar_text(x) for x in flat]


expected = {"npy": {}, "npz": {}}


def record(fname, arr, fortran, big_endian, version):
    expected["npy"][fname] = {
        "dtype": arr.dtype.name,
        "shape": list(arr.shape),
        "fortran": fortran,
        "big_endian": big_endian,
        "version": version,
        "values": element_order_values(arr, fortran),
    }


def save(fname, arr, version=None):
    """Writes arr with NumPy's own writer and records what it holds."""
    with open(os.path.join(HERE, fname), "wb") as f:
        npformat.write_array(f, arr, version=version)
    fortran = arr.flags.f_contiguous and not arr.flags.c_contiguous
    big = arr.dtype.byteorder == ">"
    record(fname, arr, fortran, big, list(version or (1, 0)))


def main():
    for old in os.listdir(HERE):
        if old.endswith((".npy", ".npz")):
            os.remove(os.path.join(HERE, old))

    for name in DTYPES:
        a = sample(name, 6).reshape(2, 3)
        save(f"{name}_c.npy", a)
        save(f"{name}_f.npy", np.asfortranarray(sample(name, 12).reshape(2, 3, 2)))
        save(f"{name}_0d.npy", sample(name, 1).reshape(()))
        save(f"{name}_empty.npy", np.zeros((0,), dtype=name))
        if np.dtype(name).itemsize > 1 or np.dtype(name).kind == "c":
            be = a.astype(np.dtype(name).newbyteorder(">"))
            save(f"{name}_be.npy", be)
            save(f"{name}_be_f.npy", np.asfortranarray(be))
    save("float64_empty2d.npy", np.zeros((2, 0)))
    save("int32_v2.npy", sample("int32", 4), version=(2, 0))
    save("float32_v3.npy", sample("float32", 3).reshape(3, 1), version=(3, 0))
    save("int16_1d.npy", sample("int16", 5))

    # Arrays NumPy writes but this package refuses, to check the errors.
    unsupported = {
        "unsupported_str.npy": np.array(["ab", "c"]),
        "unsupported_struct.npy": np.zeros(2, dtype=[("x", "<i4"), ("y", "<f8")]),
        "unsupported_datetime.npy": np.array(["2020-01-01"], dtype="datetime64[D]"),
        "unsupported_longdouble.npy": np.zeros(2, dtype=np.longdouble),
    }
    for fname, arr in unsupported.items():
        with open(os.path.join(HERE, fname), "wb") as f:
            npformat.write_array(f, arr)
    expected["unsupported"] = sorted(unsupported)

    members = {
        "a": sample("float32", 6).reshape(2, 3),
        "b": sample("int64", 3),
        "flag": np.array(True),
        "fort": np.asfortranarray(sample("uint16", 6).reshape(3, 2)),
    }
    np.savez(os.path.join(HERE, "stored.npz"), **members)
    np.savez_compressed(os.path.join(HERE, "compressed.npz"), **members)
    for fname in ("stored.npz", "compressed.npz"):
        expected["npz"][fname] = {
            k: {
                "dtype": v.dtype.name,
                "shape": list(v.shape),
                "fortran": bool(v.flags.f_contiguous and not v.flags.c_contiguous),
                "values": element_order_values(v, bool(v.flags.f_contiguous and not v.flags.c_contiguous)),
            }
            for k, v in members.items()
        }

    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
