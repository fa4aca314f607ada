"""``crewgate crews``, ``crewgate validate``, ``crewgate spec schema``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from crewgate.cli.app import app, spec_app
from crewgate.cli.common import CrewArg, JsonOpt, out, print_json
from crewgate.errors import UserError


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
        out.print(f"wrote {output}", markup=False)


@spec_app.command("docs")
def docs() -> None:
    """Print the crew-spec field reference (the generated part of docs/crew-spec.md)."""
    from crewgate.spec.reference import render_reference

    print(render_reference(), end="")


@spec_app.command("generate")
def generate(
    robots: int = typer.Option(10, "--robots", metavar="R", help="Robots (1-1,000)."),
    skills: int = typer.Option(100, "--skills", metavar="S", help="Skills shared among them "
                               "(each robot also has move_to; up to 100,000)."),
    workflows: int = typer.Option(10, "--workflows", metavar="W", help="Workflows (1-10,000)."),
    locations: int = typer.Option(20, "--locations", metavar="L", help="Named locations."),
    seed: int = typer.Option(0, "--seed", help="Seed (the same seed, the same crew)."),
    output: Path = typer.Option(..., "--out", "-o", help="Write the crew YAML here."),
    examples: Path | None = typer.Option(None, "--examples", help="Also write each "
                                         "workflow's example request and plan (JSON lines)."),
) -> None:
    """Generate a valid crew of R robots, S skills and W workflows, for tests and benchmarks at
    scale (docs/scaling.md): every workflow sends one robot to a place to do one task, with an
    example request whose plan the gate accepts."""
    import json

    from crewgate.testing.generate import generate_crew

    try:
        made = generate_crew(robots, skills, workflows, locations=locations, seed=seed)
    except ValueError as exc:
        raise UserError(str(exc)) from exc
    output.write_text(made.yaml(), encoding="utf-8")
    if examples is not None:
        examples.write_text("".join(json.dumps({"workflow": e.workflow, "request": e.request,
                                                "plan": e.plan}) + "\n"
                                    for e in made.examples), encoding="utf-8")
    out.print(f"wrote {output}: {robots} robots, {skills} skills, {len(made.spec['workflows'])} "
              f"workflows, {locations} locations" + (f"; examples in {examples}" if examples
                                                     else ""), markup=False)
