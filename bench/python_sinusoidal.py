#!/usr/bin/python3
"""Reference timings for the benchmark: the two tutorial sinusoidal tables, single-threaded.

    /usr/bin/python3 bench/python_sinusoidal.py [--length 2000] [--dim 1600] [--repeats 15]

Prints one JSON object on stdout (see the keys at the end of main()). Times are wall-clock
milliseconds (time.perf_counter) per full table, one warm-up call first, then `repeats` calls.
Exits 0 with {"skipped": "..."} when numpy or torch cannot be imported.

  torch tutorial  PyTorch "Language Modeling with nn.Transformer" PositionalEncoding, float32.
  numpy tutorial  TensorFlow "Transformer" tutorial get_angles/positional_encoding, float64
                  (numpy's default); a float32 cast variant is reported as an extra.
  + matplotlib    the same table and the tutorial's picture of it (pcolormesh, RdBu, a colour
                  bar), drawn off screen by matplotlib's Agg backend at 700 x 600 pixels, the
                  page's heatmap size: numpy_matplotlib_ms (null when matplotlib is missing;
                  scripts/setup.sh bench installs python3-matplotlib).

Accuracy is the max abs error against a float64 evaluation of the same interleaved table
(tests/fixtures/ref_sinusoidal.py). torch_err_at_1e6 is the torch tutorial code's max abs error on
positions 10^6-16 .. 10^6 at d_model = 64 (rows of a 1_000_001 x 64 table, computed by the same
code with the position vector starting at 10^6-16, which gives the identical float32 values).
"""

import math

import harness  # first: single-threaded numpy / BLAS

np, torch = harness.require_numpy_torch()
import ref_sinusoidal as ref  # noqa: E402  (tests/fixtures, on sys.path after require_numpy_torch)


# --- the tutorial code, as the tutorials write it ------------------------------------------

def torch_tutorial(max_len, d_model):
    """PyTorch tutorial PositionalEncoding.__init__ (float32)."""
    pe = torch.zeros(max_len, d_model)
    position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


def torch_tutorial_positions(start, stop, d_model):
    """The same code with the position vector arange(start, stop): rows start..stop-1 of the
    tutorial's table (arange of small integers is exact in float32 up to 2^24)."""
    pe = torch.zeros(stop - start, d_model)
    position = torch.arange(start, stop, dtype=torch.float).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


def numpy_tutorial(max_len, d_model):
    """TensorFlow transformer tutorial get_angles + positional_encoding (float64 table)."""
    pos = np.arange(max_len)[:, np.newaxis]
    i = np.arange(d_model)[np.newaxis, :]
    angle_rates = 1 / np.power(10000, (2 * (i // 2)) / np.float32(d_model))
    angle_rads = pos * angle_rates
    angle_rads[:, 0::2] = np.sin(angle_rads[:, 0::2])
    angle_rads[:, 1::2] = np.cos(angle_rads[:, 1::2])
    return angle_rads


def numpy_tutorial_f32(max_len, d_model):
    """The same, cast to float32 at the end (what gets handed to a float32 model)."""
    return numpy_tutorial(max_len, d_model).astype(np.float32)


def matplotlib_image(table, width=700, height=600):
    """The TensorFlow tutorial's plot of its table (plt.pcolormesh(pos_encoding, cmap='RdBu'),
    axis labels, plt.colorbar()), drawn to RGBA pixels with the Agg backend instead of shown.
    matplotlib's object API, so no window and no global figure state."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width / 100, height / 100), dpi=100)
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    mesh = ax.pcolormesh(table, cmap="RdBu")
    ax.set_xlabel("Depth")
    ax.set_ylabel("Position")
    fig.colorbar(mesh, ax=ax)
    canvas.draw()
    pixels = np.asarray(canvas.buffer_rgba())
    assert pixels.shape == (height, width, 4)
    return pixels


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


# --- accuracy -------------------------------------------------------------------------------

def max_abs_err(table, exact):
    a = table.detach().numpy() if isinstance(table, torch.Tensor) else np.asarray(table)
    return float(np.max(np.abs(a.astype(np.float64) - exact)))


def main():
    a = harness.parse_args(
        "Single-threaded NumPy/PyTorch tutorial sinusoidal timings",
        length=2000, dim=1600, repeats=15)
    L, D = a.length, a.dim

    exact = ref.sinusoidal(L, D, 10000, "interleaved", 0)
    t_pe = torch_tutorial(L, D)
    n_pe = numpy_tutorial(L, D)
    n_pe32 = numpy_tutorial_f32(L, D)
    assert t_pe.dtype == torch.float32 and n_pe.dtype == np.float64 and n_pe32.dtype == np.float32

    torch_ms = harness.time_ms(lambda: torch_tutorial(L, D), a.repeats)
    numpy_ms = harness.time_ms(lambda: numpy_tutorial(L, D), a.repeats)
    numpy32_ms = harness.time_ms(lambda: numpy_tutorial_f32(L, D), a.repeats)

    # The table and its picture, as the tutorial makes them (a few seconds each: 3 runs).
    image = None
    if have_matplotlib():
        image = harness.time_ms(lambda: matplotlib_image(numpy_tutorial(L, D)), min(a.repeats, 3))

    # positions 10^6-16 .. 10^6 of the d_model = 64 tutorial table
    p0, p1, d_far = 10**6 - 16, 10**6 + 1, 64
    far = torch_tutorial_positions(p0, p1, d_far)
    far_exact = ref.sinusoidal(p1, d_far, 10000, "interleaved", 0, rows=list(range(p0, p1)))

    harness.emit({
        **harness.versions(np, torch, a.repeats),
        "length": L,
        "dim": D,
        "torch_tutorial_ms": torch_ms,
        "numpy_tutorial_ms": numpy_ms,
        "numpy_tutorial_dtype": "float64",
        "numpy_tutorial_f32_ms": numpy32_ms,
        "numpy_matplotlib_ms": image,
        "torch_max_abs_err": max_abs_err(t_pe, exact),
        "numpy_max_abs_err": max_abs_err(n_pe, exact),
        "numpy_f32_max_abs_err": max_abs_err(n_pe32, exact),
        "torch_err_at_1e6": max_abs_err(far, far_exact),
        "torch_err_at_1e6_rows": [p0, p1 - 1],
        "torch_err_at_1e6_dim": d_far,
    })


if __name__ == "__main__":
    main()
