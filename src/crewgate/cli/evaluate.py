"""``crewgate eval`` and ``crewgate report``: the study's evaluation for any crew and planner."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape

from crewgate.cli.app import app, err
from crewgate.cli.common import EXIT_PLANNER, CrewArg, JsonOpt, out, print_json
from crewgate.cli.planning import PLANNERS, PlannerArgs, planner_options

if TYPE_CHECKING:
    from crewgate.eval.records import Record
    from crewgate.eval.runner import EvalPlan, Progress

MaxPlotsOpt = typer.Option(None, "--max-plots", min=0, help="Draw the timeline and map of at "
                           "most N missions (the conditions in turn).")
AllPlotsOpt = typer.Option(False, "--all-plots", help="Draw every mission's timeline and map; "
                           "by default only those refused, halted, failed, carrying a gate "
                           "code, or of a scenario that must be blocked.")
# Every mission's timeline and map is SVG now; --svg (which once asked for SVG besides PNG) is
# still accepted, hidden, so that the commands written with it keep working.
SvgOpt = typer.Option(False, "--svg", hidden=True, help="No longer needed: the missions' "
                      "plots are always SVG.")
PngOpt = typer.Option(False, "--png", help="Also write plots/metrics.png (and, with several "
                      "planners, across.png) for slides and papers, drawn with matplotlib "
                      '(pip install "crewgate[eval]"); every plot is SVG without it.')
PricesOpt = typer.Option(None, "--prices", metavar="FILE", help="A price table (YAML: models: "
                         "{MODEL: {input: P, output: P}}, per 1,000,000 tokens) that turns "
                         "the token counts into cost.")


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
    svg: bool = SvgOpt,  # accepted, no longer needed
    png: bool = PngOpt,
    jobs: int | None = typer.Option(
        None, "--jobs", "-j", min=1, max=256, metavar="N", help="Missions at once (their "
        "planner calls overlap; the simulator and the gate stay sequential). Default: 8 for "
        "hosted planners, else 1."),
    retries: int = typer.Option(
        3, "--retries", min=0, max=20, metavar="N", help="Ask a planner again this many times "
        "after a timeout, a lost connection, HTTP 429 or 5xx (waiting as Retry-After says, "
        "else backing off)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Ask the planner every time; "
                                  "by default answers are kept in $CREWGATE_CACHE (else "
                                  "~/.cache/crewgate/responses.sqlite3) and reused."),
    prices: Path | None = PricesOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Run a scenario suite under the study's conditions, every mission on the simulator.

    Exit status: 0 every mission got a planner answer (refusals and failures are results, not
    errors); 2 bad input; 3 some mission got no planner answer after its retries (unreachable,
    timed out, its server's error): everything is written all the same, the metrics count
    those missions apart (planner_error), and a rerun with the same --out asks again for them
    only."""
    from crewgate.conditions import condition as condition_named
    from crewgate.eval.cache import Identified, ResponseCache
    from crewgate.eval.calls import RetryPolicy
    from crewgate.eval.metrics import compute
    from crewgate.eval.prices import check_prices, load_prices
    from crewgate.eval.report import by_planner, write_reports
    from crewgate.eval.runner import EvalPlan, run_evaluation
    from crewgate.eval.stats import proportion
    from crewgate.spec import load_crew
    from crewgate.suites import load_suite

    spec = load_crew(crew)
    scenarios = load_suite(spec.name, suite)
    proportion(1, 2)  # fail early, with the install hint, if the statistics packages are absent
    if png and output is not None and not no_plots:
        from crewgate.eval.plots_mpl import require_matplotlib

        require_matplotlib()  # before the missions, not after them
    conds = [condition_named(c.strip()) for c in conditions.split(",") if c.strip()]
    table = load_prices(prices) if prices is not None else None
    chosen = planners.build(spec, seed=seed)
    if table is not None and prices is not None:
        check_prices(table, prices, [(p.name, getattr(p, "model", None)) for p in chosen])
    cached = not no_cache and any(isinstance(p, Identified) for p in chosen)
    cache = ResponseCache() if cached else None  # the offline planners are never cached
    plan = EvalPlan(spec, scenarios, chosen, conds, samples, seed, held_plan, output,
                    crew_source=crew, jobs=jobs, cache=cache,
                    retry=RetryPolicy(attempts=retries + 1))
    try:
        records = _run_with_progress(plan, run_evaluation)
    finally:
        if cache is not None:
            cache.close()
    if output is not None:
        with err.status(f"writing reports{'' if no_plots else ' and plots'} to {output} ..."):
            payload = write_reports(records, output, plots=not no_plots, max_plots=max_plots,
                                    all_plots=all_plots, prices=table, png=png)
    else:
        groups = by_planner(records)
        results = {n: compute(r, table) for n, r in groups.items()}
        payload = next(iter(results.values())) if len(results) == 1 else {"planners": results}
    _failure_summary(records)
    unanswered = any(r.get("planner_error") for r in records)
    if as_json:
        print_json(payload)
    else:
        for metrics in (payload["planners"].values() if "planners" in payload else [payload]):
            _print_table(metrics)
        if output is not None:
            out.print(f"wrote {output}/metrics.json, report.md, table.tex, traces.jsonl"
                      + ("" if no_plots else ", plots/ (index.html)"), style="dim",
                      markup=False)
    if unanswered:
        raise typer.Exit(EXIT_PLANNER)


