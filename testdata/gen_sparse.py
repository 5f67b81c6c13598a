#!/usr/bin/python3
"""Writes the SciPy sparse fixtures under testdata/sparse/ with scipy.sparse.save_npz.

Each NAME.npz has a NAME.dense.npy beside it holding the matrix densified by SciPy
(toarray(), which sums repeated entries), which the Go tests compare against.
Run from the repository root: /usr/bin/python3 testdata/gen_sparse.py
"""
import os
import numpy as np
import scipy.sparse as sp

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sparse")
os.makedirs(out, exist_ok=True)


def save(name, m, dense=True, compressed=True):
    sp.save_npz(os.path.join(out, name + ".npz"), m, compressed=compressed)
    if dense:
        np.save(os.path.join(out, name + ".dense.npy"), m.toarray())


rng = np.random.default_rng(8)
# csr float64 with unsorted column indices in a row.
m = sp.csr_matrix((np.array([1.5, -2.0, 3.25, 4.0]), np.array([2, 0, 1, 3]), np.array([0, 2, 2, 4])), shape=(3, 4))
save("csr_float64", m)
# coo int32 with a repeated position (SciPy keeps coo entries as given).
m = sp.coo_matrix((np.array([1, 2, 3, 4], dtype=np.int32), (np.array([0, 1, 0, 1]), np.array([1, 0, 1, 2]))), shape=(2, 3))
save("coo_int32_dup", m)
# csc float32, random.
m = sp.random(5, 4, density=0.4, format="csc", dtype=np.float32, random_state=1)
save("csc_float32", m)
# bool csr, stored (uncompressed) members.
m = sp.csr_matrix(np.array([[True, False], [False, True], [True, True]]))
save("csr_bool_stored", m, compressed=False)
# complex128 coo.
m = sp.coo_matrix(np.array([[0, 1 + 2j], [3 - 1j, 0]]))
save("coo_complex128", m)
# float16 csr.
m = sp.csr_matrix(np.array([[0, 0.5, 0], [65504, 0, -1]], dtype=np.float16))
save("csr_float16", m)
# uint8 coo and an empty csr matrix.
save("coo_uint8", sp.coo_matrix(np.array([[0, 200], [7, 0]], dtype=np.uint8)))
save("csr_empty", sp.csr_matrix((0, 5), dtype=np.float64))
# A shape beyond int32: SciPy stores int64 indices. Too big to densify.
m = sp.coo_matrix((np.array([1.0, 2.0]), (np.array([0, 2]), np.array([2**31 + 5, 7]))), shape=(3, 2**31 + 10))
save("coo_int64_wide", m, dense=False)
