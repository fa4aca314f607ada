"""A request's units in the reader's (crewgate.text.units)."""

from __future__ import annotations

import pytest

from crewgate.text.units import METRES, UNITS, in_unit, unit_key


@pytest.mark.parametrize(("value", "name", "expected"), [
    (10, "feet", (3.048, "m")), (1, "ft", (0.3048, "m")), (300, "cm", (3.0, "m")),
    (4000, "mm", (4.0, "m")), (2, "km", (2000.0, "m")), (5, "yards", (4.572, "m")),
    (2, "minutes", (120.0, "s")), (1, "hour", (3600.0, "s")), (250, "ms", (0.25, "s")),
    (6, "metres", (6, "m")), (90, "degrees", (90, "deg")),
])
def test_in_unit(value: float, name: str, expected: tuple[float, str]) -> None:
    amount, unit = in_unit(value, name)
    assert (round(amount, 9), unit) == expected


def test_the_metres_names_are_the_metres_own() -> None:
    """A coordinate may carry the metre's names only: "x 3 ft" is no point in metres."""
    assert METRES == ("m", "meter", "meters", "metre", "metres")
    assert {UNITS[name] for name in ("ft", "cm", "km")} == {"m"}
    assert unit_key("Metres.") == "m"
    assert unit_key("furlong") == "furlong"
