"""PE Lab figures in Jupyter notebooks: live ``<pe-plot>`` heatmaps and curves, offline.

    import pe_lab
    pe_lab.plot(kind="rope", dim=64, rope_scaling={"rope_type": "yarn", "factor": 4,
                "original_max_position_embeddings": 64}, view="heatmap")
    pe_lab.show(model.transformer.wpe.weight, kind="table")            # your own tensor
    pe_lab.show(attn[0], kind="attention", labels=tokens)              # [heads, query, key]

Each call returns a Figure, whose rich display (Jupyter Notebook, JupyterLab, VS Code, and the
HTML of ``jupyter nbconvert --to html``) is PE Lab's web component: the same WebAssembly kernels,
heatmap, colour bar, read-outs, curves and downloads as the explorer, computed in the reader's
browser. Nothing is fetched: the component and its WebAssembly module travel inside the first
figure's output of the notebook (about 540 kB, once per kernel session); later figures carry only
their own element (a spec is a few hundred bytes; a tensor is its .npy bytes in base64).

If the cell whose output carries the component is cleared, call ``pe_lab.init()`` in a cell above
the figures (it shows the component's loader again). JupyterLab runs the outputs' scripts only in
a trusted notebook (outputs made in this session are trusted; "Trust Notebook" for others).
"""
import base64
import html
import io
import json
import numbers
import re
from importlib import resources

__version__ = "0.1.0"
__all__ = ["Figure", "plot", "show", "init", "loader_html"]

# The display attributes of <pe-plot> (web/share/pe-plot.js); every other keyword is a spec field.
_DISPLAY = ("view", "colormap", "head", "transform", "lang", "theme")
_MATRIX_KINDS = ("table", "attention")

_sent = False  # this kernel session already sent the component (in an earlier output)


def _static(name):
    return resources.files(__name__).joinpath("static", name).read_bytes()


def loader_html():
    """The component and its WebAssembly module as HTML: the module as an inert base64 data block
    (read by the component, web/share/page.js inlineWasm) and the bundled component as an inline
    module script. Defines <pe-plot> once per page, however many times it is included."""
    js = _static("pe-plot.js").decode("utf-8")
    # An inline script ends at the first "</script": keep any inside the code from ending it.
    js = re.sub(r"</(script)", r"<\\/\1", js, flags=re.IGNORECASE)
    wasm = base64.b64encode(_static("pe_simd.wasm")).decode("ascii")
    return (
        f'<script type="application/wasm" id="pe-wasm-simd">{wasm}</script>\n'
        f'<script type="module">\n{js}\n</script>\n'
    )


class _Loader:
    """The component's loader as a display object (pe_lab.init())."""

    def _repr_html_(self):
        global _sent
        _sent = True
        return loader_html() + '<div style="font:12px sans-serif;color:#667">PE Lab figures: ready</div>'


def init():
    """Shows the component's loader in this cell's output (figures below it need no other)."""
    return _Loader()


def _attr_value(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return json.dumps(float(value))
    if isinstance(value, str):
        return value
    return json.dumps(value, default=_json_default)


def _json_default(value):
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"pe_lab: {type(value).__name__} is not a JSON value")


class Figure:
    """A PE Lab figure: displays as a live <pe-plot> in a notebook; ``html()`` is its markup,
    ``page()`` a stand-alone HTML page, ``save(path)`` writes that page."""

    def __init__(self, attrs, npy=None, height=None):
        self.attrs = attrs
        self.npy = npy
        self.height = height

    def element(self):
        """The <pe-plot> element alone (the page must load the component: loader_html())."""
        attrs = " ".join(f'{name}="{html.escape(value, quote=True)}"' for name, value in self.attrs)
        style = f' style="--pe-plot-heatmap-height: {int(self.height)}px"' if self.height else ""
        data = ""
        if self.npy is not None:
            data = f'<script type="application/x-npy">{base64.b64encode(self.npy).decode("ascii")}</script>'
        # The text shows only where the component did not load (an untrusted notebook, a page
        # without the loader); once it runs, the element's shadow root replaces it.
        return (f"<pe-plot {attrs}{style}>{data}<span>PE Lab figure: run the notebook (or trust it) "
                f"to draw it; pe_lab.init() reloads the component.</span></pe-plot>")

    def html(self):
        return self.element()

    def _repr_html_(self):
        global _sent
        head = "" if _sent else loader_html()
        _sent = True
        return head + self.element()

    def page(self, title="PE Lab figure"):
        """A stand-alone HTML page with this figure (opens from disk, no network)."""
        return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
                f"</head><body>\n{loader_html()}{self.element()}\n</body></html>\n")

    def save(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.page())
        return path

    def __repr__(self):
        return f"<pe_lab.Figure {' '.join(f'{k}={v!r}' for k, v in self.attrs)}>"


