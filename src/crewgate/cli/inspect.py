"""``crewgate crews``, ``crewgate validate``, ``crewgate spec schema``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from crewgate.cli.app import app, spec_app
from crewgate.cli.common import CrewArg, JsonOpt, out, print_json


@app.command()
def crews(as_json: bool = JsonOpt) -> None:
    """List the crews that ship with crewgate."""
    from crewgate.sim.section import SimSection
    from crewgate.spec import load_crew, packaged_crews

    rows: list[dict[str, Any]] = []
    for name in packaged_crews():
        crew = load_crew(name)
        rows.append({"name": name, "title": crew.title, "robots": list(crew.robots),
                     "workflows": list(crew.workflows),
                     "worlds": list(sim.worlds) if (sim := crew.section(SimSection)) else []})
    if as_json:
        print_json(rows)
        return
    table = Table(title="packaged crews")
    for col in ("name", "title", "robots", "workflows", "worlds"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["name"], r["title"], ", ".join(r["robots"]), ", ".join(r["workflows"]),
                      ", ".join(r["worlds"]))
    out.print(table)


@app.command()
def validate(crew: str = CrewArg, as_json: bool = JsonOpt) -> None:
    """Check a crew spec: fields, types and every cross-reference, with file lines."""
    from crewgate.spec import load_crew

    spec = load_crew(crew)
    skills = sum(len(r.skills) for r in spec.robots.values())
    summary = {"valid": True, "crew": spec.name, "robots": len(spec.robots), "skills": skills,
               "locations": len(spec.locations), "bindings": len(spec.bindings),
               "workflows": len(spec.workflows)}
    if as_json:
        print_json(summary)
        return
    counts = [(len(spec.robots), "robot"), (skills, "skill"), (len(spec.locations), "location"),
              (len(spec.bindings), "binding"), (len(spec.workflows), "workflow")]
    out.print(f"[green]valid[/]: crew {escape(repr(spec.name))}: " + ", ".join(
        f"{n} {word}{'' if n == 1 else 's'}" for n, word in counts))


@spec_app.command("schema")
def schema(
    output: Path | None = typer.Option(None, "--out", "-o", help="Write to this file."),
) -> None:
    """Write the JSON Schema of crew spec files (for editors and CI)."""
    from crewgate.spec import crew_json_schema

    text = crew_json_schema()
    if output is None:
        print(text)
    else:
        output.write_text(text + "\n", encoding="utf-8")
        out.print(f"wrote {output}")


@spec_app.command("docs")
def docs() -> None:
    """Print the crew-spec field reference (the generated part of docs/crew-spec.md)."""
    from crewgate.spec.reference import render_reference

    print(render_reference(), end="")
