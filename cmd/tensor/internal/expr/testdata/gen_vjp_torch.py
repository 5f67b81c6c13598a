#!/usr/bin/python3
"""Writes vjp_torch.json: random vjp expressions of the command line's language with PyTorch's
gradients, for TestVJPAgainstPyTorch.

    /usr/bin/python3 gen_vjp_torch.py [CASES] [SEED] > vjp_torch.json

Each case is an expression tree over mul/add/sub (operators and torch.* calls), Python numbers,
matmul of every rank case with broadcast batches, prod and sum over one or two dims with and
without keepdim, and views (.T, .mT, permute, transpose, reshape, unsqueeze, squeeze, flatten,
expand, a strided slice, clone, contiguous, conj), with inputs that hold zero, one or two zeros.
About a third of the cases differentiate twice: vjp of the first parameter's gradient. Dtypes are
float64, complex128 and float32. PyTorch's reference is torch.autograd.grad, with zeros where an
input is unused or where the first gradient is a constant (what torch.autograd.functional.vjp
gives). Vector dot products stay real: Debian's PyTorch 1.13 returns 0 for a complex dot.
"""
import json
import random
import sys

import torch

CASES = int(sys.argv[1]) if len(sys.argv) > 1 else 240
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 9)
torch.manual_seed(int(sys.argv[2]) if len(sys.argv) > 2 else 9)


class Expr:
    def __init__(self, src, shape, dot=False):
        self.src, self.shape, self.dot = src, shape, dot


def broadcastable(shape):
    """A shape that broadcasts against shape: a suffix of it with some dims 1."""
    tail = list(shape)[rng.randint(0, len(shape)):]
    return [1 if rng.random() < .3 else d for d in tail]


def leaf(names, shape):
    name = "x%d" % len(names)
    names.append((name, shape))
    return Expr(name, shape)


def binary(names, shape, depth):
    op = rng.choice(["*", "+", "-", "torch.mul", "torch.add", "torch.sub"])
    a, b = gen(names, shape, depth - 1), gen(names, broadcastable(shape), depth - 1)
    if rng.random() < .5:
        a, b = b, a
    src = "(%s %s %s)" % (a.src, op, b.src) if len(op) == 1 else "%s(%s, %s)" % (op, a.src, b.src)
    return Expr(src, shape, a.dot or b.dot)


def scalar(names, shape, depth):
    a = gen(names, shape, depth - 1)
    c = rng.choice(["2", "0.5", "-1.5", "3"])
    form = rng.choice(["(%s * %s)", "(%s - %s)", "(%s + %s)"])
    return Expr(form % ((a.src, c) if rng.random() < .5 else (c, a.src)), shape, a.dot)


def matmul(names, shape, depth):
    k = rng.randint(1, 4)
    if not shape:
        a, b = gen(names, [k], depth - 1), gen(names, [k], depth - 1)
        return Expr("torch.matmul(%s, %s)" % (a.src, b.src), shape, True)
    if len(shape) == 1:
        if rng.random() < .5:
            a, b = gen(names, [shape[0], k], depth - 1), gen(names, [k], depth - 1)
        else:
            a, b = gen(names, [k], depth - 1), gen(names, [k, shape[0]], depth - 1)
        return Expr("(%s @ %s)" % (a.src, b.src), shape, a.dot or b.dot)
    batch = shape[:-2]
    ab, bb = broadcastable(batch), broadcastable(batch)
    if batch and rng.random() < .5:
        ab = list(batch)
    else:
        bb = list(batch)
    a = gen(names, ab + [shape[-2], k], depth - 1)
    b = gen(names, bb + [k, shape[-1]], depth - 1)
    return Expr("torch.matmul(%s, %s)" % (a.src, b.src), shape, a.dot or b.dot)


def reduction(names, shape, depth):
    op = rng.choice(["prod", "prod", "sum"])
    if op == "sum" and len(shape) < 3 and rng.random() < .5:
        dims = sorted(rng.sample(range(len(shape) + 2), 2))
        full = list(shape)
        for d in dims:
            full.insert(d, rng.randint(1, 4))
        a = gen(names, full, depth - 1)
        return Expr("torch.sum(%s, dim=(%d, %d))" % (a.src, dims[0], dims[1]), shape, a.dot)
    if rng.random() < .4 and 1 in shape:
        d = shape.index(1)
        full = list(shape)
        full[d] = rng.randint(1, 4)
        a = gen(names, full, depth - 1)
        return Expr("torch.%s(%s, dim=%d, keepdim=True)" % (op, a.src, d), shape, a.dot)
    d = rng.randint(0, len(shape))
    full = list(shape)
    full.insert(d, rng.randint(1, 4))
    a = gen(names, full, depth - 1)
    return Expr("torch.%s(%s, dim=%d)" % (op, a.src, d), shape, a.dot)