def _display_attrs(view, colormap, head, transform, lang, theme, cols, rows, downloads):
    attrs = []
    for name, value in zip(_DISPLAY, (view, colormap, head, transform, lang, theme)):
        if value is not None:
            attrs.append((name, _attr_value(value)))
    for name, value in (("cols", cols), ("rows", rows)):
        if value is not None:
            attrs.append((name, ",".join(str(int(v)) for v in value) if not isinstance(value, str) else value))
    if downloads:
        attrs.append(("downloads", ""))
    return attrs


def plot(kind, *, view=None, colormap=None, head=None, transform=None, lang=None, theme=None,
         cols=None, rows=None, height=None, downloads=True, **spec):
    """A figure computed from a spec: kind and its fields as keywords (objects as dicts, lists as
    lists), e.g. plot(kind="alibi", length=32, heads=8, head=3, colormap="cividis", lang="ko").
    A bad field shows PE Lab's error message inside the figure."""
    attrs = [("kind", str(kind))]
    for name, value in spec.items():
        attrs.append((name, _attr_value(value)))
    attrs += _display_attrs(view, colormap, head, transform, lang, theme, cols, rows, downloads)
    attrs.append(("link", "none"))
    return Figure(attrs, height=height)


def _as_numpy(array):
    import numpy as np

    if hasattr(array, "detach") and hasattr(array, "cpu"):  # a PyTorch tensor
        tensor = array.detach().cpu()
        if not tensor.is_floating_point() or str(tensor.dtype) in ("torch.bfloat16",):
            tensor = tensor.float()
        array = tensor.numpy()
    out = np.asarray(array)
    if out.dtype.kind == "c":
        raise TypeError("pe_lab.show: complex values cannot be shown; pass .real, .imag or abs()")
    if out.dtype not in (np.float16, np.float32, np.float64):
        out = out.astype(np.float32)
    return np.ascontiguousarray(out)


def show(array, kind="table", *, labels=None, caption=None, view=None, colormap=None, head=None,
         lang=None, theme=None, cols=None, rows=None, height=None, downloads=True):
    """Your own tensor as a PE Lab figure: a NumPy array or a PyTorch tensor.

    kind="table": a 2-D [positions, dim] table (a learned wpe, an embedding).
    kind="attention": weights [query, key] or [heads, query, key] (a leading batch of 1 is
    dropped); labels names the tokens. The values travel as .npy bytes and are read in the
    browser by the same C reader as the explorer's load view."""
    if kind not in _MATRIX_KINDS:
        raise ValueError(f"pe_lab.show: kind must be one of {', '.join(_MATRIX_KINDS)}, got {kind!r}")
    import numpy as np

    data = _as_numpy(array)
    while data.ndim > 3 and data.shape[0] == 1:
        data = data[0]
    heads = None
    if data.ndim == 3 and kind == "attention":
        heads = data.shape[0]
        data = data.reshape(heads * data.shape[1], data.shape[2])
    if data.ndim != 2:
        wanted = "[query, key] or [heads, query, key]" if kind == "attention" else "[positions, dim]"
        raise ValueError(f"pe_lab.show: kind={kind!r} takes a {wanted} array, got shape {tuple(data.shape)}")
    buffer = io.BytesIO()
    np.save(buffer, data, allow_pickle=False)
    attrs = [("matrix", kind)]
    if heads is not None:
        attrs.append(("heads", str(heads)))
    if labels is not None:
        attrs.append(("labels", json.dumps([str(x) for x in labels], ensure_ascii=False)))
    if caption is not None:
        attrs.append(("caption", str(caption)))
    attrs += _display_attrs(view, colormap, head, None, lang, theme, cols, rows, downloads)
    return Figure(attrs, npy=buffer.getvalue(), height=height)
