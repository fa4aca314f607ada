"""Docs that cannot drift: the crew-spec field reference is the one the models generate."""

from __future__ import annotations

from pathlib import Path

from crewgate.spec.reference import render_reference, sections

ROOT = Path(__file__).parents[1]


def test_crew_spec_reference_is_current() -> None:
    doc = (ROOT / "docs" / "crew-spec.md").read_text(encoding="utf-8")
    assert render_reference() in doc, "regenerate with `make docs`"


def test_every_spec_field_has_a_description() -> None:
    missing = [f"{model.__name__}.{name}" for _, model in sections()
               for name, info in model.model_fields.items() if not info.description]
    assert missing == []


def test_the_code_table_is_the_codes_own() -> None:
    """docs/gate.md shows every code with the family and meaning the enum declares."""
    from crewgate.codes import codes_table

    doc = (ROOT / "docs" / "gate.md").read_text(encoding="utf-8")
    assert codes_table() in doc, "regenerate with `make docs`"


def test_every_code_has_a_family_and_a_meaning() -> None:
    from crewgate.codes import Code, Family

    assert [c.value for c in Code if not isinstance(c.family, Family) or not c.meaning] == []
    assert {c.family for c in Code} == set(Family)


def test_api_docstring_example_runs() -> None:
    import doctest

    import crewgate.api

    failures, tried = doctest.testmod(crewgate.api)
    assert tried > 0
    assert failures == 0
