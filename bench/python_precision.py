#!/usr/bin/python3
"""Reference timing for bench/precision.js: the precision lab's full sweep in PyTorch, single-threaded.

    /usr/bin/python3 bench/python_precision.py [--positions 1048576] [--dim 128] [--base 10000.0] [--repeats 1]

The float32 recipe (transformers' path, c/precision.c) over positions 0 .. positions-1 in chunks of
65536 rows: f = float32(omega), q = float32(p), phi = q * f in float32 (one rounding, as the
contract's exact product rounded once), cos/sin of phi in float64 rounded to float32, the angle
error |atan2(s, c) - p*omega| wrapped into [0, pi] in float64, its max over the pairs per row
(the error curve), and the rows whose cos/sin equal the row before (the collision count).
Prints one JSON object: the time (one warm-up call, then `repeats` calls) and what the JS side
compares: worst error, its position, collisions, the sum of the row errors and 64 sampled rows.
Exits 0 with {"skipped": "..."} when numpy or torch is missing.
"""

import math

import harness  # first: single-threaded numpy / BLAS

np, torch = harness.require_numpy_torch()

CHUNK = 65536


def sweep(positions, dim, base):
    n = dim // 2
    omega = 1.0 / (base ** (torch.arange(n, dtype=torch.float64) * 2.0 / dim))
    f = omega.float()
    rows = torch.empty(positions, dtype=torch.float32)
    collisions = 0
    prev = None
    for start in range(0, positions, CHUNK):
        p = torch.arange(start, min(start + CHUNK, positions), dtype=torch.float64)
        phi = p.float()[:, None] * f[None, :]
        c = torch.cos(phi.double()).float()
        s = torch.sin(phi.double()).float()
        err = torch.remainder(torch.atan2(s.double(), c.double()) - p[:, None] * omega[None, :] + math.pi,
                              2 * math.pi) - math.pi
        rows[start:start + len(p)] = err.abs().amax(dim=1).float()
        if prev is not None:
            c = torch.cat([prev[0], c])
            s = torch.cat([prev[1], s])
        collisions += int(((c[1:] == c[:-1]) & (s[1:] == s[:-1])).all(dim=1).sum())
        prev = (c[-1:], s[-1:])
    return rows, collisions


def main():
    a = harness.parse_args("Single-threaded PyTorch precision sweep", positions=1048576, dim=128, base=10000.0,
                           repeats=1)
    t = harness.time_ms(lambda: sweep(a.positions, a.dim, a.base), a.repeats)
    rows, collisions = sweep(a.positions, a.dim, a.base)
    worst_at = int(rows.argmax())
    sample = [int(round(i * (a.positions - 1) / 63)) for i in range(64)]
    harness.emit({
        **harness.versions(np, torch, a.repeats),
        "torch_sweep_ms": t,
        "worst": float(rows[worst_at]), "worst_at": worst_at, "collisions": collisions,
        "sum": float(rows.double().sum()),
        "sample_positions": sample, "sample_errors": [float(rows[i]) for i in sample],
    })


if __name__ == "__main__":
    main()
