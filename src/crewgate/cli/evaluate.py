"""``crewgate eval`` and ``crewgate report``: the study's evaluation for any crew and planner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from crewgate.cli.app import app, err
from crewgate.cli.common import CrewArg, JsonOpt, out, print_json
from crewgate.cli.planning import PLANNERS, PlannerArgs, planner_options

MaxPlotsOpt = typer.Option(None, "--max-plots", min=0, help="Draw the timeline and map of at "
                           "most N missions (the conditions in turn).")
AllPlotsOpt = typer.Option(False, "--all-plots", help="Draw every mission's timeline and map; "
                           "by default only those refused, halted, failed, carrying a gate "
                           "code, or of a scenario that must be blocked.")


@app.command("eval")
@planner_options(many=True)
def evaluate(
    crew: str = CrewArg,
    suite: str = typer.Option("study", "--suite", help="study, extended, holdout, or a suite "
                              "YAML file."),
    planners: PlannerArgs = PLANNERS,
    conditions: str = typer.Option("llm-only,skill-list,ro-prompt,ro", "--conditions",
                                   help="Comma-separated conditions."),
    samples: int = typer.Option(1, "--samples", min=1, help="Missions per scenario and "
                                "condition (seeds S, S+1, ...)."),
    seed: int = typer.Option(0, "--seed", help="First simulator seed, and the sampling seed of "
                             "a planner that takes one."),
    held_plan: bool = typer.Option(False, "--held-plan", help="Sample each planner once per "
                                   "scenario under ro-prompt, then dispatch the identical plans "
                                   "with enforcement off and on."),
    output: Path | None = typer.Option(None, "--out", help="Write metrics.json, report.md, "
                                       "table.tex, traces.jsonl and plots here; a rerun resumes."),
    no_plots: bool = typer.Option(False, "--no-plots", help="Skip the plots."),
    max_plots: int | None = MaxPlotsOpt,
    all_plots: bool = AllPlotsOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Run a scenario suite under the study's conditions, every mission on the simulator."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from crewgate.conditions import condition as condition_named
    from crewgate.eval.metrics import compute
    from crewgate.eval.records import Record
    from crewgate.eval.report import by_planner, write_reports
    from crewgate.eval.runner import EvalPlan, run_evaluation
    from crewgate.eval.stats import proportion
    from crewgate.spec import load_crew
    from crewgate.suites import load_suite

    spec = load_crew(crew)
    scenarios = load_suite(spec.name, suite)
    proportion(1, 2)  # fail early, with the install hint, if the statistics packages are absent
    conds = [condition_named(c.strip()) for c in conditions.split(",") if c.strip()]
    chosen = planners.build(spec, seed=seed)
    plan = EvalPlan(spec, scenarios, chosen, conds, samples, seed, held_plan, output,
                    crew_source=crew)
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                  transient=True) as bar:
        task = bar.add_task(f"{spec.name} {scenarios.suite}", total=plan.total)

        def advance(record: Record, resumed: bool) -> None:
            bar.update(task, advance=1, description=f"{record['planner']} {record['condition']}"
                       + (" (resumed)" if resumed else ""))

        records = run_evaluation(plan, advance)
    if output is not None:
        with err.status(f"writing reports{'' if no_plots else ' and plots'} to {output} ..."):
            payload = write_reports(records, output, plots=not no_plots, max_plots=max_plots,
                                    all_plots=all_plots)
    else:
        groups = by_planner(records)
        results = {n: compute(r) for n, r in groups.items()}
        payload = next(iter(results.values())) if len(results) == 1 else {"planners": results}
    if as_json:
        print_json(payload)
        return
    for metrics in (payload["planners"].values() if "planners" in payload else [payload]):
        _print_table(metrics)
    if output is not None:
        out.print(f"[dim]wrote {output}/metrics.json, report.md, table.tex, traces.jsonl"
                  + ("" if no_plots else ", plots/ (index.html)") + "[/]")


@app.command("report")
def report(
    folder: Path = typer.Argument(..., metavar="FOLDER", help="An evaluation's --out folder."),
    no_plots: bool = typer.Option(False, "--no-plots", help="Skip the plots."),
    max_plots: int | None = MaxPlotsOpt,
    all_plots: bool = AllPlotsOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Re-render metrics.json, report.md, table.tex and the plots from saved traces."""
    from crewgate.eval.report import rerender

    with err.status(f"re-rendering {folder} ..."):
        payload = rerender(folder, plots=not no_plots, max_plots=max_plots,
                           all_plots=all_plots)
    if as_json:
        print_json(payload)
        return
    for metrics in (payload["planners"].values() if "planners" in payload else [payload]):
        _print_table(metrics)


def _print_table(metrics: dict[str, Any]) -> None:
    from rich.table import Table

    from crewgate.eval.report import LABELS, cell, ordered, shown_metrics

    conds = ordered(list(metrics["conditions"]))
    table = Table(title=f"{metrics['crew']} · {metrics['planner']} · {metrics['suite']} suite",
                  show_lines=False)
    table.add_column("metric")
    for c in conds:
        table.add_column(c, justify="right")
    for name in shown_metrics(metrics):
        table.add_row(LABELS[name], *(cell(metrics["conditions"][c][name], compact=True)
                                      for c in conds))
    out.print(table)
