"""A request's units in the reader's (crewgate.text.units)."""

from __future__ import annotations

import pytest

from crewgate.text.intent import Reading
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


@pytest.mark.parametrize(("text", "read"), [
    ("at 2 m/s", [("2 m/s", 2.0, "m/s", "")]),
    ("at 5 km/h", [("5 km/h", 1.389, "m/s", "")]),
    ("3 metres per second", [("3 metres per second", 3.0, "m/s", "")]),
    ("at 10 mph", [("10 mph", 4.47, "m/s", "")]),
    ("fly 3m/s", [("3m/s", 3.0, "m/s", "")]),
    # a bound, not a value ("below 4 metres"), and its opposite inside a negation's scope
    ("stay below 4 metres", [("below 4 metres", 4.0, "m", "<")]),
    ("no higher than 4 m", [("no higher than 4 m", 4.0, "m", "<=")]),
    ("never above 4 metres", [("never above 4 metres", 4.0, "m", "<=")]),
    ("do not exceed 4 metres", [("do not exceed 4 metres", 4.0, "m", "<=")]),
    ("at least 2 m up", [("at least 2 m", 2.0, "m", ">=")]),
    ("above 12 metres", [("above 12 metres", 12.0, "m", ">")]),
    ("do not fly above 4 m", [("do not fly above 4 m", 4.0, "m", "<=")]),
    ("take off to 5 m", [("5 m", 5.0, "m", "")]),
    # a range of a quantity: two bounds (an axis's range is no quantity)
    ("fly between 3 and 5 metres", [("between 3 and 5 metres", 3.0, "m", ">="),
                                    ("between 3 and 5 metres", 5.0, "m", "<=")]),
    ("from 2.5 to 4 m up", [("from 2.5 to 4 m", 2.5, "m", ">="),
                            ("from 2.5 to 4 m", 4.0, "m", "<=")]),
    ("between 5 and 3 m", [("between 5 and 3 m", 3.0, "m", ">="),
                           ("between 5 and 3 m", 5.0, "m", "<=")]),
    ("between 10 and 20 feet", [("between 10 and 20 feet", 3.048, "m", ">="),
                                ("between 10 and 20 feet", 6.096, "m", "<=")]),
    ("x from 0 to 5 m, y from 0 to 5 m", []),
    ("between 1 and 2 m/s", []),  # (a range of speeds: no length, and no bound either)
])
def test_speeds_and_bounds_as_read(text: str, read: list[tuple[str, float, str, str]]) -> None:
    """A length per a time is a speed in m/s, never a length ("2 m/s" is no altitude); a
    bound says what a value may be."""
    assert [(q.text, round(q.value, 3), q.unit, q.bound)
            for q in Reading(text).quantities] == read


def test_a_bound_is_no_negation_and_no_stay() -> None:
    """"No higher than 4 m" negates nothing; "the drone must stay below 4 m" keeps it flying;
    "not under any circumstances" is still a negation (no number follows)."""
    assert [s.cue for s in Reading("fly no higher than 4 m").scopes] == []
    assert [s.cue for s in Reading("do not, under any circumstances, search").scopes] == [
        "do not", "not"]
    assert Reading("the drone must stay below 4 m").modal_negation(1, 2) is None
