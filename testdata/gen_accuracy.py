"""NumPy's float32 prod and sum errors on the accuracy workload of
semantics §11 (issue 18 item 10), for accuracy_test.go.

The data: n values uniform in 1±1e-3, from SplitMix64 (seed s, element i),
u = (z >> 40) / 2^24, x = float32(0.999 + 0.002·u) computed in float64 —
the same arithmetic the Go test does, so both see the same float32 values.
The reference is the float64 product (sum) of the float32 values, whose
own error (n·2^-53 ≈ 2e-9 at 16M) is far below float32's. For each n the
script prints the largest relative error over the seeds of np.prod and
np.sum on the float32 array. Run: python3 testdata/gen_accuracy.py >
testdata/accuracy_numpy.json
"""
import json
import numpy as np

M = np.uint64(0xFFFFFFFFFFFFFFFF)


def data(seed, n):
    i = np.arange(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + i * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    u = (z >> np.uint64(40)).astype(np.float64) / float(1 << 24)
    return (0.999 + 0.002 * u).astype(np.float32)


def main():
    out = {"seeds": 20, "sizes": {}}
    for n in (1_000_000, 16_000_000):
        worst = {"prod": 0.0, "sum": 0.0}
        for seed in range(1, 21):
            x = data(seed, n)
            x64 = x.astype(np.float64)
            ref_p = np.prod(x64)
            ref_s = np.sum(x64)
            ep = abs(float(np.prod(x)) - ref_p) / abs(ref_p)
            es = abs(float(np.sum(x)) - ref_s) / abs(ref_s)
            worst["prod"] = max(worst["prod"], ep)
            worst["sum"] = max(worst["sum"], es)
        out["sizes"][str(n)] = worst
    out["numpy"] = np.__version__
    print(json.dumps(out, indent=1))


main()