@app.command("report")
def report(
    folder: Path = typer.Argument(..., metavar="FOLDER", help="An evaluation's --out folder."),
    no_plots: bool = typer.Option(False, "--no-plots", help="Skip the plots."),
    max_plots: int | None = MaxPlotsOpt,
    all_plots: bool = AllPlotsOpt,
    svg: bool = SvgOpt,  # accepted, no longer needed
    png: bool = PngOpt,
    prices: Path | None = PricesOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Re-render metrics.json, report.md, table.tex and the plots from saved traces."""
    from crewgate.eval.prices import load_prices
    from crewgate.eval.report import rerender

    table = load_prices(prices) if prices is not None else None
    if png and not no_plots:
        from crewgate.eval.plots_mpl import require_matplotlib

        require_matplotlib()
    with err.status(f"re-rendering {folder} ..."):
        payload = rerender(folder, plots=not no_plots, max_plots=max_plots,
                           all_plots=all_plots, prices=table, png=png)
    if as_json:
        print_json(payload)
        return
    for metrics in (payload["planners"].values() if "planners" in payload else [payload]):
        _print_table(metrics)


@app.command()
def compare(
    folders: list[Path] = typer.Argument(..., metavar="FOLDER...", help="Evaluation --out "
                                         "folders of the same crew and suite (one per model)."),
    output: Path = typer.Option(..., "--out", help="Write the side-by-side report here."),
    no_plots: bool = typer.Option(False, "--no-plots", help="Skip the plots."),
    png: bool = typer.Option(False, "--png", help="Also write plots/across.png for slides "
                             'and papers, drawn with matplotlib (pip install "crewgate[eval]"); '
                             "plots/across.svg without it."),
    as_json: bool = JsonOpt,
) -> None:
    """Put the planners of several evaluation runs side by side (docs/models.md): report.md
    opens with one table per condition (workflow accuracy, grounding, false dispatch, recall,
    and every substitution class, with Fisher p against the first planner), metrics.json holds
    them, plots/across.svg draws the substitution classes (each run's own plots stay in its
    folder). Each planner is named after its folder too, so that two models on one backend
    differ: "llamacpp (smollm2)"."""
    from crewgate.eval.report import compare_runs

    if png and not no_plots:
        from crewgate.eval.plots_mpl import require_matplotlib

        require_matplotlib()  # before anything is written
    with err.status(f"comparing {len(folders)} runs ..."):
        payload = compare_runs(folders, output, plots=not no_plots, png=png)
    if as_json:
        print_json(payload)
        return
    for metrics in payload["planners"].values():
        _print_table(metrics)
    plots = "" if no_plots else ", plots/across.svg" + (", across.png" if png else "")
    out.print(f"wrote {output}/metrics.json, report.md, table.tex, traces.jsonl{plots}",
              style="dim", markup=False)


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


def _run_with_progress(plan: EvalPlan,
                       run: Callable[[EvalPlan, Progress | None], list[Record]]) -> list[Record]:
    """The evaluation under a progress bar on stderr: missions done, missions per second (of
    those run now, not resumed), the time left at that rate, the planner errors so far."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                  TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                  TextColumn("{task.fields[failed]}"), console=err, transient=True) as bar:
        task = bar.add_task(f"{plan.crew.name} {plan.suite.suite}", total=plan.total, rate="",
                            failed="")
        ran = errors = 0
        start = time.monotonic()

        def advance(record: Record, resumed: bool) -> None:
            nonlocal ran, errors
            ran += 0 if resumed else 1
            errors += 1 if record.get("planner_error") and not resumed else 0
            spent = time.monotonic() - start
            rate = f"{ran / spent:.1f} missions/s" if ran and spent > 0 else ""
            bar.update(task, advance=1, rate=rate,
                       failed=f"{errors} planner error{'s' if errors != 1 else ''}"
                       if errors else "",
                       description=f"{escape(str(record['planner']))} "
                       f"{escape(str(record['condition']))}"
                       + (" (resumed)" if resumed else ""))

        records = run(plan, advance)
    if len(records) > ran:
        err.print(f"resumed {len(records) - ran} of {len(records)} missions from "
                  f"{plan.out / 'traces.jsonl' if plan.out else 'the traces'} (recorded with "
                  "the same crew, scenario, condition, seed, planner and crewgate version); "
                  f"ran {ran}", style="dim", markup=False, highlight=False)
    return records


def _failure_summary(records: list[Record]) -> None:
    """On stderr: the missions whose planner gave no answer, by error, and the retries."""
    from collections import Counter

    failed = Counter(str(r["planner_error"]) for r in records if r.get("planner_error"))
    retries = sum(int((r.get("calls") or {}).get("retries", 0)) for r in records)
    cached = sum(int((r.get("calls") or {}).get("cached", 0)) for r in records)
    if cached:
        err.print(f"{cached} planner answer{'s' if cached != 1 else ''} from the response "
                  "cache", style="dim", markup=False)
    if not failed and not retries:
        return
    total = sum(failed.values())
    err.print(f"{total} of {len(records)} missions got no planner answer (planner_error, "
              f"counted apart from refusals); {retries} retr{'ies' if retries != 1 else 'y'} in "
              "all", markup=False, highlight=False)
    for message, count in failed.most_common(10):
        err.print(f"  {count} x {message}", markup=False, highlight=False)
    if len(failed) > 10:
        err.print(f"  ... and {len(failed) - 10} other errors", markup=False)
    if failed:
        err.print("exit status 3: rerun with the same --out to ask again for those missions "
                  "only", markup=False)
