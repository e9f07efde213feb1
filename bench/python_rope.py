#!/usr/bin/python3
"""Reference timings for bench/bench_rope.js: RoPE applied to a [1, heads, length, dim] float32
tensor by the PyTorch code transformers uses, single-threaded.

    /usr/bin/python3 bench/python_rope.py [--heads 32] [--length 4096] [--dim 128] [--repeats 30]

Prints one JSON object on stdout. Times are wall-clock milliseconds (time.perf_counter), one
warm-up call, then `repeats` calls. Exits 0 with {"skipped": "..."} when numpy or torch is missing.

  torch_apply     q * cos + rotate_half(q) * sin with cos, sin [length, dim] precomputed
                  (HF apply_rotary_pos_emb, GPT-NeoX / Llama pairing)
  torch_full      the same plus the cos/sin of that call: positions x inv_freq, cat, cos, sin
                  (HF LlamaRotaryEmbedding.forward + apply_rotary_pos_emb)
  torch_gptj      GPT-J's interleaved form: q * cos + rotate_every_two(q) * sin, cos/sin
                  repeat_interleave'd [length, dim], precomputed

Accuracy: max abs error of each output against a float64 evaluation of the same rotation
(tests/fixtures/ref_rope.py) on the same float32 input.
"""

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
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
import ref_rope as ref  # noqa: E402


# --- the transformers code paths, float32 ------------------------------------------------------

def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def rotate_every_two(x):
    x1 = x[..., ::2]
    x2 = x[..., 1::2]
    return torch.stack((-x2, x1), dim=-1).flatten(-2)


def cos_sin_half(length, dim, base):
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    freqs = torch.arange(length).float()[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin(), inv_freq


def torch_apply(q, cos, sin):
    return (q * cos) + (rotate_half(q) * sin)


def torch_full(q, inv_freq, positions):
    freqs = positions[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    return (q * emb.cos()) + (rotate_half(q) * emb.sin())


def torch_gptj(q, cos, sin):
    return (q * cos) + (rotate_every_two(q) * sin)


def time_ms(fn, repeats):
    fn()
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return {"median": round(statistics.median(ts), 4), "min": round(min(ts), 4)}


def main():
    ap = argparse.ArgumentParser(description="Single-threaded PyTorch RoPE application timings")
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--length", type=int, default=4096)
    ap.add_argument("--dim", type=int, default=128)
    ap.add_argument("--base", type=float, default=10000.0)
    ap.add_argument("--repeats", type=int, default=30)
    a = ap.parse_args()
    if a.heads < 1 or a.length < 1 or a.dim < 2 or a.dim % 2 or a.repeats < 1:
        ap.error("need heads, length, repeats >= 1 and an even dim >= 2")

    torch.set_num_threads(1)
    H, L, D = a.heads, a.length, a.dim
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, H, L, D)).astype(np.float32)
    q = torch.from_numpy(x)
    cos, sin, inv_freq = cos_sin_half(L, D, a.base)
    positions = torch.arange(L).float()
    cos_j = torch.repeat_interleave(cos[:, : D // 2], 2, dim=-1)
    sin_j = torch.repeat_interleave(sin[:, : D // 2], 2, dim=-1)

    # Accuracy against the float64 reference rotation of the same input.
    def err(out, layout):
        exact = ref.apply(ref.full_spec(L, D, a.base, layout), x[0])
        return float(np.max(np.abs(out[0].numpy().astype(np.float64) - exact)))

    result = {
        "torch_version": torch.__version__,
        "numpy_version": np.__version__,
        "python": sys.version.split()[0],
        "threads": torch.get_num_threads(),
        "shape": [1, H, L, D],
        "repeats": a.repeats,
        "torch_apply_ms": time_ms(lambda: torch_apply(q, cos, sin), a.repeats),
        "torch_full_ms": time_ms(lambda: torch_full(q, inv_freq, positions), a.repeats),
        "torch_gptj_ms": time_ms(lambda: torch_gptj(q, cos_j, sin_j), a.repeats),
        "torch_apply_max_abs_err": err(torch_apply(q, cos, sin), "half"),
        "torch_full_max_abs_err": err(torch_full(q, inv_freq, positions), "half"),
        "torch_gptj_max_abs_err": err(torch_gptj(q, cos_j, sin_j), "interleaved"),
    }
    emit(result)


if __name__ == "__main__":
    main()
