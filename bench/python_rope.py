#!/usr/bin/python3
"""Reference timings for bench/rope.js: RoPE applied to a [1, heads, length, dim] float32
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

import harness  # first: single-threaded numpy / BLAS
from harness import rotate_half

np, torch = harness.require_numpy_torch()
import ref_rope as ref  # noqa: E402  (tests/fixtures, on sys.path after require_numpy_torch)


# --- the transformers code paths, float32 ------------------------------------------------------

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


def main():
    a = harness.parse_args(
        "Single-threaded PyTorch RoPE application timings",
        heads=32, length=4096, dim=128, base=10000.0, repeats=30)
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
        **harness.versions(np, torch, a.repeats),
        "shape": [1, H, L, D],
        "torch_apply_ms": harness.time_ms(lambda: torch_apply(q, cos, sin), a.repeats),
        "torch_full_ms": harness.time_ms(lambda: torch_full(q, inv_freq, positions), a.repeats),
        "torch_gptj_ms": harness.time_ms(lambda: torch_gptj(q, cos_j, sin_j), a.repeats),
        "torch_apply_max_abs_err": err(torch_apply(q, cos, sin), "half"),
        "torch_full_max_abs_err": err(torch_full(q, inv_freq, positions), "half"),
        "torch_gptj_max_abs_err": err(torch_gptj(q, cos_j, sin_j), "interleaved"),
    }
    harness.emit(result)


if __name__ == "__main__":
    main()
