#!/usr/bin/python3
"""Runs a workloads file (default bench/sweep.json) through `tensor bench` and bench/peers.py, in
alternating rounds, and prints each workload's ratio: the faster peer's seconds over ours (above 1
means the library is faster).

    python3 bench/sweep.py [--workloads FILE] [--rounds N] [--threads N] [--budget SECONDS]
                           [--kernels avx512|avx2|generic] [--machine avx2] [--markdown] [FILTER ...]

The machine is shared and noisy, so each side runs --rounds times (default 2), one after the other,
and the best (smallest) seconds of each side and library is kept. --kernels sets TENSOR_KERNELS for
the Go side (the peers keep their own kernels). --machine avx2 stands in for an AVX2-only machine on an
AVX-512 one: our AVX2 set is forced and the peers are held to AVX2 too (OpenBLAS's Haswell kernels,
NumPy's and PyTorch's AVX2 loops, oneDNN's AVX2 ISA), so a GEMM is not our AVX2 against their AVX-512.
The table's last line counts the workloads below 1.
Run it from anywhere inside the repository; it builds the CLI once into a temporary directory.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def parse_args():
    p = argparse.ArgumentParser(description="ratios of the faster peer's time to tensor's, per workload")
    p.add_argument("--workloads", default=os.path.join(HERE, "sweep.json"))
    p.add_argument("--rounds", type=int, default=2, help="alternating runs of each side; the best is kept")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--budget", type=float, default=0.9, help="seconds per workload and library, as both runners take it")
    p.add_argument("--kernels", help="TENSOR_KERNELS for the Go side")
    p.add_argument("--machine", choices=["avx2"], help="hold both sides to this ISA (see above)")
    p.add_argument("--markdown", action="store_true", help="print a Markdown table")
    p.add_argument("filters", nargs="*", help="run workloads whose name contains one of these")
    return p.parse_args()


def lines_of(cmd, env=None):
    """The JSON objects a runner prints, one per line; other lines go to stderr."""
    out = subprocess.run(cmd, env=env, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            print(line, file=sys.stderr)


def numpy_avx512_features():
    """The AVX-512 groups this NumPy dispatches to; NPY_DISABLE_CPU_FEATURES turns them off."""
    probe = "from numpy.core._multiarray_umath import __cpu_dispatch__ as d; print(' '.join(d))"
    try:
        out = subprocess.run([sys.executable, "-c", probe], check=True, stdout=subprocess.PIPE, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return ""
    return " ".join(f for f in out.split() if f.startswith("AVX512"))


def peer_env(machine):
    """The peers' environment: their own kernels, or held to the ISA --machine names."""
    env = dict(os.environ)
    if machine == "avx2":
        env.update(OPENBLAS_CORETYPE="Haswell", ATEN_CPU_CAPABILITY="avx2", ONEDNN_MAX_CPU_ISA="AVX2",
                   MKL_ENABLE_INSTRUCTIONS="AVX2", NPY_DISABLE_CPU_FEATURES=numpy_avx512_features())
    return env


def keep_best(best, rec):
    if "seconds" in rec:
        key = (rec["name"], rec["lib"])
        best[key] = min(best.get(key, float("inf")), rec["seconds"])
        if rec["lib"] == "tensor":
            best[("kernels", rec["name"])] = rec.get("kernels", "?")
    else:
        best.setdefault((rec["name"], rec["lib"]), None)  # the error line: this peer cannot run it


def main():
    args = parse_args()
    with open(args.workloads) as f:
        names = [w["name"] for w in json.load(f)["workloads"]
                 if not args.filters or any(s in w["name"] for s in args.filters)]
    common = ["--workloads", os.path.abspath(args.workloads), "--threads", str(args.threads),
              "--budget", str(args.budget), *args.filters]
    env = dict(os.environ)
    if args.machine:
        env["TENSOR_KERNELS"] = args.machine
    if args.kernels:
        env["TENSOR_KERNELS"] = args.kernels
    peers_env = peer_env(args.machine)
    best = {}
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "tensor")
        subprocess.run(["go", "build", "-o", binary, "./cmd/tensor"], cwd=ROOT, check=True)
        for _ in range(args.rounds):
            for rec in lines_of([binary, "bench", *common], env):
                keep_best(best, rec)
            for rec in lines_of([sys.executable, os.path.join(HERE, "peers.py"), *common], peers_env):
                keep_best(best, rec)
    report(args, names, best)


def fmt_s(s):
    return "-" if s is None else "%.3g" % s


def report(args, names, best):
    rows, losses = [], 0
    for name in names:
        ours = best.get((name, "tensor"))
        peers = {lib: best.get((name, lib)) for lib in ("numpy", "scipy", "torch") if (name, lib) in best}
        times = [s for s in peers.values() if s is not None]
        ratio = min(times) / ours if ours and times else None
        losses += ratio is not None and ratio < 1
        faster = min((lib for lib in peers if peers[lib] is not None), key=lambda l: peers[l], default="-")
        rows.append((name, fmt_s(ours), fmt_s(peers.get("numpy", peers.get("scipy"))), fmt_s(peers.get("torch")),
                     faster, "-" if ratio is None else "%.2f" % ratio, best.get(("kernels", name), "?")))
    head = ("workload", "tensor s", "numpy s", "torch s", "faster peer", "ratio", "kernels")
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
        for r in [head] + rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    held = "; peers held to %s" % args.machine if args.machine else ""
    print("\n%d of %d workloads below 1.0 (ratio = the faster peer's seconds / tensor's; %d threads, %d rounds%s)"
          % (losses, len(rows), args.threads, args.rounds, held))


if __name__ == "__main__":
    main()
