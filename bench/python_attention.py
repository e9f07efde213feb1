#!/usr/bin/python3
"""Reference timings for bench/attention.js: causal RoPE attention weights of one head,
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

import math

import harness  # first: single-threaded numpy / BLAS
from harness import rotate_half

np, torch = harness.require_numpy_torch()
import ref_attention as ref  # noqa: E402  (tests/fixtures, on sys.path after require_numpy_torch)
import ref_rope  # noqa: E402


def main():
    a = harness.parse_args(
        "Single-threaded PyTorch causal RoPE attention timings",
        length=2048, dim=64, base=10000.0, repeats=10, rows=16)
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
        **harness.versions(np, torch, a.repeats),
        "blas": next((part.split("=", 1)[1] for part in torch.__config__.show().replace(",", " ").split()
                      if part.startswith("BLAS_INFO=")), "unknown"),
        "length": L,
        "dim": D,
        "torch_attention_ms": harness.time_ms(torch_attention, a.repeats),
        "torch_masked_fill_ms": harness.time_ms(torch_masked_fill, a.repeats),
        "torch_max_abs_err": torch_err,
        "rows": rows,
        "reference_rows": [[round(float(v), 17) for v in row] for row in ref_rows],
    }
    harness.emit(result)


if __name__ == "__main__":
    main()