def view(names, shape, depth):
    kind = rng.choice(["T", "mT", "permute", "transpose", "reshape", "unsqueeze", "squeeze", "flatten",
                       "expand", "slice", "clone", "conj", "neg"])
    sub = lambda s: gen(names, s, depth - 1)
    if kind == "T" and len(shape) == 2:
        a = sub(shape[::-1]); return Expr("%s.T" % a.src, shape, a.dot)
    if kind == "mT" and len(shape) >= 2:
        a = sub(shape[:-2] + [shape[-1], shape[-2]]); return Expr("%s.mT" % a.src, shape, a.dot)
    if kind == "permute" and len(shape) >= 2:
        perm = list(range(len(shape)))
        rng.shuffle(perm)
        src_shape = [0] * len(shape)
        for i, p in enumerate(perm):
            src_shape[p] = shape[i]
        a = sub(src_shape)
        return Expr("%s.permute(%s)" % (a.src, ", ".join(map(str, perm))), shape, a.dot)
    if kind == "transpose" and len(shape) >= 2:
        a = sub([shape[1], shape[0]] + shape[2:]); return Expr("%s.transpose(0, 1)" % a.src, shape, a.dot)
    if kind == "reshape":
        n = 1
        for d in shape:
            n *= d
        a = sub(rng.choice([[n], [1, n], [n, 1]]))
        return Expr("%s.reshape((%s))" % (a.src, "".join("%d, " % d for d in shape)), shape, a.dot)
    if kind == "unsqueeze" and 1 in shape:
        d = shape.index(1)
        a = sub(shape[:d] + shape[d + 1:]); return Expr("%s.unsqueeze(%d)" % (a.src, d), shape, a.dot)
    if kind == "squeeze":
        d = rng.randint(0, len(shape))
        a = sub(shape[:d] + [1] + shape[d:]); return Expr("%s.squeeze(%d)" % (a.src, d), shape, a.dot)
    if kind == "flatten" and len(shape) == 1:
        a = sub(rng.choice([[1, shape[0]], [shape[0], 1]])); return Expr("torch.flatten(%s)" % a.src, shape, a.dot)
    if kind == "expand" and shape:
        a = sub([1 if rng.random() < .5 else d for d in shape])
        return Expr("%s.expand(%s)" % (a.src, ", ".join(map(str, shape))), shape, a.dot)
    if kind == "slice" and shape:
        a = sub([shape[0] * 2 + 1] + shape[1:]); return Expr("%s[1::2]" % a.src, shape, a.dot)
    if kind == "clone":
        a = sub(shape); return Expr("%s.%s()" % (a.src, rng.choice(["clone", "contiguous"])), shape, a.dot)
    if kind == "conj":
        a = sub(shape); return Expr("torch.conj(%s)" % a.src, shape, a.dot)
    if kind == "neg":
        a = sub(shape); return Expr("(-%s)" % a.src, shape, a.dot)
    return leaf(names, shape)


def gen(names, shape, depth, top=False):
    if depth == 0 or (not top and rng.random() < .25):
        return leaf(names, shape)
    return rng.choice([binary, binary, matmul, reduction, view, view, scalar])(names, shape, depth)


def flat(t):
    t = t.detach().resolve_conj().contiguous().reshape(-1)
    if t.is_complex():
        return [[float(z.real), float(z.imag)] for z in t.tolist()]
    return [float(v) for v in t.tolist()]


def tensor_json(t):
    return {"dtype": str(t.dtype).removeprefix("torch."), "shape": list(t.shape), "data": flat(t)}


def random_like(shape, dtype):
    return torch.randn(*shape, dtype=dtype) if shape else torch.randn((), dtype=dtype)


def case():
    names = []
    e = gen(names, [rng.randint(1, 4) for _ in range(rng.randint(0, 3))], rng.randint(2, 4), top=True)
    if e.src.startswith("x"):
        return None
    dt = rng.choice([torch.float64, torch.float64, torch.complex128, torch.float32])
    if e.dot and dt.is_complex:
        dt = torch.float64
    values = {}
    for name, shape in names:
        x = random_like(shape, dt)
        for _ in range(rng.choice([0, 0, 1, 2])):
            if x.numel() > 1:
                x.view(-1)[rng.randrange(x.numel())] = 0
        values[name] = x
    tracked = {n: v.clone().requires_grad_(True) for n, v in values.items()}
    params = list(tracked)
    out = eval(e.src, {"torch": torch}, tracked)
    seed = random_like(out.shape, out.dtype)
    names_json = {n: tensor_json(v) for n, v in values.items()}
    names_json["seed"] = tensor_json(seed)
    ps = ", ".join(params)
    expr = "vjp(lambda %s: %s, %s, seed=seed)" % (ps, e.src, ps)
    if rng.random() < .3:
        g1 = torch.autograd.grad(out, [tracked[n] for n in params], seed, allow_unused=True, create_graph=True)[0]
        if g1 is None:
            g1 = torch.zeros_like(tracked[params[0]])
        t = random_like(g1.shape, g1.dtype)
        grads = (torch.autograd.grad(g1, [tracked[n] for n in params], t, allow_unused=True)
                 if g1.requires_grad else [None] * len(params))
        names_json["t"] = tensor_json(t)
        expr = "vjp(lambda %s: %s[0], %s, seed=t)" % (ps, expr, ps)
    else:
        grads = torch.autograd.grad(out, [tracked[n] for n in params], seed, allow_unused=True)
    grads = [torch.zeros_like(values[n]) if g is None else g for n, g in zip(params, grads)]
    return {"expr": expr, "vars": names_json, "grads": [tensor_json(g) for g in grads]}


cases = []
while len(cases) < CASES:
    c = case()
    if c is not None:
        cases.append(c)
json.dump({"generator": "gen_vjp_torch.py", "torch": torch.__version__, "cases": cases}, sys.stdout, separators=(",", ":"))
