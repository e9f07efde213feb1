#!/usr/bin/python3
"""Reference timings for bench/bench_attention.js: causal RoPE attention weights of one head,
softmax(q kᵀ/√d + mask) with transformers' rotate_half RoPE, in PyTorch float32, single-threaded.

    /usr/bin/python3 bench/python_attention.py [--length 2048] [--dim 64] [--repeats 10] [--rows 16]

Prints one JSON object on stdout. Times are wall-clock milliseconds (time.perf_counter), one
warm-up call, then `repeats` calls. Exits 0 with {"skipped": "..."} when numpy or torch is missing.

The inputs are the kernel's own: q and k of the `attention` kind with content "random", seed 0
(tests/fixtures/ref_attention.py re-implements the generator), so the WASM output can be checked
against them. What is timed, with cos/sin [length, dim] precomputed (as the kernel's tables are):

  torch_attention   q·cos + rotate_half(q)·sin (and k), scores = q kᵀ/√d + mask (−inf above the
                    diagonal, built once), torch.softmax(scores, -1): the HF eager attention path
  torch_masked_fill the same RoPE, then softmax(scores.masked_fill(upper, −inf)) instead of adding a
                    mask tensor (a second common form)

Accuracy: `rows` sampled query rows of the float64 reference (ref_attention.py: the same q, k,
rotated and soft-maxed in float64) are printed, with the float32 PyTorch result's max abs error
against them; the benchmark compares the WASM rows with the same numbers.
"""

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


try:
    import numpy as np
except Exception as e:  # pragma: no cover - depends on the interpreter
    emit({"skipped": f"numpy not available in {sys.executable}: {e}"})
    sys.exit(0)
try:
    import torch
except Exception as e:  # pragma: no cover
    emit({"skipped": f"torch not available in {sys.executable}: {e}"})
    sys.exit(0)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures"))
import ref_attention as ref  # noqa: E402
import ref_rope  # noqa: E402


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def time_ms(fn, repeats):
    fn()
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return {"median": round(statistics.median(ts), 4), "min": round(min(ts), 4)}


def main():
    ap = argparse.ArgumentParser(description="Single-threaded PyTorch causal RoPE attention timings")
    ap.add_argument("--length", type=int, default=2048)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--base", type=float, default=10000.0)
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--rows", type=int, default=16)
    a = ap.parse_args()
    if a.length < 1 or a.dim < 2 or a.dim % 2 or a.repeats < 1 or a.rows < 1:
        ap.error("need length, repeats, rows >= 1 and an even dim >= 2")

    torch.set_num_threads(1)
    L, D = a.length, a.dim
    # The kernel's q and k (content "random", seed 0, one head), before RoPE.
    plain = {"kind": "attention", "length": L, "dim": D, "heads": 1, "content": "random", "seed": 0,
             "encoding": None, "causal": True}
    q64, k64, _ = ref.qk(plain)
    q = torch.from_numpy(q64.astype(np.float32))[None]          # [1, 1, L, D] float32
    k = torch.from_numpy(k64.astype(np.float32))[None]
    rs = ref_rope.full_spec(L, D, a.base)
    c64, s64 = ref_rope.cos_sin(rs)
    cos = torch.from_numpy(np.concatenate([c64, c64], -1).astype(np.float32))
    sin = torch.from_numpy(np.concatenate([s64, s64], -1).astype(np.float32))
    mask = torch.full((L, L), float("-inf")).triu(1)
    scale = 1.0 / math.sqrt(D)

    def torch_attention():
        qr = q * cos + rotate_half(q) * sin
        kr = k * cos + rotate_half(k) * sin
        scores = torch.matmul(qr, kr.transpose(-1, -2)) * scale + mask
        return torch.softmax(scores, dim=-1)

    upper = torch.ones(L, L, dtype=torch.bool).triu(1)

    def torch_masked_fill():
        qr = q * cos + rotate_half(q) * sin
        kr = k * cos + rotate_half(k) * sin
        scores = torch.matmul(qr, kr.transpose(-1, -2)) * scale
        return torch.softmax(scores.masked_fill(upper, float("-inf")), dim=-1)

    # float64 reference rows: the same q, k rotated and soft-maxed in float64.
    rows = sorted(set([0, 1, L // 2, L - 1] + [int(r) for r in np.linspace(0, L - 1, a.rows)]))
    spec = {**plain, "encoding": {"kind": "rope", "base": a.base}}
    qr64, kr64, _ = ref.qk(spec)
    ref_rows = []
    for r in rows:
        s = (qr64[0, r] @ kr64[0, : r + 1].T) / math.sqrt(D)
        w = np.exp(s - s.max())
        w /= w.sum()
        ref_rows.append(np.concatenate([w, np.zeros(L - r - 1)]))
    ref_rows = np.array(ref_rows)
    out = torch_attention()[0, 0].numpy().astype(np.float64)
    torch_err = float(np.abs(out[rows] - ref_rows).max())

    result = {
        "torch_version": torch.__version__,
        "numpy_version": np.__version__,
        "python": sys.version.split()[0],
        "threads": torch.get_num_threads(),
        "blas": next((part.split("=", 1)[1] for part in torch.__config__.show().replace(",", " ").split()
                      if part.startswith("BLAS_INFO=")), "unknown"),
        "length": L,
        "dim": D,
        "repeats": a.repeats,
        "torch_attention_ms": time_ms(torch_attention, a.repeats),
        "torch_masked_fill_ms": time_ms(torch_masked_fill, a.repeats),
        "torch_max_abs_err": torch_err,
        "rows": rows,
        "reference_rows": [[round(float(v), 17) for v in row] for row in ref_rows],
    }
    emit(result)


if __name__ == "__main__":
    main()
