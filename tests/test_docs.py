"""Docs that cannot drift: the crew-spec field reference is the one the models generate."""

from __future__ import annotations

from pathlib import Path

from crewgate.spec.reference import SECTIONS, render_reference

ROOT = Path(__file__).parents[1]


def test_crew_spec_reference_is_current() -> None:
    doc = (ROOT / "docs" / "crew-spec.md").read_text(encoding="utf-8")
    assert render_reference() in doc, "regenerate with `make docs`"


def test_every_spec_field_has_a_description() -> None:
    missing = [f"{model.__name__}.{name}" for _, model in SECTIONS
               for name, info in model.model_fields.items() if not info.description]
    assert missing == []


def test_every_gate_code_is_documented() -> None:
    from crewgate.gate.codes import Code

    doc = (ROOT / "docs" / "gate.md").read_text(encoding="utf-8")
    assert [c.value for c in Code if f"`{c.value}`" not in doc] == []


def test_api_docstring_example_runs() -> None:
    import doctest

    import crewgate.api

    failures, tried = doctest.testmod(crewgate.api)
    assert tried > 0
    assert failures == 0
