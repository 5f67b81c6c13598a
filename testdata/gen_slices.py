#!/usr/bin/python3
"""Generate slice_golden.json: which positions Python's slices select.

Each case is [n, start, stop, step, positions] with null for an omitted
bound or step; positions is list(range(n))[start:stop:step]. The Go test
checks Range.resolve (via Tensor.Slice) against every case.
"""
import json
import os

bounds = [None, -7, -6, -5, -3, -1, 0, 1, 2, 4, 5, 6, 7]
steps = [None, -3, -2, -1, 1, 2, 3]
cases = []
for n in range(0, 7):
    for start in bounds:
        for stop in bounds:
            for step in steps:
                cases.append([n, start, stop, step, list(range(n))[start:stop:step]])
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "slice_golden.json")
with open(out, "w") as f:
    json.dump(cases, f, separators=(",", ":"))
    f.write("\n")
print(len(cases), "cases written to", out)
