#!/usr/bin/python3
"""Randomized differential checker of `tensor eval` against PyTorch (and NumPy for conversions).

    /usr/bin/python3 testdata/diffcheck.py [--cases N] [--seed S] [--bin PATH]
                                            [--mode all|fwd|grad|err|big] [--keep DIR] [--golden FILE]

Each case is a random expression over mul, add, sub, neg, matmul (every rank case of semantics §7, 1-D
operands, broadcast batches), prod and sum (one or several axes, keepdims, empty axes), views
(transpose, permute, slices with positive and negative steps, reshape, broadcast_to, squeeze,
expand_dims, contiguous), astype, sparse operands (to_sparse_coo / to_sparse_csr of a leaf, then mul
and matmul, to_dense), weak Python scalars, and dtypes bool, int8..int64, uint8..uint32, float16,
bfloat16, float32, float64, complex64, complex128, with zeros, -0, NaN, +-inf and empty shapes in the
inputs. The expression runs through the CLI (`tensor eval -o out.npz`, every leaf a NAME=FILE.npy
binding) and through a reference written here from the contract (docs/semantics.md,
docs/gradients.md): each operation is computed in float64 / complex128 / int64 by PyTorch and rounded
once to the contract's result dtype (NumPy does the roundings and the integer wraps), complex products
use §5's formula, prod is a chain of products (so its gradient is the exclusive product, never a
division) and sparse products multiply stored entries only.

Gradient cases wrap the expression as vjp(lambda ...: EXPR, ARGS..., seed=S) (the arguments may be
views and bfloat16 conversions), grad(lambda ...: sum(EXPR), ...), second and third derivatives
vjp(lambda ...: vjp(lambda ...: EXPR, ..., seed=S)[i], ..., seed=T) and tuples of outputs; the reference
is torch.autograd.grad on the float64 / complex128 reference graph. Tensors used twice get the sum
of their gradients. --mode big takes gradients at sizes where the fused and blocked backward paths
run (prod over rows and columns of thousands, a broadcast mul, matmul of a few hundred). Error cases (shapes that do not
broadcast or multiply, axes out of range or repeated, bad reshapes and squeezes, bool subtraction,
out-of-range scalars, grad of a non-scalar, integer parameters, seeds of the wrong shape or kind)
must exit 1 with one line "tensor: OP: ..." naming the operation.

Values compare within rtol/atol per dtype (TOL below) scaled by the largest magnitude met in the
case, NaN where NaN, infinities equal with their signs; shapes and dtypes exactly. A mismatch is
printed with its expression and the command to reproduce it (--keep DIR keeps the .npy files).
"""
import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch

torch.set_default_dtype(torch.float64)

# ---------------------------------------------------------------- dtypes (semantics §1, §3, §4, §6)

FLOATS = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
SINTS = ["int8", "int16", "int32", "int64"]
UINTS = ["uint8", "uint16", "uint32"]
INTS = SINTS + UINTS
BITS = {"bool": 8, "int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16,
        "uint32": 32, "uint64": 64, "float16": 16, "bfloat16": 16, "float32": 32, "float64": 64,
        "complex64": 64, "complex128": 128}


def kind(dt):
    if dt == "bool":
        return 0
    if dt in INTS or dt == "uint64":
        return 1
    if dt in FLOATS:
        return 2
    return 3


