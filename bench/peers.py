#!/usr/bin/python3
"""Times the peers (NumPy, SciPy for sparse operands, PyTorch on the CPU) on bench/workloads.json.

    python3 bench/peers.py [--workloads FILE] [--threads N] [--budget SECONDS] [--lib numpy|torch ...] [FILTER ...]

Each workload's operands are drawn once, then each library is timed the way `tensor bench` times
the Go library, the loop a user writes: one untimed call, then three blocks, each calling the
operation until a third of the budget (default 0.9 s) has passed, results dropped; a block's figure
is its mean time per call and the best block's is printed. No collections, no settling calls.

Output: one JSON object per line, {"lib", "name", "threads", "seconds"} and "gflops" or "gbps",
as `tensor bench` prints them; a library that cannot run a workload (NumPy has no bfloat16) prints
{"lib", "name", "error"} instead. --workloads bench/sweep.json runs the sweep. Needs numpy, scipy and torch (Debian: python3-numpy python3-scipy
python3-torch).
"""
import argparse
import json
import os
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args():
    p = argparse.ArgumentParser(description="time NumPy/SciPy and PyTorch on the benchmark workloads")
    p.add_argument("--threads", type=int, default=os.cpu_count(), help="threads for BLAS and PyTorch")
    p.add_argument("--budget", type=float, default=0.9, help="seconds per workload and library")
    p.add_argument("--lib", action="append", choices=["numpy", "torch"], help="only these libraries")
    p.add_argument("--workloads", default=os.path.join(HERE, "workloads.json"))
    p.add_argument("filters", nargs="*", help="run workloads whose name contains one of these")
    return p.parse_args()


ARGS = parse_args()
# The BLAS libraries read their thread counts when they load, so set them first.
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(ARGS.threads)

import numpy as np  # noqa: E402
import scipy.sparse as sparse  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(ARGS.threads)
# PyTorch warns on every CSR tensor it builds that the support is in beta; the lines stay JSON only.
warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta")
RNG = np.random.default_rng(0)


def draw(shape, dtype):
    """The workloads' distributions: floats uniform in [0.9999, 1.0001), integers in {1, 2}.
    bfloat16, which NumPy lacks, is drawn as float32 and converted for PyTorch (see torch_of)."""
    if dtype == "bfloat16":
        dtype = "float32"
    if np.dtype(dtype).kind in "fc":
        return RNG.uniform(0.9999, 1.0001, size=shape).astype(dtype)
    return RNG.integers(1, 3, size=shape).astype(dtype)


def draw_sparse(shape, nnz, layout, dtype):
    """nnz entries at distinct positions uniform over the shape."""
    rows, cols = shape
    where = RNG.choice(rows * cols, size=nnz, replace=False)
    coo = sparse.coo_matrix((draw([nnz], dtype), np.divmod(where, cols)), shape=(rows, cols))
    return coo.tocsr() if layout == "csr" else coo


def build(w):
    """The workload's operands as NumPy arrays or SciPy matrices."""
    if "a_sparse" in w:
        a = draw_sparse(w["a"], w["a_nnz"], w["a_sparse"], w["dtype"])
    else:
        a = draw(w["a"], w["dtype"])
    if w.get("transpose"):
        a = a.T
    b = None
    if "b_sparse" in w:
        b = draw_sparse(w["b"], w["b_nnz"], w["b_sparse"], w["dtype"])
    elif "b" in w:
        b = draw(w["b"], w.get("bdtype", w["dtype"]))
        if w.get("b_transpose"):
            b = b.T
    elif "scalar" in w:
        b = w["scalar"]  # a Python number: a weak scalar, as the Go side's
    return a, b


def axes_of(w):
    axis = w.get("axis")
    return tuple(axis) if isinstance(axis, list) else axis


def numpy_op(w, a, b):
    if "bfloat16" in (w["dtype"], w.get("bdtype")):
        raise TypeError("NumPy has no bfloat16")
    if "a_sparse" in w or "b_sparse" in w:
        return lambda: a @ b
    binary = {"matmul": np.matmul, "mul": np.multiply, "add": np.add, "sub": np.subtract}
    if w["op"] in binary:
        f = binary[w["op"]]
        return lambda: f(a, b)
    if w["op"] in PER_CALL:
        return PER_CALL[w["op"]](w, a)
    reduce = {"prod": np.prod, "sum": np.sum}[w["op"]]
    axis = axes_of(w)
    return lambda: reduce(a, axis=axis)


def slice_rows(w):
    lo, hi = w["rows"]
    return slice(lo, hi)


