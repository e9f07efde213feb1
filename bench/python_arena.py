#!/usr/bin/python3
"""Reference timings for bench/arena.js: one training step of the arena's default model
(docs/reference.md#arena: 2 layers, d_model 32, 4 heads, MLP 128, 18-token vocabulary,
copy at length 16 as a causal decoder, T = 33, batch 32, RoPE) in PyTorch float32, single-threaded.

    /usr/bin/python3 bench/python_arena.py [--batch 32] [--train_length 16] [--repeats 30]

Prints one JSON object on stdout. Times are wall-clock milliseconds (time.perf_counter), one
warm-up call, then `repeats` calls. Exits 0 with {"skipped": "..."} when numpy or torch is missing.

  torch_step   zero_grad, forward (the model as a PyTorch user writes it: nn.Linear, F.layer_norm,
               rotate_half RoPE on q and k, masked softmax attention, gelu tanh, cross-entropy on
               the y positions), backward, torch.optim.AdamW(betas (0.9, 0.95), eps 1e-8).step()
               on a fresh batch each call (its generation included, as in the WASM engine)
"""

import math

import harness  # first: single-threaded numpy / BLAS

np, torch = harness.require_numpy_torch()
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402


class Block(nn.Module):
    def __init__(self, C, H):
        super().__init__()
        self.H = H
        self.ln1, self.ln2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.qkv, self.proj = nn.Linear(C, 3 * C), nn.Linear(C, C)
        self.fc, self.fcproj = nn.Linear(C, 4 * C), nn.Linear(4 * C, C)

    def forward(self, x, cos, sin, mask):
        B, T, C = x.shape
        hs = C // self.H
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.H, hs).transpose(1, 2) for t in (q, k, v))
        q = q * cos + harness.rotate_half(q) * sin
        k = k * cos + harness.rotate_half(k) * sin
        att = (q @ k.transpose(-2, -1)) / math.sqrt(hs)
        att = torch.softmax(att.masked_fill(mask, float("-inf")), dim=-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(B, T, C))
        return x + self.fcproj(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class Model(nn.Module):
    def __init__(self, V, C, H, L):
        super().__init__()
        self.wte = nn.Embedding(V, C)
        self.blocks = nn.ModuleList(Block(C, H) for _ in range(L))
        self.lnf, self.head = nn.LayerNorm(C), nn.Linear(C, V)

    def forward(self, tokens, cos, sin, mask):
        x = self.wte(tokens)
        for b in self.blocks:
            x = b(x, cos, sin, mask)
        return self.head(self.lnf(x))


def main():
    a = harness.parse_args("Single-threaded PyTorch training step of the arena's default model",
                           batch=32, train_length=16, symbols=16, d_model=32, heads=4, layers=2, repeats=30)
    torch.manual_seed(0)
    n, B, C, H = a.train_length, a.batch, a.d_model, a.heads
    V, T, hs = a.symbols + 2, 2 * n + 1, C // H
    model = Model(V, C, H, a.layers)
    decay = [p for p in model.parameters() if p.dim() == 2]
    rest = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.0}, {"params": rest, "weight_decay": 0.0}],
                            lr=1e-3, betas=(0.9, 0.95), eps=1e-8)
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, hs, 2).float() / hs))
    freqs = torch.arange(T).float()[:, None] * inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()
    mask = torch.ones(T, T, dtype=torch.bool).triu(1)
    gen = torch.Generator().manual_seed(1)

    def step():
        x = torch.randint(2, V, (B, n), generator=gen)
        seq = torch.cat([torch.zeros(B, 1, dtype=torch.long), x, torch.ones(B, 1, dtype=torch.long), x], dim=1)
        tokens, targets = seq[:, :T], seq[:, 1:].clone()
        targets[:, :n] = -100
        logits = model(tokens, cos, sin, mask)
        loss = F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1), ignore_index=-100)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss.item()

    first = step()
    result = {
        **harness.versions(np, torch, a.repeats),
        "model": {"layers": a.layers, "d_model": C, "heads": H, "vocab": V, "T": T, "batch": B},
        "first_loss": first,
        "torch_step_ms": harness.time_ms(step, a.repeats),
    }
    harness.emit(result)


if __name__ == "__main__":
    main()
