#!/usr/bin/python3
"""Checks that NumPy loads the files the Go writer produced.

Usage: check_numpy_load.py DIR. DIR/manifest.json lists, for each .npy
file and .npz member, the NumPy descr, shape, layout and the name of a file
holding the raw little-endian data in the file's element order. Exits
non-zero, printing every mismatch, if NumPy disagrees with any of them.
"""

import json
import os
import sys

import numpy as np


def check(where, arr, spec, raw):
    problems = []
    if arr.dtype != np.dtype(spec["descr"]):
        problems.append(f"dtype {arr.dtype} != {spec['descr']}")
    if list(arr.shape) != spec["shape"]:
        problems.append(f"shape {arr.shape} != {spec['shape']}")
    order = "F" if spec["fortran"] else "C"
    if arr.ndim > 1 and arr.size > 1 and not arr.flags[order + "_CONTIGUOUS"]:
        problems.append(f"not {order}-contiguous")
    if arr.astype(arr.dtype.newbyteorder("<")).tobytes(order=order) != raw:
        problems.append("data differs")
    return [f"{where}: {p}" for p in problems]


def main(d):
    with open(os.path.join(d, "manifest.json")) as f:
        manifest = json.load(f)
    problems = []
    checked = 0
    for item in manifest:
        with open(os.path.join(d, item["raw"]), "rb") as f:
            raw = f.read()
        path = os.path.join(d, item["file"])
        if "member" in item:
            with np.load(path) as z:
                arr = z[item["member"]]
            where = f"{item['file']}[{item['member']}]"
        else:
            arr = np.load(path)
            where = item["file"]
        problems += check(where, arr, item, raw)
        checked += 1
    for p in problems:
        print(p)
    print(f"checked {checked} arrays with NumPy {np.__version__}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
