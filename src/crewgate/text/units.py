"""The units a request states its quantities in, by every name it may use ("metres" -> "m"), and
what one of each is in the reader's unit ("feet" -> 0.3048 m): read by the request's reading
(crewgate.text.intent) and its facts (crewgate.text.request). A quantity is held to a
parameter in the reader's unit ("take off to 10 feet" states 3.048 m, never 10 m)."""

from __future__ import annotations

# name -> (the reader's unit, how many of it one is)
_TABLE: dict[str, tuple[str, float]] = {
    **dict.fromkeys(("m", "meter", "meters", "metre", "metres"), ("m", 1.0)),
    **dict.fromkeys(("cm", "centimeter", "centimeters", "centimetre", "centimetres"),
                    ("m", 0.01)),
    **dict.fromkeys(("mm", "millimeter", "millimeters", "millimetre", "millimetres"),
                    ("m", 0.001)),
    **dict.fromkeys(("dm", "decimeter", "decimeters", "decimetre", "decimetres"),
                    ("m", 0.1)),
    **dict.fromkeys(("km", "kilometer", "kilometers", "kilometre", "kilometres"),
                    ("m", 1000.0)),
    # (not "in": the word "in" says where or when far more often than inches)
    **dict.fromkeys(("inch", "inches"), ("m", 0.0254)),
    **dict.fromkeys(("mi", "mile", "miles"), ("m", 1609.344)),
    **dict.fromkeys(("ft", "foot", "feet"), ("m", 0.3048)),
    **dict.fromkeys(("yd", "yard", "yards"), ("m", 0.9144)),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), ("s", 1.0)),
    **dict.fromkeys(("ms", "millisecond", "milliseconds"), ("s", 0.001)),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), ("s", 60.0)),
    **dict.fromkeys(("hr", "hrs", "hour", "hours"), ("s", 3600.0)),
    **dict.fromkeys(("deg", "degree", "degrees"), ("deg", 1.0)),
    **dict.fromkeys(("rad", "radians"), ("rad", 1.0)),
}
# speeds written as one word
_TABLE.update({**dict.fromkeys(("mph",), ("m/s", 0.44704)),
               **dict.fromkeys(("kph", "kmh"), ("m/s", 1 / 3.6))})
UNITS: dict[str, str] = {name: unit for name, (unit, _) in _TABLE.items()}
# a length per a time ("2 m/s", "5 km/h", "3 metres per second"): a speed, in m/s
TIMES = frozenset(name for name, (unit, _) in _TABLE.items() if unit == "s") | {"h"}

# the metre's own names (a range's bound or a point's coordinate may carry one: "x 3 m"; a
# value in another length unit is no coordinate the reader takes as metres)
METRES = tuple(name for name, (unit, scale) in _TABLE.items() if unit == "m" and scale == 1.0)
# ... and the other lengths' names: a range or point that ends with one is none the reader takes
# ("x 0 to 5 ft, y 0 to 5 ft" states no zone in metres)
OTHER_LENGTHS = frozenset(name for name, (unit, scale) in _TABLE.items()
                          if unit == "m" and scale != 1.0)


def in_unit(value: float, name: str) -> tuple[float, str]:
    """A value written with the unit ``name`` (a key of UNITS), in the reader's unit:
    (10, "feet") -> (3.048, "m")."""
    unit, scale = _TABLE[name]
    return value * scale, unit


def per(value: float, length: str, time: str) -> tuple[float, str]:
    """A length per a time in m/s: (5, "km", "h") -> (1.389, "m/s")."""
    metres, _ = in_unit(value, length)
    return metres / (3600.0 if time == "h" else in_unit(1.0, time)[0]), "m/s"


def unit_key(unit: str | None) -> str | None:
    """A unit as the reader names it ("metres" -> "m"); None if it is none it knows."""
    if unit is None:
        return None
    return UNITS.get(unit.strip().lower().rstrip("."), unit.strip().lower())


__all__ = ["METRES", "OTHER_LENGTHS", "TIMES", "UNITS", "in_unit", "per", "unit_key"]
