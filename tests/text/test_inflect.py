"""The -ing form of a crew's verbs (crewgate.text.inflect.gerund), by the regular rules."""

from __future__ import annotations

import pytest

from crewgate.text.inflect import gerund


@pytest.mark.parametrize(("verb", "expected"), [
    ("search", "searching"), ("land", "landing"), ("sweep", "sweeping"),  # plain
    ("take", "taking"), ("drive", "driving"), ("navigate", "navigating"),  # a silent "e" dropped
    ("free", "freeing"), ("see", "seeing"), ("toe", "toeing"),  # an "e" that is heard stays
    ("lie", "lying"),  # "ie" made "y"
    ("stop", "stopping"), ("scan", "scanning"), ("put", "putting"), ("grab", "grabbing"),
    ("tow", "towing"), ("fix", "fixing"), ("say", "saying"),  # no doubled "w", "x", "y"
    ("open", "opening"), ("deliver", "delivering"), ("head", "heading"),  # not one vowel
    ("go", "going"), ("x", "xing"), ("3d", "3ding"),
])
def test_gerund(verb: str, expected: str) -> None:
    assert gerund(verb) == expected