def promote(a, b):
    """Semantics §3: the result dtype of two tensors, or None where there is none (an error)."""
    if a == b:
        return a
    ka, kb = kind(a), kind(b)
    if ka != kb:
        hi, lo = (a, b) if ka > kb else (b, a)
        if kind(hi) == 3 and kind(lo) == 2:
            return "complex128" if max(BITS[hi] // 2, BITS[lo]) == 64 else "complex64"
        return hi
    if ka == 1:
        sa, sb = a in SINTS, b in SINTS
        if sa == sb:
            return a if BITS[a] > BITS[b] else b
        s, u = (a, b) if sa else (b, a)
        if u == "uint64":
            return None
        return "int%d" % max(BITS[s], 2 * BITS[u])
    if ka == 2:
        if {a, b} == {"float16", "bfloat16"}:
            return "float32"
        return a if BITS[a] > BITS[b] else b
    return a if BITS[a] > BITS[b] else b


def scalar_kind(s):
    if isinstance(s, bool):
        return 0
    if isinstance(s, int):
        return 1
    if isinstance(s, float):
        return 2
    return 3


def scalar_result(tdt, s):
    """Semantics §4: a weak Python number against a tensor of dtype tdt."""
    ks, kt = scalar_kind(s), kind(tdt)
    if ks <= kt:
        return tdt
    if ks == 1:
        return "int32"
    if ks == 2:
        return "float32"
    return "complex128" if tdt == "float64" else "complex64"


def scalar_fits(tdt, s):
    if scalar_kind(s) != 1 or kind(tdt) != 1:
        return True
    info = np.iinfo(tdt)
    return info.min <= s <= info.max


def reduce_result(dt):
    if dt in ("bool", "int8", "int16"):
        return "int32"
    if dt in ("uint8", "uint16"):
        return "uint32"
    return dt


def wide_of(dt):
    return {0: torch.bool, 1: torch.int64, 2: torch.float64, 3: torch.complex128}[kind(dt)]


# ---------------------------------------------------------------- rounding to a dtype

class Round(torch.autograd.Function):
    """Rounds a float64/complex128 value to dt once (NumPy's conversions, correctly rounded); the
    gradient passes unchanged (the contract computes gradients in float32 or wider and rounds once)."""

    @staticmethod
    def forward(ctx, x, dt):
        return round_values(x.detach(), dt)

    @staticmethod
    def backward(ctx, g):
        return g, None


def round_values(x, dt):
    if dt == "float64" or dt == "complex128":
        return x.clone()
    if dt == "bfloat16":
        return x.to(torch.bfloat16).to(torch.float64)
    if dt == "complex64":
        return x.to(torch.complex64).to(torch.complex128)
    return torch.from_numpy(x.numpy().astype(dt).astype(np.float64))


ROUNDED = set()  # the dtypes a case's reference rounded to: its tolerance is the loosest


def rnd(x, dt):
    """The wide value x rounded to dtype dt (integers wrap)."""
    ROUNDED.add(dt)
    k = kind(dt)
    if k == 0:
        return x
    if k == 1:
        return torch.from_numpy(x.numpy().astype(np.int64).astype(dt).astype(np.int64))
    return Round.apply(x, dt)


def convert(x, frm, to):
    """A wide value of dtype frm as dtype to (semantics §13: astype and promotion)."""
    kf, kt = kind(frm), kind(to)
    if kt == 0:
        return x != 0
    if kt == kf:
        return rnd(x, to)
    if kt == 1:
        if kf == 0:
            return x.to(torch.int64)
        v = (x.real if kf == 3 else x).detach().numpy()
        out = np.full(v.shape, np.iinfo(np.int64).min, dtype=np.int64)
        ok = np.isfinite(v) & (np.abs(v) < 2.0 ** 63)
        out[ok] = np.trunc(v[ok]).astype(np.int64)
        return rnd(torch.from_numpy(out), to)
    if kt == 2:
        if kf == 3:
            return rnd(x.real, to)
        return rnd(x.to(torch.float64), to)
    return rnd(x.to(torch.complex128), to)


# ---------------------------------------------------------------- values

def exact_in(dt, v):
    """v rounded to dt, as a Python number (so that a file of float32 holds a bfloat16 exactly)."""
    if dt == "bfloat16":
        return float(torch.tensor(v, dtype=torch.float64).to(torch.bfloat16).to(torch.float64))
    return v


def random_values(rng, dt, shape, specials):
    n = int(np.prod(shape)) if shape else 1
    k = kind(dt)
    if k == 0:
        return np.array([rng.random() < .5 for _ in range(n)], dtype=bool).reshape(shape)
    if k == 1:
        info = np.iinfo(dt)
        def one():
            r = rng.random()
            if r < .1:
                return rng.choice([info.min, info.max]) if dt != "int64" else rng.choice([info.min, info.max, 1 << 40])
            if r < .25:
                return 0
            lo = 0 if dt in UINTS else -5
            return rng.randint(lo, 9)
        return np.array([one() for _ in range(n)], dtype=np.int64).reshape(shape)

    def real():
        r = rng.random()
        if specials and r < .12:
            return rng.choice(specials)
        if r < .2:
            return rng.choice([0.0, -0.0, 1.0, -1.0, 2.0, 0.5])
        part = {"bfloat16": "float32", "complex64": "float32", "complex128": "float64"}.get(dt, dt)
        return exact_in(dt, float(np.float64(rng.gauss(0, 1.5)).astype(part)))
    if k == 2:
        return np.array([real() for _ in range(n)], dtype=np.float64).reshape(shape)
    return np.array([complex(real(), real()) for _ in range(n)], dtype=np.complex128).reshape(shape)


def file_dtype(dt):
    return "float32" if dt == "bfloat16" else dt


# ---------------------------------------------------------------- expression nodes

class Node:
    """An expression: its CLI source, contract dtype and shape, and fn(env) computing its reference
    value in the wide dtype (env maps leaf names to wide tensors)."""

    def __init__(self, src, dt, shape, fn, sparse=False, leafish=False, elementwise=True):
        self.src, self.dt, self.shape, self.fn = src, dt, tuple(shape), fn
        self.sparse, self.leafish, self.elementwise = sparse, leafish, elementwise


def size_of(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def broadcast_shape(a, b):
    out = []
    for i in range(max(len(a), len(b))):
        x = a[len(a) - 1 - i] if i < len(a) else 1
        y = b[len(b) - 1 - i] if i < len(b) else 1
        if x != y and x != 1 and y != 1:
            return None
        out.append(y if x == 1 else x)
    return tuple(reversed(out))


def cmul(x, y, exact_formula):
    """Semantics §5's complex product (ac - bd) + (ad + bc)i; torch's own when gradients are taken
    (finite values, where the two agree)."""
    if not exact_formula or not (x.is_complex() or y.is_complex()):
        return x * y
    a, b = (x.real, x.imag) if x.is_complex() else (x, torch.zeros_like(x))
    c, d = (y.real, y.imag) if y.is_complex() else (y, torch.zeros_like(y))
    return torch.complex(a * c - b * d, a * d + b * c)


class Ctx:
    """The state of one case's reference evaluation."""

    def __init__(self, grad):
        self.grad = grad  # gradients taken: torch's complex product (finite inputs)
        self.scale = 1.0  # the largest finite magnitude met, for the tolerances

    def seen(self, v):
        if v.dtype == torch.bool or v.numel() == 0:
            return v
        a = v.detach().abs().to(torch.float64) if v.is_complex() else v.detach().to(torch.float64).abs()
        a = a[torch.isfinite(a)]
        if a.numel():
            self.scale = max(self.scale, float(a.max()))
        return v


def elementwise(op, x, y, dt, ctx):
    """op of two wide values already converted to dt's kind."""
    if dt == "bool":
        return (x & y) if op == "mul" else (x | y)
    if op == "mul":
        return cmul(x, y, not ctx.grad)
    if x.is_complex() and not ctx.grad:
        # PyTorch's complex add and sub multiply y by alpha = 1, which turns an infinite part
        # into NaNs; the contract adds the parts.
        sign = 1 if op == "add" else -1
        return torch.complex(x.real + sign * y.real, x.imag + sign * y.imag)
    if op == "add":
        return x + y
    return x - y


def dense_masked_matmul(x, y, mx, my, dt, ctx):
    """matmul of wide values (at least 2-D, batch dims broadcast) multiplying stored entries only
    (mx, my: masks of stored entries, or None for dense operands)."""
    # An operand's entries that are not stored are zeros through torch.where, so that their
    # gradient is exactly 0 (a product's backward would multiply it by the other operand).
    if mx is not None:
        x = torch.where(mx, x, torch.zeros_like(x))
    if my is not None:
        y = torch.where(my, y, torch.zeros_like(y))
    p = cmul(x.unsqueeze(-1), y.unsqueeze(-3), not ctx.grad) if dt != "bool" else (x.unsqueeze(-1) & y.unsqueeze(-3))
    mask = None
    if mx is not None:
        mask = mx.unsqueeze(-1)
    if my is not None:
        m2 = my.unsqueeze(-3)
        mask = m2 if mask is None else (mask & m2)
    if mask is not None:
        mask = mask.expand(p.shape)
        p = torch.where(mask, p, torch.zeros_like(p))
    if dt == "bool":
        return p.any(dim=-2)
    return p.sum(dim=-2)


# ---------------------------------------------------------------- the generator

class Gen:
    def __init__(self, rng, grad, dts):
        self.rng, self.grad, self.dts = rng, grad, dts
        self.leaves = []  # (name, dt, shape)
        self.plain = set()  # leaves used as they are (not through a view)
        self.has_prod = False

    def leaf(self, shape, dt=None):
        rng = self.rng
        plain = [(n, d) for n, d, s in self.leaves if s == tuple(shape) and n in self.plain and (dt is None or d == dt)]
        if plain and rng.random() < .3:
            # the same tensor used twice: its gradients add
            n, d = rng.choice(plain)
            src = n if d != "bfloat16" else "astype(%s, bfloat16)" % n
            return Node(src, d, shape, lambda env, ctx, n=n: env[n], leafish=True)
        dt = dt or rng.choice(self.dts)
        name = "x%d" % len(self.leaves)
        self.leaves.append((name, dt, tuple(shape)))
        src = name if dt != "bfloat16" else "astype(%s, bfloat16)" % name
        node = Node(src, dt, shape, lambda env, ctx, n=name: env[n], leafish=True)
        # A view of the leaf's file as the operand sometimes: the operations take any strides.
        r = rng.random()
        if len(shape) >= 2 and r < .15:
            name2 = name
            self.leaves[-1] = (name2, dt, tuple(shape[:-2]) + (shape[-1], shape[-2]))
            src2 = name2 if dt != "bfloat16" else "astype(%s, bfloat16)" % name2
            node = Node("%s.mT" % src2, dt, shape, lambda env, ctx, n=name2: env[n].transpose(-1, -2), leafish=True)
        elif len(shape) >= 1 and r < .25:
            full = (shape[0] * 2 + 1,) + tuple(shape[1:])
            self.leaves[-1] = (name, dt, full)
            src2 = name if dt != "bfloat16" else "astype(%s, bfloat16)" % name
            node = Node("%s[-2::-2]" % src2, dt, shape,
                        lambda env, ctx, n=name, m=full[0]: torch.index_select(env[n], 0, torch.arange(m - 2, -1, -2)),
                        leafish=True)
        elif r < .3 and shape and rng.random() < .5:
            # A broadcast operand: stride 0 in the first dimension.
            self.leaves[-1] = (name, dt, (1,) + tuple(shape[1:]))
            src2 = name if dt != "bfloat16" else "astype(%s, bfloat16)" % name
            node = Node("broadcast_to(%s, %s)" % (src2, tup(shape)), dt, shape,
                        lambda env, ctx, n=name, s=tuple(shape): env[n].expand(s), leafish=True)
        else:
            self.plain.add(name)
        return node

    def gen(self, shape, depth, top=False):
        rng = self.rng
        if depth <= 0 or (not top and rng.random() < .2):
            return self.leaf(shape)
        kinds = [self.binary] * 4 + [self.scalar] * 2 + [self.matmul] * 2 + [self.reduction] * 3 + [self.view] * 4 + [self.neg]
        kinds.append(self.sparse)
        return rng.choice(kinds)(shape, depth)

    def bshape(self, shape):
        tail = list(shape)[self.rng.randint(0, len(shape)):]
        return [1 if self.rng.random() < .3 else d for d in tail]

    def binary(self, shape, depth):
        rng = self.rng
        op = rng.choice(["mul", "add", "sub"])
        a, b = self.gen(shape, depth - 1), self.gen(self.bshape(shape), depth - 1)
        if rng.random() < .5:
            a, b = b, a
        dt = promote(a.dt, b.dt)
        if dt is None or (op == "sub" and "bool" in (a.dt, b.dt)):
            return self.gen(shape, depth - 1)
        sym = {"mul": "*", "add": "+", "sub": "-"}[op]
        src = "(%s %s %s)" % (a.src, sym, b.src) if rng.random() < .6 else "%s(%s, %s)" % (op, a.src, b.src)

        def fn(env, ctx):
            x = convert(a.fn(env, ctx), a.dt, dt)
            y = convert(b.fn(env, ctx), b.dt, dt)
            return ctx.seen(rnd(elementwise(op, x, y, dt, ctx), dt))
        return Node(src, dt, broadcast_shape(a.shape, b.shape), fn, elementwise=a.elementwise and b.elementwise)

    def scalar(self, shape, depth):
        rng = self.rng
        a = self.gen(shape, depth - 1)
        s = rng.choice([2, 3, -1, 0, 0.5, -1.5, 2.0, 1j, 0.5 - 2j, True])
        if not scalar_fits(a.dt, s) or (a.dt in UINTS and isinstance(s, int) and not isinstance(s, bool) and s < 0):
            s = 2
        op = rng.choice(["mul", "mul", "add", "sub"])
        dt = scalar_result(a.dt, s)
        if op == "sub" and (a.dt == "bool" or isinstance(s, bool)):
            op = "mul"
        if self.grad and kind(dt) < 2:
            s = 0.5
            dt = scalar_result(a.dt, s)
        left = rng.random() < .5
        sym = {"mul": "*", "add": "+", "sub": "-"}[op]
        ss = repr(s) if not isinstance(s, complex) else "(%r%+gj)" % (s.real, s.imag)
        src = "(%s %s %s)" % ((ss, sym, a.src) if left else (a.src, sym, ss))

        def fn(env, ctx):
            x = convert(a.fn(env, ctx), a.dt, dt)
            y = torch.full(x.shape, s, dtype=wide_of(dt)) if not isinstance(s, bool) or dt == "bool" else torch.full(x.shape, int(s), dtype=wide_of(dt))
            y = convert(y, dt, dt) if kind(dt) >= 2 else y
            # A weak scalar takes the result dtype (float16 x 0.1 multiplies by float16 0.1).
            if kind(dt) >= 2:
                y = rnd(y, dt)
            xx, yy = (y, x) if left else (x, y)
            return ctx.seen(rnd(elementwise(op, xx, yy, dt, ctx), dt))
        return Node(src, dt, shape, fn, elementwise=a.elementwise)

    def neg(self, shape, depth):
        a = self.gen(shape, depth - 1)
        if a.dt == "bool":
            return a
        src = "(-%s)" % a.src if self.rng.random() < .5 else "neg(%s)" % a.src
        return Node(src, a.dt, shape, lambda env, ctx: rnd(-a.fn(env, ctx), a.dt), elementwise=a.elementwise)

    def matmul(self, shape, depth):
        rng = self.rng
        k = rng.choice([0, 1, 2, 3, 4, 5, 9, 17, 33] if size_of(shape) <= 64 else [0, 1, 2, 3])
        if not shape:
            ash, bsh = [k], [k]
        elif len(shape) == 1:
            if rng.random() < .5:
                ash, bsh = [shape[0], k], [k]
            else:
                ash, bsh = [k], [k, shape[0]]
        else:
            batch = list(shape[:-2])
            ab, bb = self.bshape(batch), self.bshape(batch)
            if rng.random() < .5:
                ab = list(batch)
            else:
                bb = list(batch)
            ash, bsh = ab + [shape[-2], k], bb + [k, shape[-1]]
            if rng.random() < .2:  # a 1-D operand against a batch
                if rng.random() < .5:
                    ash, bsh = [k], list(shape[:-1]) + [k, shape[-1]]
                else:
                    ash, bsh = list(shape) + [k], [k]
        return self.matmul_of(self.gen(ash, depth - 1), self.gen(bsh, depth - 1), tuple(shape))

    def matmul_of(self, a, b, out_shape, ma=None, mb=None):
        dt = promote(a.dt, b.dt)
        if dt is None:
            return a if a.shape == out_shape else self.leaf(out_shape)
        src = "(%s @ %s)" % (a.src, b.src) if self.rng.random() < .6 else "matmul(%s, %s)" % (a.src, b.src)

        def fn(env, ctx):
            x = convert(a.fn(env, ctx), a.dt, dt)
            y = convert(b.fn(env, ctx), b.dt, dt)
            mx = ma(env, ctx) if ma else None
            my = mb(env, ctx) if mb else None
            xa, ya = x, y
            if x.dim() == 1:
                xa = x.unsqueeze(0)
                mx = mx.unsqueeze(0) if mx is not None else None
            if y.dim() == 1:
                ya = y.unsqueeze(-1)
                my = my.unsqueeze(-1) if my is not None else None
            r = dense_masked_matmul(xa, ya, mx, my, dt, ctx)
            if x.dim() == 1:
                r = r.squeeze(-2)
            if y.dim() == 1:
                r = r.squeeze(-1)
            return ctx.seen(rnd(r, dt))
        return Node(src, dt, out_shape, fn, elementwise=False)

    def reduction(self, shape, depth):
        rng = self.rng
        op = rng.choice(["prod", "prod", "sum"])
        keep = rng.random() < .4
        nred = rng.choice([1, 1, 2, 0]) if len(shape) < 3 else 1
        full = list(shape)
        if keep:
            # reduced dims are size 1 in the result: pick among shape's 1s, else insert.
            axes = [i for i, d in enumerate(shape) if d == 1][:max(nred, 1)] if nred else []
            if nred and not axes:
                keep = False
        if not keep:
            axes = []
            for _ in range(nred):
                d = rng.randint(0, len(full))
                full.insert(d, rng.choice([0, 1, 2, 3, 4]))
                axes = [a + (1 if a >= d else 0) for a in axes] + [d]
        else:
            for a in axes:
                full[a] = rng.choice([0, 1, 2, 3, 4])
        whole = nred == 0 and not keep and not shape and rng.random() < .5
        if whole:  # all axes
            full = [rng.randint(0, 3) for _ in range(rng.randint(0, 3))]
            axes = list(range(len(full)))
        a = self.gen(full, depth - 1)
        if op == "prod":
            self.has_prod = True
        nd = len(full)
        spelled = [ax - nd if rng.random() < .3 else ax for ax in axes]
        args = [a.src]
        if whole:
            pass
        elif len(spelled) == 1 and rng.random() < .5:
            args.append(("axis=%d" if rng.random() < .7 else "dim=%d") % spelled[0])
        else:
            args.append("axis=%s" % tup(spelled))
        if keep or rng.random() < .2:
            args.append("keepdims=%s" % keep)
        dt = reduce_result(a.dt)
        if rng.random() < .15:
            # the Array API's dtype: accumulate and return in it (a kind not lower than the input's)
            cands = [d for d in (["int64", "float64", "complex128", "float32"] if not self.grad else self.dts)
                     if kind(d) >= kind(a.dt) and (kind(d) != 1 or a.dt in SINTS + ["bool", "int64"] or d == "int64")]
            if cands:
                dt = rng.choice(cands)
                args.append("dtype=%s" % dt)
        src = "%s(%s)" % (op, ", ".join(args)) if rng.random() < .7 else "%s.%s(%s)" % (a.src, op, ", ".join(args[1:]))
        out_shape = [d for i, d in enumerate(full) if i not in axes] if not keep else [1 if i in axes else d for i, d in enumerate(full)]

        def fn(env, ctx):
            x = convert(a.fn(env, ctx), a.dt, dt)
            if x.dtype == torch.bool:
                x = x.to(torch.int64)
            rest = [i for i in range(x.dim()) if i not in axes]
            x = x.permute(rest + sorted(axes))
            lead = x.shape[:len(rest)]
            x = x.reshape(tuple(lead) + (-1,))
            if op == "sum":
                r = x.sum(dim=-1)
            else:
                # From the first element, as NumPy reduces (a product of one complex element is
                # that element, not 1 times it, which §5's formula would give NaN parts with inf).
                parts = torch.unbind(x, dim=-1)
                r = parts[0] if parts else torch.ones(lead, dtype=x.dtype)
                for p in parts[1:]:
                    r = cmul(r, p, not ctx.grad)
            if keep:
                r = r.reshape(out_shape)
            return ctx.seen(rnd(r, dt))
        return Node(src, dt, out_shape, fn, elementwise=False)

    def view(self, shape, depth):
        rng = self.rng
        kind_ = rng.choice(["T", "mT", "permute", "transpose", "swapaxes", "slice", "reshape", "flatten",
                            "broadcast_to", "squeeze", "expand_dims", "astype", "contiguous", "index"])
        shape = list(shape)
        sub = lambda s: self.gen(s, depth - 1)
        if kind_ in ("T", "permute") and len(shape) >= 2:
            perm = list(range(len(shape)))
            if kind_ == "T":
                perm = perm[::-1]
            else:
                rng.shuffle(perm)
            src_shape = [0] * len(shape)
            for i, p in enumerate(perm):
                src_shape[p] = shape[i]
            a = sub(src_shape)
            src = "%s.T" % a.src if kind_ == "T" else rng.choice(["permute(%s, %s)", "transpose(%s, %s)"]) % (a.src, tup(perm))
            return Node(src, a.dt, shape, lambda env, ctx: a.fn(env, ctx).permute(perm), elementwise=a.elementwise)
        if kind_ in ("mT", "transpose", "swapaxes") and len(shape) >= 2:
            i, j = (len(shape) - 2, len(shape) - 1) if kind_ == "mT" else tuple(rng.sample(range(len(shape)), 2))
            src_shape = list(shape)
            src_shape[i], src_shape[j] = shape[j], shape[i]
            a = sub(src_shape)
            src = {"mT": "%s.mT" % a.src, "transpose": "%s.transpose(%d, %d)" % (a.src, i, j),
                   "swapaxes": "swapaxes(%s, %d, %d)" % (a.src, i, j)}[kind_]
            return Node(src, a.dt, shape, lambda env, ctx: a.fn(env, ctx).transpose(i, j), elementwise=a.elementwise)
        if kind_ == "slice" and shape:
            ax = rng.randrange(len(shape))
            n = shape[ax]
            step = rng.choice([1, 2, 3, -1, -2, -3])
            src_n = rng.randint(n * abs(step), n * abs(step) + 2) if n else rng.randint(0, 3)
            # find lo, hi that select exactly n elements
            cands = []
            for lo in [None] + list(range(-src_n - 1, src_n + 2)):
                for hi in [None] + list(range(-src_n - 1, src_n + 2)):
                    if len(range(*slice(lo, hi, step).indices(src_n))) == n:
                        cands.append((lo, hi))
            if not cands:
                return self.leaf(shape)
            lo, hi = rng.choice(cands)
            full = list(shape)
            full[ax] = src_n
            a = sub(full)
            part = "%s:%s%s" % ("" if lo is None else lo, "" if hi is None else hi, "" if step == 1 and rng.random() < .5 else ":%d" % step)
            idx = ", ".join([":"] * ax + [part])
            idxs = list(range(*slice(lo, hi, step).indices(src_n)))
            return Node("%s[%s]" % (a.src, idx), a.dt, shape,
                        lambda env, ctx: torch.index_select(a.fn(env, ctx), ax, torch.tensor(idxs, dtype=torch.int64)),
                        elementwise=a.elementwise)
        if kind_ == "index" and len(shape) < 3:
            ax = rng.randrange(len(shape) + 1)
            m = rng.randint(1, 3)
            i = rng.randrange(-m, m)
            full = shape[:ax] + [m] + shape[ax:]
            a = sub(full)
            idx = ", ".join([":"] * ax + [str(i)])
            return Node("%s[%s]" % (a.src, idx), a.dt, shape, lambda env, ctx: a.fn(env, ctx).select(ax, i), elementwise=a.elementwise)
        if kind_ in ("reshape", "flatten"):
            n = size_of(shape)
            if kind_ == "flatten" and len(shape) == 1:
                a = sub(rng.choice([[1, n], [n, 1], [n]]))
                src = "%s.flatten()" % a.src if rng.random() < .5 else "ravel(%s)" % a.src
            else:
                cands = [[n], [1, n], [n, 1]]
                if n == 12:
                    cands += [[3, 4], [2, 3, 2]]
                if n == 6:
                    cands += [[2, 3], [3, 2]]
                if n == 4:
                    cands += [[2, 2]]
                a = sub(rng.choice(cands))
                spelled = list(shape)
                if spelled and n and rng.random() < .3:
                    spelled[rng.randrange(len(spelled))] = -1
                src = "reshape(%s, %s)" % (a.src, tup(spelled)) if rng.random() < .6 else "%s.reshape(%s)" % (a.src, ", ".join(map(str, spelled)) or "()")
            return Node(src, a.dt, shape, lambda env, ctx: a.fn(env, ctx).reshape(shape), elementwise=a.elementwise)
        if kind_ == "broadcast_to" and shape:
            base = self.bshape(shape)
            a = sub(base)
            src = "broadcast_to(%s, %s)" % (a.src, tup(shape)) if rng.random() < .6 else "%s.expand(%s)" % (a.src, ", ".join(map(str, shape)))
            return Node(src, a.dt, shape, lambda env, ctx: a.fn(env, ctx).expand(shape), elementwise=a.elementwise)
        if kind_ == "squeeze":
            d = rng.randint(0, len(shape))
            a = sub(shape[:d] + [1] + shape[d:])
            src = rng.choice(["squeeze(%s, %d)" % (a.src, d), "%s.squeeze(%d)" % (a.src, d)])
            if 1 not in shape:
                src = rng.choice([src, "squeeze(%s)" % a.src])
            return Node(src, a.dt, shape, lambda env, ctx: a.fn(env, ctx).squeeze(d), elementwise=a.elementwise)
        if kind_ == "expand_dims" and 1 in shape:
            d = shape.index(1)
            a = sub(shape[:d] + shape[d + 1:])
            src = rng.choice(["expand_dims(%s, %d)" % (a.src, d), "%s.unsqueeze(%d)" % (a.src, d),
                              "%s[%s]" % (a.src, ", ".join([":"] * d + ["None"]))])
            return Node(src, a.dt, shape, lambda env, ctx: a.fn(env, ctx).unsqueeze(d), elementwise=a.elementwise)
        if kind_ == "astype":
            a = sub(shape)
            if self.grad:
                to = rng.choice([d for d in self.dts if kind(d) >= 2])
            else:
                to = rng.choice(FLOATS + COMPLEX + INTS + ["bool"])
            if kind(to) < 2 and not a.leafish:
                to = rng.choice(FLOATS + COMPLEX)
            if kind(to) < kind(a.dt) and kind(to) >= 2 and not a.leafish:
                to = a.dt  # complex to real of a computed value: fine, but keep it to leaves
            if self.grad and kind(to) == 2 and kind(a.dt) == 3:
                to = a.dt
            src = rng.choice(["astype(%s, %s)" % (a.src, to), "%s.astype('%s')" % (a.src, to)])
            return Node(src, to, shape, lambda env, ctx: convert(a.fn(env, ctx), a.dt, to), elementwise=a.elementwise)
        if kind_ == "contiguous":
            a = sub(shape)
            src = rng.choice(["%s.contiguous()" % a.src, "%s.clone()" % a.src, "ascontiguousarray(%s)" % a.src])
            return Node(src, a.dt, shape, lambda env, ctx: a.fn(env, ctx), elementwise=a.elementwise)
        return self.leaf(shape)

    def sparse(self, shape, depth):
        """A sparse operand (to_sparse of a leaf) in a product, then back to dense."""
        rng = self.rng
        if len(shape) > 2:
            return self.binary(shape, depth)
        layout = rng.choice(["to_sparse_coo", "to_sparse_csr", "to_sparse"])
        if len(shape) == 2 and rng.random() < .5:
            # sparse * dense (same shape), * scalar, or * sparse: the pattern kept.
            s = self.leaf(shape)
            which = rng.choice(["dense", "scalar", "sparse"])
            if which == "dense":
                o = self.gen(shape, depth - 1)
            elif which == "sparse":
                o = self.leaf(shape)
            else:
                o = None
            dt = promote(s.dt, o.dt) if o is not None else scalar_result(s.dt, 2.0)
            if dt is None:
                return s
            if which == "scalar":
                src = "to_dense(%s(%s) * 2.0)" % (layout, s.src)
            elif which == "sparse":
                src = "to_dense(%s(%s) * %s(%s))" % (layout, s.src, layout, o.src)
            else:
                src = "to_dense(%s(%s) * %s)" % (layout, s.src, o.src) if rng.random() < .5 else "to_dense(%s * %s(%s))" % (o.src, layout, s.src)

            def fn(env, ctx):
                sv = s.fn(env, ctx)
                m = sv != 0
                x = convert(sv, s.dt, dt)
                if which == "scalar":
                    y = rnd(torch.full(x.shape, 2.0, dtype=wide_of(dt)), dt)
                else:
                    ov = o.fn(env, ctx)
                    y = convert(ov, o.dt, dt)
                    if which == "sparse":
                        m = m & (ov != 0)
                x = torch.where(m, x, torch.zeros_like(x))
                p = rnd(elementwise("mul", x, y, dt, ctx), dt)
                return ctx.seen(torch.where(m, p, torch.zeros_like(p)))
            return Node(src, dt, shape, fn, elementwise=False)
        # a product with a sparse operand
        k = rng.choice([0, 1, 2, 3, 4])
        if len(shape) == 2:
            m, n = shape
            if rng.random() < .5:
                ash, bsh, sa = [m, k], [k, n], True
            else:
                ash, bsh, sa = [m, k], [k, n], False
        elif len(shape) == 1:
            if rng.random() < .5:
                ash, bsh, sa = [shape[0], k], [k], True
            else:
                ash, bsh, sa = [k], [k, shape[0]], False
        else:
            return self.binary(shape, depth) if shape else self.leaf(shape)
        both = rng.random() < .2 and len(ash) == 2 and len(bsh) == 2
        if sa or both:
            a = self.leaf(ash)
        else:
            a = self.gen(ash, depth - 1)
        if not sa or both:
            b = self.leaf(bsh)
        else:
            b = self.gen(bsh, depth - 1)
        sa_src = "%s(%s)" % (layout, a.src) if (sa or both) else a.src
        sb_src = "%s(%s)" % (layout, b.src) if (not sa or both) else b.src
        ma = (lambda env, ctx: a.fn(env, ctx) != 0) if (sa or both) else None
        mb = (lambda env, ctx: b.fn(env, ctx) != 0) if (not sa or both) else None
        node = self.matmul_of(Node(sa_src, a.dt, a.shape, a.fn), Node(sb_src, b.dt, b.shape, b.fn), tuple(shape), ma, mb)
        if both:
            node.src = "to_dense(%s)" % node.src
        return node


def tup(xs):
    xs = list(xs)
    if len(xs) == 1:
        return "(%d,)" % xs[0]
    return "(%s)" % ", ".join(map(str, xs))


# ---------------------------------------------------------------- running and comparing

TOL = {"float16": 2e-2, "bfloat16": 6e-2, "float32": 2e-4, "float64": 1e-9, "complex64": 2e-4,
       "complex128": 1e-9}
if os.environ.get("DIFFCHECK_TOL"):  # e.g. float16=2e-3,bfloat16=1.6e-2
    for kv in os.environ["DIFFCHECK_TOL"].split(","):
        k, v = kv.split("=")
        TOL[k] = float(v)


class Runner:
    def __init__(self, binary, keep):
        self.bin = binary
        self.dir = tempfile.mkdtemp(prefix="diffcheck")
        self.keep = keep
        self.runs = 0

    def run(self, expr, files):
        out = os.path.join(self.dir, "out.npz")
        if os.path.exists(out):
            os.remove(out)
        args = [self.bin, "eval", "-o", out, expr] + ["%s=%s" % kv for kv in files.items()]
        self.runs += 1
        p = subprocess.run(args, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr, out

    def query(self, expr, files):
        args = [self.bin, "eval", expr] + ["%s=%s" % kv for kv in files.items()]
        self.runs += 1
        p = subprocess.run(args, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout.strip(), p.stderr.strip()

    def save(self, name, arr):
        path = os.path.join(self.dir, name + ".npy")
        r = random.random()
        if arr.ndim >= 2 and r < .2:
            arr = np.asfortranarray(arr)  # a column-major file
        elif r < .3 and arr.dtype.itemsize > 1 and arr.dtype != np.bool_:
            arr = arr.astype(arr.dtype.newbyteorder(">"))  # a big-endian file
        np.save(path, arr)
        return path


def to_np(v, dt):
    v = v.detach()
    if kind(dt) == 0:
        return v.numpy().astype(bool)
    if kind(dt) == 1:
        return v.numpy().astype(np.int64)
    return v.numpy()


def compare(got, want, dt, scale):
    """'' when got (loaded from the CLI) matches want (the reference, wide) as dtype dt, else why."""
    if tuple(got.shape) != tuple(want.shape):
        return "shape %s, want %s" % (got.shape, want.shape)
    k = kind(dt)
    if k <= 1:
        g = got.astype(np.int64) if k == 1 else got.astype(bool)
        w = want.astype(np.int64) if k == 1 else want.astype(bool)
        if not np.array_equal(g, w):
            return "values differ at %s" % np.argwhere(g != w)[:4].tolist()
        return ""
    g = got.astype(np.complex128 if k == 3 else np.float64)
    w = want.astype(np.complex128 if k == 3 else np.float64)
    parts = [(g.real, w.real), (g.imag, w.imag)] if k == 3 else [(g, w)]
    tol = max([TOL[dt]] + [TOL[d] for d in ROUNDED if d in TOL])
    if k == 3:
        # Where either part is NaN the other part is not compared (C99's undefined results).
        gn = np.isnan(g.real) | np.isnan(g.imag)
        wn = np.isnan(w.real) | np.isnan(w.imag)
        if not np.array_equal(gn, wn):
            return "NaN positions differ: got %s want %s" % (np.argwhere(gn != wn)[:4].tolist(), "")
        parts = [(np.where(gn, 0, a), np.where(wn, 0, b)) for a, b in parts]
    for a, b in parts:
        an, bn = np.isnan(a), np.isnan(b)
        if not np.array_equal(an, bn):
            return "NaN positions differ at %s" % np.argwhere(an != bn)[:4].tolist()
        ai, bi = np.isinf(a), np.isinf(b)
        if not np.array_equal(ai, bi) or not np.array_equal(a[ai], b[bi]):
            return "infinities differ at %s" % np.argwhere((ai != bi) | (ai & (a != b)))[:4].tolist()
        f = ~(an | ai)
        err = np.abs(a[f] - b[f])
        lim = tol * scale + tol * np.abs(b[f])
        if err.size and np.any(err > lim):
            i = int(np.argmax(err - lim))
            return "values differ: max excess at flat %d: got %r want %r (tol %g, scale %g)" % (
                i, a[f][i], b[f][i], tol, scale)
    return ""


def materialize(gen, runner, rng, specials):
    """Leaf values: files for the CLI, wide tensors for the reference."""
    files, env = {}, {}
    for name, dt, shape in gen.leaves:
        v = random_values(rng, dt, shape, specials(dt))
        files[name] = runner.save(name, v.astype(file_dtype(dt)))
        w = torch.from_numpy(np.array(v))
        if kind(dt) == 1:
            w = torch.from_numpy(v.astype(dt).astype(np.int64))
        env[name] = w
    return files, env


def specials_for(gen, grad, finite=False):
    def sp(dt):
        if finite:
            return [0.0, -0.0]
        if grad:
            return [0.0, -0.0] if kind(dt) == 3 else [0.0, -0.0, float("inf"), float("-inf"), float("nan")]
        if kind(dt) == 3 and gen.has_prod:
            return [0.0, -0.0, float("nan")]
        return [0.0, -0.0, float("inf"), float("-inf"), float("nan")]
    return sp


def load_result(out):
    """The CLI's arrays arr_0, arr_1, ... (bfloat16 results were written as float32, since NumPy
    has no bfloat16; check_outputs asks for their dtypes with .dtype)."""
    z = np.load(out)
    return [z["arr_%d" % i] for i in range(len(z.files))]


def fmt_cmd(expr, files):
    return "tensor eval %s %s" % (json.dumps(expr), " ".join("%s=%s" % kv for kv in files.items()))


class Stats:
    def __init__(self):
        self.cases, self.fails, self.by_class, self.ran = 0, 0, {}, {}

    def count(self, label):
        top = "/".join(label.split("/")[:2])
        self.ran[top] = self.ran.get(top, 0) + 1


def check_outputs(runner, expr, files, wants, dts, scale, stats, label):
    """Runs expr (a tensor or a tuple of tensors) and compares with wants (wide tensors of dtypes dts)."""
    bf = any(d == "bfloat16" for d in dts)
    run_expr = expr
    if bf:
        if len(dts) == 1 and not expr.startswith(("vjp(", "grad(")):
            run_expr = "astype(%s, float32)" % expr
        else:
            run_expr = "(%s,)" % ", ".join(("astype((%s)[%d], float32)" if d == "bfloat16" else "(%s)[%d]") % (expr, i)
                                           for i, d in enumerate(dts))
    rc, so, se, out = runner.run(run_expr, files)
    stats.cases += 1
    stats.count(label)
    if rc != 0:
        return fail(stats, label, expr, files, "exit %d: %s" % (rc, se.strip()))
    arrs = load_result(out)
    if len(arrs) != len(wants):
        return fail(stats, label, expr, files, "%d results, want %d" % (len(arrs), len(wants)))
    if bf:
        q = "(%s).dtype" % expr if len(dts) == 1 and not expr.startswith(("vjp(", "grad(")) else \
            "(%s,)" % ", ".join("(%s)[%d].dtype" % (expr, i) for i in range(len(dts)))
        rc, so, se = runner.query(q, files)
        got_dts = [s.strip(" '\"") for s in so.strip("()").split(",") if s.strip()]
    else:
        got_dts = [str(a.dtype) for a in arrs]
    for i, (a, w, d) in enumerate(zip(arrs, wants, dts)):
        gd = got_dts[i] if i < len(got_dts) else "?"
        if gd != d:
            return fail(stats, label, expr, files, "result %d dtype %s, want %s" % (i, gd, d))
        why = compare(a, to_np(w, d), d, scale)
        if why:
            return fail(stats, label, expr, files, "result %d: %s" % (i, why))
    return True


KEEP = [None]


def fail(stats, label, expr, files, why):
    stats.fails += 1
    if KEEP[0] and files:
        d = os.path.join(KEEP[0], "case%d" % stats.fails)
        os.makedirs(d, exist_ok=True)
        for k, p in list(files.items()):
            shutil.copy(p, d)
            files[k] = os.path.join(d, os.path.basename(p))
    stats.by_class[label] = stats.by_class.get(label, 0) + 1
    print("FAIL [%s] %s\n  %s" % (label, why, fmt_cmd(expr, files)), flush=True)
    return False


# ---------------------------------------------------------------- cases

def random_shape(rng):
    s = [rng.choice([0, 1, 1, 2, 2, 3, 4]) if rng.random() < .9 else 0 for _ in range(rng.randint(0, 3))]
    if s and rng.random() < .15:
        # one long dimension: kernel tiles and their edges, vector lanes, the complex product's
        # 16 lanes from 64 elements
        s[rng.randrange(len(s))] = rng.choice([7, 16, 17, 31, 33, 64, 65, 100])
    return s


def forward_case(rng, runner, stats):
    dts = rng.choice([["float32", "float64"], FLOATS, COMPLEX + ["float32"], INTS + ["bool"],
                      ["float16", "bfloat16", "int8", "uint8", "bool"], FLOATS + COMPLEX + INTS + ["bool"]])
    gen = Gen(rng, False, dts)
    ROUNDED.clear()
    e = gen.gen(random_shape(rng), rng.randint(1, 4), top=True)
    if e.leafish and rng.random() < .7:
        return
    files, env = materialize(gen, runner, rng, specials_for(gen, False))
    ctx = Ctx(False)
    want = e.fn(env, ctx)
    assert tuple(want.shape) == e.shape, (e.src, want.shape, e.shape)
    label = "fwd/" + e.dt
    check_outputs(runner, e.src, files, [want], [e.dt], ctx.scale, stats, label)


def grad_case(rng, runner, stats):
    dts = rng.choice([["float64"], ["float64", "complex128"], ["float32"], ["float32", "float64"],
                      ["float16", "float32"], ["bfloat16", "float32"], ["complex64", "float32"],
                      ["float16", "bfloat16", "float32", "complex64"]])
    gen = Gen(rng, True, dts)
    ROUNDED.clear()
    shape = random_shape(rng)
    e = gen.gen(shape, rng.randint(1, 4), top=True)
    if e.leafish:
        return
    if kind(e.dt) < 2:
        return
    mode = rng.random()
    e2 = None
    if .15 <= mode < .3:
        e2 = gen.gen(random_shape(rng), rng.randint(1, 3), top=True)
        if kind(e2.dt) < 2:
            return
    # Parameters: the leaves' bound names (as the lambda's arguments) or views of them.
    names = [n for n, d, s in gen.leaves]
    if not names:
        return
    params = rng.sample(names, rng.randint(1, len(names)))
    # An empty parameter differentiated twice: its first gradient is empty, and the zero
    # cotangent that comes back from it meets an infinite input in a matmul's backward (0 * inf =
    # NaN, the IEEE answer gradients.md allows for inputs that are not finite; torch.prod's own
    # double backward gives NaN there too, in more places), where this reference's empty product
    # is a constant and gives 0; finite inputs there.
    # Complex products with infinite parts: PyTorch's gradients go through its own complex
    # product, not §5's formula; finite there too.
    # Second derivatives with infinite inputs have no one answer: a sum of terms such as
    # t2*a1*a3 + t3*a1*a2 with a1 = inf is NaN expanded and inf factored, and both are IEEE
    # evaluations of the same polynomial; finite inputs there (zeros stay: those are exact).
    finite = any(size_of(s) == 0 for n, d, s in gen.leaves) or any(kind(d) == 3 for d in dts) or .3 <= mode < .6 \
        or any("j)" in x.src or "complex" in x.src for x in (e, e2) if x is not None)
    files, env = materialize(gen, runner, rng, specials_for(gen, True, finite))
    # The lambda's parameters stand for the leaves' names inside the body: rename.
    pnames = {n: "p%s" % n[1:] for n in params}
    body = e.src
    for n in sorted(params, key=len, reverse=True):
        body = replace_name(body, n, pnames[n])
    dt_of = {n: d for n, d, s in gen.leaves}
    args = [n if dt_of[n] != "bfloat16" else "astype(%s, bfloat16)" % n for n in params]
    # Inside the lambda, a bfloat16 leaf was astype(xN, bfloat16): its parameter is bfloat16 already.
    for n in params:
        if dt_of[n] == "bfloat16":
            body = body.replace("astype(%s, bfloat16)" % pnames[n], pnames[n])
    # Some arguments are views of files holding the parameter's values elsewhere: transposed, or
    # every other row backwards (the gradient has the view's shape and is contiguous).
    for k, n in enumerate(params):
        v = env[n].numpy()
        r = rng.random()
        if v.ndim >= 2 and r < .15:
            files["v" + n] = runner.save("v" + n, np.ascontiguousarray(np.swapaxes(v, -1, -2)).astype(file_dtype(dt_of[n])))
            args[k] = args[k].replace(n, "v%s.mT" % n, 1)
        elif v.ndim >= 1 and r < .3:
            f = np.zeros((2 * v.shape[0] + 1,) + v.shape[1:], dtype=v.dtype)
            f[-2::-2] = v
            files["v" + n] = runner.save("v" + n, f.astype(file_dtype(dt_of[n])))
            args[k] = args[k].replace(n, "v%s[-2::-2]" % n, 1)
    tracked = {}
    for n, v in env.items():
        if n in params:
            v = v.clone().requires_grad_(True)
        tracked[n] = v
    ctx = Ctx(True)
    out = e.fn(tracked, ctx)
    if not out.requires_grad:
        return
    lam = "lambda %s: " % ", ".join(pnames[n] for n in params)
    odt = e.dt
    if mode < .15 and kind(odt) == 2:
        # grad of a sum
        body2 = "sum(%s)" % body
        total = rnd(out.sum(), reduce_result(odt)) if out.numel() else rnd(out.sum(), odt)
        expr = "grad(%s%s, %s)" % (lam, body2, ", ".join(args))
        gs = torch.autograd.grad(total, [tracked[n] for n in params], allow_unused=True)
        label = "grad/sum"
    elif e2 is not None:
        # a tuple of two outputs with a tuple of seeds: the parameters' gradients from both add
        body_2 = e2.src
        for n in sorted(params, key=len, reverse=True):
            body_2 = replace_name(body_2, n, pnames[n])
        for n in params:
            if dt_of[n] == "bfloat16":
                body_2 = body_2.replace("astype(%s, bfloat16)" % pnames[n], pnames[n])
        out2 = e2.fn(tracked, ctx)
        seeds, outs = [], [out, out2]
        for i, o in enumerate((e, e2)):
            sv = random_values(rng, o.dt, list(o.shape), [])
            files["seed%d" % i] = runner.save("seed%d" % i, sv.astype(file_dtype(o.dt)))
            seeds.append(torch.from_numpy(np.array(sv)))
        expr = "vjp(%s(%s, %s), %s, seed=(seed0, seed1))" % (lam, body, body_2, ", ".join(args))
        used = [(o, sd) for o, sd in zip(outs, seeds) if o.requires_grad]
        if not used:
            return
        gs = torch.autograd.grad([o for o, _ in used], [tracked[n] for n in params], [sd for _, sd in used], allow_unused=True)
        label = "grad/tuple"
    else:
        seed_v = random_values(rng, odt, list(e.shape), [])
        seed_name = "seed"
        files[seed_name] = runner.save(seed_name, seed_v.astype(file_dtype(odt)))
        seed = torch.from_numpy(np.array(seed_v))
        expr = "vjp(%s%s, %s, seed=seed)" % (lam, body, ", ".join(args))
        if mode < .6:
            # second order: vjp of the first parameter's gradient
            g1 = torch.autograd.grad(out, [tracked[n] for n in params], seed, allow_unused=True, create_graph=True)
            which = rng.randrange(len(params))
            g = g1[which]
            pd = dt_of[params[which]]
            t_v = random_values(rng, pd, list(tracked[params[which]].shape), [])
            files["tseed"] = runner.save("tseed", t_v.astype(file_dtype(pd)))
            t = torch.from_numpy(np.array(t_v))
            inner = "vjp(%s%s, %s, seed=seed)[%d]" % (lam, body, ", ".join(pnames[n] for n in params), which)
            expr = "vjp(%s%s, %s, seed=tseed)" % (lam, inner, ", ".join(args))
            third = mode < .38 and g is not None and g.requires_grad
            if g is None or not g.requires_grad:
                gs = [None] * len(params)
            else:
                gs = torch.autograd.grad(g, [tracked[n] for n in params], t, allow_unused=True, create_graph=third)
            label = "grad/second"
            if third:
                # third order: vjp of a second derivative
                which2 = rng.randrange(len(params))
                g2 = gs[which2]
                pd2 = dt_of[params[which2]]
                u_v = random_values(rng, pd2, list(tracked[params[which2]].shape), [])
                files["useed"] = runner.save("useed", u_v.astype(file_dtype(pd2)))
                inner2 = "vjp(%s%s, %s, seed=tseed)[%d]" % (lam, inner, ", ".join(pnames[n] for n in params), which2)
                expr = "vjp(%s%s, %s, seed=useed)" % (lam, inner2, ", ".join(args))
                if g2 is None or not g2.requires_grad:
                    gs = [None] * len(params)
                else:
                    gs = torch.autograd.grad(g2, [tracked[n] for n in params], torch.from_numpy(np.array(u_v)), allow_unused=True)
                label = "grad/third"
        else:
            gs = torch.autograd.grad(out, [tracked[n] for n in params], seed, allow_unused=True)
            label = "grad/vjp"
    wants, wdts = [], []
    for n, g in zip(params, gs):
        d = dt_of[n]
        if g is None:
            g = torch.zeros_like(env[n])
        w = rnd(g.detach(), d)
        ctx.seen(w)
        wants.append(w)
        wdts.append(d)
    check_outputs(runner, expr, files, wants, wdts, ctx.scale, stats, label + "/" + "+".join(sorted(set(wdts))))


def exclusive_prod(x, axes):
    """The product of the other elements of each element's group (the reduced axes), in float64 or
    complex128, from prefix and suffix products: never a division."""
    rest = [i for i in range(x.dim()) if i not in axes]
    perm = rest + list(axes)
    y = x.permute(perm)
    lead = y.shape[:len(rest)]
    y = y.reshape(tuple(lead) + (-1,))
    n = y.shape[-1]
    one = torch.ones(tuple(lead) + (1,), dtype=y.dtype)
    pre = torch.cat([one, torch.cumprod(y, dim=-1)[..., :-1]], dim=-1) if n else y
    suf = torch.cat([torch.flip(torch.cumprod(torch.flip(y, [-1]), dim=-1), [-1])[..., 1:], one], dim=-1) if n else y
    e = (pre * suf).reshape(y.shape[:len(rest)] + tuple(x.shape[a] for a in axes))
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return e.permute(inv)


def big_values(rng, dt, shape, near_one):
    """Values for the large cases: near 1 for long products (no overflow), with zeros, -0, NaN
    and infinities at a few random places."""
    n = size_of(shape)
    g = np.random.default_rng(rng.randrange(1 << 30))
    v = g.uniform(0.995, 1.005, n) if near_one else g.normal(0, 1, n)
    if kind(dt) == 3:
        v = v + 1j * (g.uniform(-0.004, 0.004, n) if near_one else g.normal(0, 1, n))
    for _ in range(rng.choice([0, 0, 1, 2, 5])):
        if n:
            v[g.integers(n)] = rng.choice([0.0, -0.0, 2.0, float("inf"), float("nan")] if kind(dt) == 2 else [0.0, 2.0])
    v = v.reshape(shape)
    if dt == "bfloat16":
        v = torch.from_numpy(v).to(torch.bfloat16).to(torch.float64).numpy()
    elif kind(dt) == 2:
        v = v.astype(dt).astype(np.float64)
    else:
        v = v.astype(dt).astype(np.complex128)
    return v


def big_case(rng, runner, stats):
    """Gradients at sizes where the library's fused and blocked backward paths run: prod over one
    axis of long rows and columns (ExclusiveProdMul, the split rows), a mul broadcast over leading
    dimensions (row-block sums), a matmul of a few hundred, a sum broadcast back."""
    dt = rng.choice(["float32", "float32", "float64", "float16", "bfloat16", "complex64"])
    ROUNDED.clear()
    ROUNDED.add(dt)
    kind_ = rng.choice(["prod", "prod", "mul", "matmul", "sum"])
    files = {}

    def bind(name, v):
        files[name] = runner.save(name, v.astype(file_dtype(dt)) if kind(dt) != 3 else v.astype(dt))
        return name if dt != "bfloat16" else "astype(%s, bfloat16)" % name

    if kind_ == "prod":
        m, n = rng.choice([(64, 1000), (1000, 64), (3, 40000), (40000, 3), (1, 70000), (300, 300), (8, 4097)])
        axis = rng.choice([0, 1, -1])
        keep = rng.random() < .3
        x = big_values(rng, dt, (m, n), True)
        ax = axis % 2
        out_shape = (n,) if ax == 0 else (m,)
        if keep:
            out_shape = (1, n) if ax == 0 else (m, 1)
        seed = big_values(rng, dt, out_shape, False)
        xs, ss = bind("x0", x), bind("seed", seed)
        expr = "vjp(lambda x: prod(x, axis=%d%s), %s, seed=%s)" % (axis, ", keepdims=True" if keep else "", xs, ss)
        e = exclusive_prod(torch.from_numpy(x), [ax])
        sd = torch.from_numpy(seed)
        if not keep:
            sd = sd.unsqueeze(ax)
        g = sd * (e.conj() if e.is_complex() else e)
        wants = [rnd(g, dt)]
        scale = 4.0
    elif kind_ == "mul":
        m, n = rng.choice([(1000, 300), (300, 1000), (4096, 64), (64, 4096), (20000, 7)])
        bshape = rng.choice([(n,), (1, n), (m, 1)])
        a = big_values(rng, dt, (m, n), False)
        b = big_values(rng, dt, bshape, False)
        seed = big_values(rng, dt, (m, n), False)
        expr = "vjp(lambda a, b: a * b, %s, %s, seed=%s)" % (bind("x0", a), bind("x1", b), bind("seed", seed))
        ta, tb = torch.from_numpy(a).requires_grad_(True), torch.from_numpy(b).requires_grad_(True)
        ga, gb = torch.autograd.grad(ta * tb, [ta, tb], torch.from_numpy(seed))
        wants = [rnd(ga, dt), rnd(gb, dt)]
        scale = 4.0 * math.sqrt(m)
    elif kind_ == "matmul":
        m, k, n = rng.choice([(100, 384, 100), (257, 65, 129), (1, 1000, 300), (300, 1000, 1), (64, 64, 64)])
        a = big_values(rng, dt, (m, k), False)
        b = big_values(rng, dt, (k, n), False)
        seed = big_values(rng, dt, (m, n), False)
        a[~np.isfinite(a)] = 1
        b[~np.isfinite(b)] = 1
        seed[~np.isfinite(seed)] = 1
        expr = "vjp(lambda a, b: a @ b, %s, %s, seed=%s)" % (bind("x0", a), bind("x1", b), bind("seed", seed))
        ta, tb = torch.from_numpy(a).requires_grad_(True), torch.from_numpy(b).requires_grad_(True)
        ga, gb = torch.autograd.grad(ta @ tb, [ta, tb], torch.from_numpy(seed))
        wants = [rnd(ga, dt), rnd(gb, dt)]
        scale = 4.0 * math.sqrt(max(m, k, n))
    else:
        m, n = rng.choice([(1000, 300), (64, 4096), (20000, 7)])
        axis = rng.choice([0, 1])
        x = big_values(rng, dt, (m, n), False)
        seed = big_values(rng, dt, (n,) if axis == 0 else (m,), False)
        expr = "vjp(lambda x: (x * x).sum(axis=%d), %s, seed=%s)" % (axis, bind("x0", x), bind("seed", seed))
        tx = torch.from_numpy(x).requires_grad_(True)
        g, = torch.autograd.grad((tx * tx).sum(axis), [tx], torch.from_numpy(seed))
        wants = [rnd(g, dt)]
        scale = 4.0
    check_outputs(runner, expr, files, wants, [dt] * len(wants), scale, stats, "big/%s/%s" % (kind_, dt))


def replace_name(src, name, new):
    out, i = [], 0
    while i < len(src):
        if src.startswith(name, i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")) and \
                (i + len(name) == len(src) or not (src[i + len(name)].isalnum() or src[i + len(name)] == "_")):
            out.append(new)
            i += len(name)
        else:
            out.append(src[i])
            i += 1
    return "".join(out)


ERRORS = [
    # (expression, op names any of which the message must start with)
    ("ones((2, 3)) * ones((3, 2))", ["mul"]),
    ("add(ones((2, 3)), ones((4,)))", ["add"]),
    ("ones((0,)) - ones((2,))", ["sub"]),
    ("ones((2, 3)) @ ones((2, 3))", ["matmul"]),
    ("matmul(ones(()), ones((2,)))", ["matmul"]),
    ("ones((2, 3, 4)) @ ones((3, 4, 5))", ["matmul"]),
    ("ones((3,)) @ ones((4,))", ["matmul"]),
    ("prod(ones((2, 3)), axis=2)", ["prod"]),
    ("prod(ones((2, 3)), axis=(0, -2))", ["prod"]),
    ("sum(ones((2, 3)), axis=-3)", ["sum"]),
    ("sum(ones(()), axis=0)", ["sum"]),
    ("reshape(ones((2, 3)), (4, 2))", ["reshape"]),
    ("broadcast_to(ones((2, 3)), (3, 3))", ["broadcast_to"]),
    ("squeeze(ones((2, 3)), 0)", ["squeeze"]),
    ("permute(ones((2, 3)), (0, 0))", ["permute", "transpose"]),
    ("tensor([True]) - tensor([False])", ["sub"]),
    ("-tensor([True])", ["neg"]),
    ("tensor([1, 2], dtype=uint8) * -1", ["mul"]),
    ("tensor([1, 2], dtype=int8) * 300", ["mul"]),
    ("ones((3,))[::0]", ["index", "slice"]),
    ("ones((3,))[3]", ["index", "slice"]),
    ("grad(lambda x: x * 2, ones((2,)))", ["grad"]),
    ("grad(lambda x: (x * 1j).sum(), ones((2,)))", ["grad"]),
    ("vjp(lambda x: x * 2, tensor([1, 2]), seed=ones((2,)))", ["vjp"]),
    ("vjp(lambda x: x * 2, ones((2,)), seed=ones((3,)))", ["vjp"]),
    ("vjp(lambda x: x * 2, ones((2,)), seed=ones((2,)) * 1j)", ["vjp"]),
    ("vjp(lambda x: x * 1j, ones((2,)), seed=ones((2,)))", ["vjp"]),
    ("vjp(lambda x, y: (x * y, x), ones((2,)), ones((2,)), seed=ones((2,)))", ["vjp"]),
    ("vjp(lambda x: x @ ones((3, 2)), ones((2,)), seed=ones((2,)))", ["matmul"]),
    ("prod(to_sparse_csr(ones((2, 2))))", ["prod"]),
    ("to_sparse_coo(ones((2, 2, 2)))", ["to_sparse_coo"]),
    ("to_sparse_csr(ones((2, 2))) * ones((3, 2))", ["mul"]),
    ("tensor([1], dtype=uint64) * tensor([1], dtype=int8)", ["mul"]),
    ("astype(ones((2,)), float8)", None),
]


def random_error_case(rng):
    """A random shape error: operands that do not broadcast or multiply, axes out of range."""
    kind_ = rng.choice(["bin", "matmul", "axis", "reshape", "squeeze", "grad-shape"])
    d = rng.choice(["float32", "float64", "complex64", "int32", "float16"])
    if kind_ == "bin":
        n = rng.randint(2, 4)
        m = rng.choice([x for x in range(0, 6) if x not in (1, n)])
        a = [rng.randint(1, 3) for _ in range(rng.randint(0, 2))] + [n]
        b = [m]
        op = rng.choice(["mul", "add", "sub"])
        return "%s(ones(%s, dtype=%s), ones(%s))" % (op, tup(a), d, tup(b)), [op]
    if kind_ == "matmul":
        k = rng.randint(1, 4)
        k2 = rng.choice([x for x in range(0, 6) if x != k])
        a = [rng.randint(1, 3)] * rng.randint(0, 2) + [rng.randint(1, 3), k]
        b = [k2, rng.randint(1, 3)] if rng.random() < .7 else [k2]
        return "matmul(ones(%s, dtype=%s), ones(%s))" % (tup(a), d, tup(b)), ["matmul"]
    if kind_ == "axis":
        nd = rng.randint(0, 3)
        ax = rng.choice([nd, -nd - 1, nd + 2])
        op = rng.choice(["prod", "sum"])
        return "%s(ones(%s, dtype=%s), axis=%d)" % (op, tup([2] * nd) if nd else "()", d, ax), [op]
    if kind_ == "reshape":
        return "reshape(ones((2, 3), dtype=%s), (%d, %d))" % (d, rng.choice([4, 5, 7]), rng.choice([1, 2])), ["reshape"]
    if kind_ == "squeeze":
        return "squeeze(ones((2, 3), dtype=%s), %d)" % (d, rng.choice([0, 1, -1])), ["squeeze"]
    n = rng.randint(1, 4)
    return "vjp(lambda x: x * 2., ones((%d,)), seed=ones((%d,)))" % (n, n + 1), ["vjp"]


def error_case(rng, runner, stats, fixed=None):
    expr, ops = fixed or random_error_case(rng)
    rc, so, se = runner.query(expr, {})
    stats.cases += 1
    stats.count("err")
    lines = se.strip().splitlines()
    label = "err"
    if ops is None:
        if rc != 2:
            return fail(stats, label, expr, {}, "exit %d, want 2 (usage): %s" % (rc, se.strip()))
        return True
    if rc != 1:
        return fail(stats, label, expr, {}, "exit %d, want 1: %s %s" % (rc, so, se.strip()))
    if len(lines) != 1 or not any(lines[0].startswith("tensor: %s:" % op) for op in ops):
        return fail(stats, label, expr, {}, "message %r does not name %s" % (se.strip(), "/".join(ops)))
    return True


def golden_cases():
    """Regression cases for what the checker found, their answers computed here by PyTorch, for
    cmd/tensor/internal/expr's TestDiffcheckGolden (so that CI needs no Python)."""
    cases = []
    # An uncoalesced COO operand (a position stored twice, as scipy.sparse.coo_matrix keeps it):
    # PyTorch's gradient is coalesced, the dense gradient sampled once per position.
    rows, cols = [0, 1, 1, 2, 0, 2], [1, 0, 2, 2, 1, 0]
    vals = [1.0, 2.0, 3.0, 4.0, 5.0, -1.0]
    b = torch.arange(6.0).reshape(3, 2) - 2
    seed = torch.tensor([[1.0, -1.0], [0.5, 2.0], [3.0, 0.25]])
    s = torch.sparse_coo_tensor(torch.tensor([rows, cols]), torch.tensor(vals), (3, 3)).requires_grad_(True)
    bt = b.clone().requires_grad_(True)
    gs, gb = torch.autograd.grad(torch.sparse.mm(s, bt), [s, bt], seed)
    coo = {"rows": rows, "cols": cols, "values": vals, "shape": [3, 3]}
    cases.append({"expr": "vjp(lambda s, b: s @ b, S, B, seed=SEED)",
                  "sparse": {"S": coo}, "dense": {"B": flat_of(b), "SEED": flat_of(seed)},
                  "grads": [flat_of(gs.to_dense()), flat_of(gb)], "nnz": [gs.coalesce()._nnz(), None]})
    s2 = torch.sparse_coo_tensor(torch.tensor([rows, cols]), torch.tensor(vals), (3, 3)).requires_grad_(True)
    g2, = torch.autograd.grad(torch.sparse.mm(s2, s2.to_dense()), [s2], seed.matmul(torch.ones(2, 3)))
    cases.append({"expr": "vjp(lambda s: s @ to_dense(s), S, seed=SEED @ ones((2, 3), dtype=float64))",
                  "sparse": {"S": coo}, "dense": {"SEED": flat_of(seed)},
                  "grads": [flat_of(g2.to_dense())], "nnz": [g2.coalesce()._nnz()]})
    return cases


def flat_of(t):
    t = t.detach().to(torch.float64)
    return {"shape": list(t.shape), "data": [float(v) for v in t.reshape(-1).tolist()]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default=None, help="the tensor binary (default: go build ./cmd/tensor)")
    ap.add_argument("--mode", default="all", choices=["all", "fwd", "grad", "err", "big"])
    ap.add_argument("--keep", default=None, help="keep the case files of failures in this directory")
    ap.add_argument("--golden", default=None, help="write the regression cases' JSON to this file and stop")
    args = ap.parse_args()
    if args.golden:
        with open(args.golden, "w") as f:
            json.dump({"generator": "testdata/diffcheck.py --golden", "torch": torch.__version__,
                       "cases": golden_cases()}, f, separators=(",", ":"))
            f.write("\n")
        return
    binary = args.bin
    if binary is None:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        binary = os.path.join(tempfile.mkdtemp(prefix="diffcheck-bin"), "tensor")
        subprocess.run(["go", "build", "-o", binary, "./cmd/tensor"], cwd=root, check=True)
    runner = Runner(binary, args.keep)
    KEEP[0] = args.keep
    stats = Stats()
    rng = random.Random(args.seed)
    torch.manual_seed(args.seed)
    if args.mode in ("all", "err"):
        for c in ERRORS:
            error_case(rng, runner, stats, c)
    done = 0
    while done < args.cases:
        r = rng.random()
        try:
            if args.mode == "big" or (args.mode == "all" and r < .03):
                big_case(rng, runner, stats)
            elif args.mode == "fwd" or (args.mode == "all" and r < .45):
                forward_case(rng, runner, stats)
            elif args.mode == "grad" or (args.mode == "all" and r < .9):
                grad_case(rng, runner, stats)
            else:
                error_case(rng, runner, stats)
        except (RuntimeError, ValueError, OverflowError) as ex:
            # a reference that cannot be formed (PyTorch lacks an op for a dtype): not a case
            if os.environ.get("DIFFCHECK_DEBUG"):
                print("skip: %s" % ex)
        done += 1
    print("%d cases, %d CLI runs, %d failures %s" % (stats.cases, runner.runs, stats.fails, json.dumps(stats.by_class)))
    print("cases by class: %s" % json.dumps(dict(sorted(stats.ran.items()))))
    shutil.rmtree(runner.dir, ignore_errors=True)
    sys.exit(1 if stats.fails else 0)


if __name__ == "__main__":
    main()
