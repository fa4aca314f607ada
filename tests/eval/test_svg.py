"""The SVG writer under the missions' plots: escaping, bounds, numbers, ticks."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from crewgate.eval.svg import Svg, clip, escape, finite, fit, num, text_width, tick_label, ticks


def test_escape_leaves_no_markup_and_no_forbidden_character() -> None:
    assert escape('<script>&"\'') == "&lt;script&gt;&amp;&quot;&#39;"
    assert escape("a\x00b\x1bc\ud800d\ufffe") == "abcd"
    assert escape("tab\tnewline\n") == "tab\tnewline\n"  # allowed in XML 1.0


def test_a_document_of_hostile_texts_parses_and_keeps_them_as_text(tmp_path: Path) -> None:
    svg = Svg(100, 50)
    hostile = '</text><g onload="x">&amp;\x07'
    svg.text(1, 2, hostile, tooltip=hostile, cls=hostile)
    svg.el("rect", x=0, y=0, width=1, height=1, fill=hostile)
    root = ET.parse(svg.save(tmp_path / "s")).getroot()
    [text] = root.iter("{http://www.w3.org/2000/svg}text")
    assert text.get("class") == hostile.replace("\x07", "")
    assert [c.tag for c in text] == ["{http://www.w3.org/2000/svg}title"]
    assert text[0].tail == hostile.replace("\x07", "")
    assert not list(root.iter("{http://www.w3.org/2000/svg}g"))


def test_numbers_are_finite_short_and_never_negative_zero() -> None:
    assert [num(v) for v in (1.0, 2.345, -0.001, 1e6, 3)] == ["1", "2.35", "0", "1000000", "3"]
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="not a finite number"):
            num(bad)
    svg = Svg(10, 10)
    with pytest.raises(ValueError, match="not a finite number"):
        svg.el("circle", r=math.nan)


def test_values_from_records_are_read_finite_and_clamped() -> None:
    assert [finite(v) for v in (1, 2.5, "3", True, None, "nan", "inf", math.nan, [1], "x")] == [
        1.0, 2.5, 3.0, None, None, None, None, None, None, None]
    assert finite(1e300) == 1e6
    assert finite(-1e300) == -1e6


def test_labels_are_bounded() -> None:
    assert clip("a  b\nc", 10) == "a b c"
    assert clip("x" * 50, 10) == "x" * 9 + "…"
    long = "navigate_to " * 40
    cut = fit(long, 11, 200)
    assert cut.endswith("…")
    assert text_width(cut, 11) <= 200
    assert fit("short", 11, 200) == "short"


def test_ticks_are_round_and_cover_the_range() -> None:
    assert ticks(-1.2, 41.2, 12) == [0, 5, 10, 15, 20, 25, 30, 35, 40]
    assert ticks(-6.5, 10.5, 11) == [-6, -4, -2, 0, 2, 4, 6, 8, 10]
    values = ticks(-0.15, 5.15, 12)
    assert values[:3] == [0, 0.5, 1.0]
    assert [tick_label(v, values) for v in values[:3]] == ["0", "0.5", "1.0"]
    assert tick_label(-4, [-4, -2]) == "\u22124"