# The sweep's unary ops and views, for NumPy arrays and torch tensors alike (torch.Tensor.astype
# does not exist: torch_op converts the target dtype itself).
PER_CALL = {
    "neg": lambda w, a: (lambda: -a),
    "astype": lambda w, a: (lambda: a.astype(w["to"])),
    "reshape": lambda w, a: (lambda: a.reshape(w["shape"])),
    "transpose": lambda w, a: (lambda: a.T),
    "slice": lambda w, a: (lambda: a[slice_rows(w)]),
}


def as_torch(m):
    """A torch tensor sharing a NumPy array's memory, or a sparse copy of a SciPy matrix."""
    if not sparse.issparse(m):
        return torch.from_numpy(m)
    if m.format == "csr":
        return torch.sparse_csr_tensor(torch.from_numpy(m.indptr.astype(np.int64)),
                                       torch.from_numpy(m.indices.astype(np.int64)),
                                       torch.from_numpy(m.data), size=m.shape)
    index = torch.from_numpy(np.stack([m.row, m.col]).astype(np.int64))
    return torch.sparse_coo_tensor(index, torch.from_numpy(m.data), size=m.shape).coalesce()


def torch_op(w, a, b):
    if "a_sparse" in w or "b_sparse" in w:
        ta, tb = as_torch(a), as_torch(b)
        if w.get("b_sparse") == "csr":
            # sparse @ sparse: PyTorch multiplies COO operands.
            if ta.layout != torch.sparse_coo:
                ta = ta.to_sparse_coo()
            tb = tb.to_sparse_coo()
        if ta.layout == torch.sparse_coo:
            return lambda: torch.sparse.mm(ta, tb)
        return lambda: ta @ tb
    ta = torch_of(a, w["dtype"], w.get("transpose"))
    tb = b
    if "b" in w:
        tb = torch_of(b, w.get("bdtype", w["dtype"]), w.get("b_transpose"))
    binary = {"matmul": torch.matmul, "mul": torch.mul, "add": torch.add, "sub": torch.sub}
    if w["op"] in binary:
        f = binary[w["op"]]
        return lambda: f(ta, tb)
    if w["op"] == "astype":
        to = getattr(torch, w["to"])
        return lambda: ta.to(to)
    if w["op"] in PER_CALL:
        return PER_CALL[w["op"]](w, ta)
    if w["op"] == "sum":
        axis = axes_of(w)
        if axis is None:
            return lambda: torch.sum(ta)
        return lambda: torch.sum(ta, dim=axis)  # torch.sum takes a tuple of dims too
    axis = axes_of(w)
    if axis is None:
        return lambda: torch.prod(ta)
    if isinstance(axis, tuple):
        def prod_axes():
            r = ta
            for d in sorted(axis, reverse=True):  # torch.prod takes one dim at a time
                r = torch.prod(r, dim=d)
            return r
        return prod_axes
    return lambda: torch.prod(ta, dim=axis)


def torch_of(m, dtype, transposed):
    """A torch tensor of a NumPy array drawn for dtype: the same memory, or for bfloat16 a converted
    copy; a transposed view stays the transpose of a contiguous tensor."""
    if transposed:
        return torch_of(np.ascontiguousarray(m.T), dtype, False).T
    t = torch.from_numpy(m)
    if dtype == "bfloat16":
        t = t.to(torch.bfloat16)
    return t


def loop_seconds(call, budget):
    """One untimed call, three blocks of budget/3, the best block's mean per call."""
    call()
    best = float("inf")
    for _ in range(3):
        calls, start = 0, time.perf_counter()
        while True:
            call()
            calls += 1
            if time.perf_counter() - start >= budget / 3:
                break
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def main():
    with open(ARGS.workloads) as f:
        workloads = json.load(f)["workloads"]
    for w in workloads:
        if ARGS.filters and not any(s in w["name"] for s in ARGS.filters):
            continue
        a, b = build(w)
        is_sparse = "a_sparse" in w or "b_sparse" in w
        for lib in ARGS.lib or ["numpy", "torch"]:
            name = "scipy" if lib == "numpy" and is_sparse else lib
            try:
                seconds = loop_seconds((numpy_op if lib == "numpy" else torch_op)(w, a, b), ARGS.budget)
            except Exception as e:  # a peer that cannot run a workload says so on its line
                print(json.dumps({"lib": name, "name": w["name"], "error": str(e)[:200]}), flush=True)
                continue
            line = {"lib": name, "name": w["name"], "threads": ARGS.threads, "seconds": seconds}
            if "flops" in w:
                line["gflops"] = round(w["flops"] / seconds / 1e9, 2)
            if "bytes" in w:
                line["gbps"] = round(w["bytes"] / seconds / 1e9, 2)
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
