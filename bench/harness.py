"""Shared pieces of the Python anchors (bench/python_sinusoidal.py, python_rope.py,
python_attention.py): single-thread setup, the command line, NumPy/PyTorch loading with a skipped
reason, the timer and the JSON output the JS side (bench/harness.js runPython) parses.

Import it first: it limits numpy / BLAS to one thread, which must happen before numpy is imported.
"""

import os

# single-threaded numpy / BLAS: must be set before numpy is imported
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures")


def emit(obj):
    """The one JSON object a script prints on stdout."""
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def require_numpy_torch():
    """numpy and torch (torch limited to one thread), with tests/fixtures on sys.path for the
    float64 references; or {"skipped": reason} on stdout and exit 0 when either is missing."""
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
    torch.set_num_threads(1)
    if FIXTURES not in sys.path:
        sys.path.insert(0, FIXTURES)
    return np, torch


def parse_args(description, **defaults):
    """--name VALUE for each keyword, typed like its default. Every integer option (length, heads,
    repeats, rows, ...) must be >= 1, and dim an even number >= 2 (the pairs of sin/cos or of a
    rotation)."""
    ap = argparse.ArgumentParser(description=description)
    for name, default in defaults.items():
        ap.add_argument(f"--{name}", type=type(default), default=default)
    args = ap.parse_args()
    small = [f"--{n}" for n, d in defaults.items() if isinstance(d, int) and getattr(args, n) < 1]
    if small:
        ap.error(f"{', '.join(small)} must be >= 1")
    if "dim" in defaults and (args.dim < 2 or args.dim % 2):
        ap.error("--dim must be an even number >= 2")
    return args


def time_ms(fn, repeats):
    """Wall-clock ms of fn() (time.perf_counter): one warm-up call, then `repeats` timed calls."""
    fn()
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return {"median": round(statistics.median(ts), 4), "min": round(min(ts), 4)}


def versions(np, torch, repeats):
    """What every script reports: library versions, threads, repeats."""
    return {
        "torch_version": torch.__version__,
        "numpy_version": np.__version__,
        "python": sys.version.split()[0],
        "threads": torch.get_num_threads(),
        "repeats": repeats,
    }


def rotate_half(x):
    """transformers' rotate_half (GPT-NeoX / Llama pairing): (x1, x2) -> (-x2, x1)."""
    import torch

    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)
