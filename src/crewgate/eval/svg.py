"""A small SVG writer for the missions' plots: elements are appended to a :class:`Svg` and
rendered to one string, byte for byte the same for the same calls.

Bounds, stated once: every text and attribute value is XML-escaped, and characters XML 1.0
forbids (control characters, lone surrogates) are dropped first, so that no record can add
markup; a number must be finite (:func:`num` raises otherwise: the plots clamp or skip non-finite
values before they get here) and is written with at most two decimals; :func:`clip` bounds a
label's length. Text widths are estimated (Arial's metrics), so that layouts can avoid overlaps
without a font engine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

FONT = "Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif"
LIMIT = 1e6  # the largest magnitude of a plotted value: records are data, not trusted numbers
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})
# advance widths in em (Arial); anything else counts as "n"
_WIDTHS = {**dict.fromkeys("ijlI.,:;!|'` ", 0.28), **dict.fromkeys("ftr()[]{}/\\-", 0.36),
           **dict.fromkeys("mwMW@%", 0.86), **dict.fromkeys("ABCDEFGHKNOPQRSTUVXYZ&", 0.68)}


def escape(text: object) -> str:
    """``text`` as XML character data or attribute value: escaped, forbidden characters out."""
    return _FORBIDDEN.sub("", str(text)).translate(_ESCAPES)


def clip(text: object, limit: int) -> str:
    """At most ``limit`` characters, an ellipsis marking a cut; one line."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: max(limit - 1, 0)] + "…"


def num(value: float) -> str:
    """A coordinate or length: finite, two decimals at most, no "-0"."""
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def finite(value: object, limit: float = LIMIT) -> float | None:
    """A number from a record, clamped to +-``limit``; None for anything else (NaN, "nan",
    infinities, booleans, text). JSON records carry NaN as the string "nan"."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except (ValueError, OverflowError):
        return None
    return max(-limit, min(limit, number)) if math.isfinite(number) else None


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """An estimate of the rendered width, a little on the wide side."""
    em = sum(_WIDTHS.get(c, 0.56) for c in text)
    return em * size * (1.12 if bold else 1.05)


def fit(text: str, size: float, width: float, *, bold: bool = False) -> str:
    """``text`` cut (with an ellipsis) to what fits in ``width`` at ``size``."""
    if text_width(text, size, bold=bold) <= width:
        return text
    keep = len(text)
    while keep > 1 and text_width(text[:keep] + "…", size, bold=bold) > width:
        keep = max(1, min(keep - 1, int(keep * 0.9)))
    return text[:keep].rstrip() + "…"


def ticks(lo: float, hi: float, count: int = 8) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten) covering [lo, hi]."""
    span = max(hi - lo, 1e-9)
    raw = span / max(count, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(power * m for m in (1, 2, 5, 10) if power * m >= raw)
    first = math.ceil(lo / step - 1e-9)
    values = [(first + i) * step for i in range(int((hi - lo) / step + 1e-9) + 2)]
    return [round(v, 10) for v in values if lo - 1e-9 <= v <= hi + 1e-9]


def tick_label(value: float, values: list[float]) -> str:
    """A tick's text, with as many decimals as the ticks need (all of them the same)."""
    decimals = next((d for d in range(4) if all(abs(round(v, d) - v) < 1e-9 for v in values)), 3)
    text = f"{value:.{decimals}f}"
    return "0" if float(text) == 0 else text.replace("-", "\u2212")


Attr = str | float | None


class Svg:
    """An SVG document under construction: ``el`` for an empty element, ``text`` for a text,
    ``group`` for a ``<g>`` around the elements added inside it. Attribute names are written
    with "-" for "_" ("stroke_width"), ``cls`` as "class"; None leaves an attribute out."""

    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []

    def el(self, tag: str, body: str = "", /, **attrs: Attr) -> None:
        self.parts.append(f"<{tag}{_attrs(attrs)}" + (f">{body}</{tag}>" if body else "/>"))

    def text(self, x: float, y: float, content: str, /, *, size: float = 12,
             tooltip: str | None = None, halo: bool = False, **attrs: Attr) -> None:
        """``content`` at x, y; with ``halo``, outlined in white (legible over lines)."""
        tip = f"<title>{escape(tooltip)}</title>" if tooltip else ""
        if halo:
            attrs.update(stroke="#ffffff", stroke_width=3, stroke_linejoin="round",
                         paint_order="stroke")
        self.parts.append(f"<text{_attrs({'x': x, 'y': y, 'font_size': size, **attrs})}>"
                          f"{tip}{escape(content)}</text>")

    def polyline(self, points: Iterable[tuple[float, float]], /, **attrs: Attr) -> None:
        coords = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.el("polyline", points=coords, fill="none", **attrs)

    def tooltip(self, text: str) -> None:
        """A ``<title>``: shown on hover where the SVG is opened by itself."""
        self.parts.append(f"<title>{escape(text)}</title>")

    @contextmanager
    def group(self, **attrs: Attr) -> Iterator[None]:
        self.parts.append(f"<g{_attrs(attrs)}>")
        try:
            yield
        finally:
            self.parts.append("</g>")

    def render(self, defs: str = "") -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(self.width)}" '
                f'height="{num(self.height)}" viewBox="0 0 {num(self.width)} '
                f'{num(self.height)}" font-family="{escape(FONT)}">')
        return "\n".join([head, f"<defs>{defs}</defs>" if defs else "",
                          '<rect width="100%" height="100%" fill="#ffffff"/>', *self.parts,
                          "</svg>\n"])

    def save(self, stem: Path, defs: str = "") -> Path:
        """STEM.svg (its folder made first)."""
        path = stem.parent / f"{stem.name}.svg"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.render(defs), encoding="utf-8")
        return path


def _attrs(attrs: dict[str, Attr]) -> str:
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = "class" if key == "cls" else key.replace("_", "-")
        text = num(value) if isinstance(value, int | float) else escape(value)
        out.append(f' {name}="{text}"')
    return "".join(out)
