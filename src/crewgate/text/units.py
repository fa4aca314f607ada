"""The units a request states its quantities in, by every name it may use ("metres" -> "m"):
read by the request's reading (crewgate.text.intent) and its facts (crewgate.text.request)."""

from __future__ import annotations

UNITS: dict[str, str] = {
    "m": "m", "meter": "m", "meters": "m", "metre": "m", "metres": "m",
    "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
    "deg": "deg", "degree": "deg", "degrees": "deg", "rad": "rad", "radians": "rad",
}

METRES = tuple(name for name, unit in UNITS.items() if unit == "m")  # "m", "metre", ...


def unit_key(unit: str | None) -> str | None:
    """A unit as the reader names it ("metres" -> "m"); None if it is none it knows."""
    if unit is None:
        return None
    return UNITS.get(unit.strip().lower().rstrip("."), unit.strip().lower())


__all__ = ["METRES", "UNITS", "unit_key"]
