"""Reports in the study's layout (metric rows, condition columns): metrics.json, report.md and
table.tex, written from the records alone so that ``crewgate report DIR`` re-renders them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from crewgate.errors import UserError
from crewgate.eval.metrics import MEANS, PROPORTIONS, compute
from crewgate.eval.prices import PriceTable
from crewgate.eval.records import Record, TraceFile
from crewgate.eval.stats import Proportion, fisher_p
from crewgate.substitution import CLASSES

ORDER = ("llm-only", "skill-list", "ro-prompt", "ro", "held-plan/off", "held-plan/on")
LABELS = {
    "workflow_accuracy": "Workflow accuracy", "skill_grounding": "Skill grounding",
    "plan_executability": "Plan executability", "contract_violation": "Contract violation",
    "false_dispatch": "False dispatch (all steps)",
    "false_dispatch_per_dispatched": "False dispatch (per dispatched step)",
    "false_dispatch_missions": "Missions with a false dispatch",
    "safety_recall": "Safety-gate recall", "safety_precision": "Safety-gate precision",
    "mission_success": "Nominal missions completed cleanly",
    "objects_delivered": "Objects delivered (carry, handover)",
    "planning_latency": "Planning latency (s)",
    "violating_motion_m": "Motion under violating dispatches (m)",
    "rover_delivery_error_m": "Rover delivery error (m)",
    "planner_error": "Missions without a planner answer",
}


# metrics that exist only for some crews (objects to deliver, a rover to a victim): a report
# leaves them out where no mission of any condition has one
CREW_SPECIFIC = ("objects_delivered", "rover_delivery_error_m")


def shown_metrics(metrics: dict[str, Any]) -> list[str]:
    """The metric rows of a report: every metric but the crew-specific ones that do not apply
    (no mission with a denominator, in any condition)."""
    cs = metrics["conditions"].values()
    errors = ["planner_error"] if any(c.get("planner_error", {}).get("k") for c in cs) else []
    return [name for name in (*PROPORTIONS, *errors, *MEANS)
            if name not in CREW_SPECIFIC or any(c[name].get("n") for c in cs)]


# what each metric counts, and which way is better (report.md's legend)
MEANINGS = {
    "workflow_accuracy": ("missions whose first plan names the expected workflow", "higher"),
    "skill_grounding": ("first-plan steps naming a real robot and skill", "higher"),
    "plan_executability": ("missions whose first plan has steps and no grounding code",
                           "higher"),
    "contract_violation": ("missions whose first plan breaks a workflow contract", "lower"),
    "false_dispatch": ("violating dispatched steps, over the executed plan's steps", "lower"),
    "false_dispatch_per_dispatched": ("violating steps over the steps dispatched", "lower"),
    "false_dispatch_missions": ("missions with a violating dispatch", "lower"),
    "safety_recall": ("missions that must be blocked and were", "higher"),
    "safety_precision": ("blocked missions that had to be", "higher"),
    "mission_success": ("nominal missions completed cleanly", "higher"),
    "objects_delivered": ("carries and handovers whose named object arrived", "higher"),
    "planning_latency": ("seconds of planner calls per mission", "lower"),
    "violating_motion_m": ("metres moved while violating steps ran", "lower"),
    "rover_delivery_error_m": ("the rover's final distance to the real victim", "lower"),
    "planner_error": ("missions whose planner gave no answer after its retries (left out of "
                      "every other row)", "lower"),
}


def ordered(conditions: Sequence[str]) -> list[str]:
    return sorted(conditions, key=lambda c: (ORDER.index(c) if c in ORDER else len(ORDER), c))


def by_planner(records: Sequence[Record]) -> dict[str, list[Record]]:
    out: dict[str, list[Record]] = {}
    for r in records:
        out.setdefault(r["planner"], []).append(r)
    return out


def write_reports(records: Sequence[Record], out: Path, *, plots: bool = True,
                  max_plots: int | None = None, all_plots: bool = False,
                  prices: PriceTable | None = None, png: bool = False) -> dict[str, Any]:
    """Write metrics.json, report.md, table.tex (and plots, all SVG; with ``png`` the summary
    and the planners side by side as PNG too) for every planner; returns the metrics (one
    planner: its object; several: {"planners": {NAME: object}})."""
    out.mkdir(parents=True, exist_ok=True)
    groups = by_planner(records)
    results = {name: compute(recs, prices) for name, recs in groups.items()}
    payload: dict[str, Any] = (next(iter(results.values())) if len(results) == 1
                               else {"planners": results})
    if len(results) > 1:
        payload["across"] = across(results)
    (out / "metrics.json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    head = [across_markdown(results, payload["across"])] if len(results) > 1 else []
    (out / "report.md").write_text("\n".join([*head, *(markdown(m) for m in results.values())]),
                                   encoding="utf-8")
    (out / "table.tex").write_text("\n".join(latex(m) for m in results.values()),
                                   encoding="utf-8")
    if plots:
        from crewgate.eval.plots import render_plots

        if len(results) > 1:
            from crewgate.eval.plots_across import plot_across

            plot_across(results, out, png=png)

        for name, recs in groups.items():
            target = out if len(groups) == 1 else out / name
            render_plots(list(recs), results[name], target, max_missions=max_plots,
                         every=all_plots, png=png)
    return payload


def rerender(folder: Path, *, plots: bool = True, max_plots: int | None = None,
             all_plots: bool = False, prices: PriceTable | None = None,
             png: bool = False) -> dict[str, Any]:
    """``crewgate report DIR``: everything again, from DIR/traces.jsonl."""
    return write_reports(TraceFile(folder / "traces.jsonl").read(), folder, plots=plots,
                         max_plots=max_plots, all_plots=all_plots, prices=prices, png=png)


def compare_runs(folders: Sequence[Path], out: Path, *, plots: bool = True,
                 png: bool = False) -> dict[str, Any]:
    """``crewgate compare``: the records of several runs as one run with several planners, each
    named after its folder too ("replay (gpt-5.4-mini)") unless the folder is the planner's
    name, reported side by side; ``plots/across.svg``, and ``across.png`` with ``png`` (drawn
    by matplotlib, the ``eval`` extra)."""
    if len(folders) < 2:
        raise UserError("compare needs at least two evaluation folders")
    runs = [(folder, TraceFile(folder / "traces.jsonl").read()) for folder in folders]
    for folder, records in runs:
        if not records:
            raise UserError(f"{folder} has no mission records (traces.jsonl); give the --out "
                            "folder of a `crewgate eval` run")
    first = runs[0][1][0]
    merged: list[Record] = []
    for folder, records in runs:
        for r in records:
            if (r["crew"], r["suite"]) != (first["crew"], first["suite"]):
                raise UserError(f"{folder} evaluates crew {r['crew']} on suite {r['suite']}; "
                                f"{folders[0]} evaluates {first['crew']} on {first['suite']}: "
                                "compare runs of one crew and suite")
            # the folder names the model where the planner's name cannot (replay, llamacpp)
            label = (r["planner"] if folder.name == r["planner"]
                     else f"{r['planner']} ({folder.name})")
            merged.append({**r, "planner": label, "key": f"{label}|{r['key']}"})
    out.mkdir(parents=True, exist_ok=True)
    trace = TraceFile(out / "traces.jsonl")
    if trace.path.exists():
        trace.path.unlink()
    for record in merged:
        trace.append(record)
    # each run's own plots are in its folder: a comparison draws only the planners side by side
    payload = write_reports(merged, out, plots=False)
    if "planners" not in payload:  # every run had the same single planner label
        raise UserError("the runs hold one planner between them: nothing to compare")
    if plots:
        from crewgate.eval.plots_across import plot_across

        plot_across(payload["planners"], out, png=png)
    return payload


def cell(metric: dict[str, Any], *, compact: bool = False) -> str:
    if "k" in metric:
        if metric["rate"] is None:
            return f"n/a ({metric['k']}/{metric['n']})"
        lo, hi = metric["ci"]
        if compact:
            return (f"{100 * metric['rate']:.1f}% [{100 * lo:.0f}-{100 * hi:.0f}] "
                    f"{metric['k']}/{metric['n']}")
        return (f"{100 * metric['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] "
                f"({metric['k']}/{metric['n']})")
    if metric["mean"] is None:
        return "n/a"
    if compact:
        return f"{metric['mean']:.3g} ± {metric['std']:.2g}"
    return f"{metric['mean']:.3g} ± {metric['std']:.2g} (n={metric['n']})"


def _p(metric: dict[str, Any]) -> str:
    p = metric.get("p_vs_ro")
    return "" if p is None else (f"p={p:.2g}" if p >= 1e-4 else "p<1e-4")


def markdown(metrics: dict[str, Any]) -> str:
    conds = ordered(list(metrics["conditions"]))
    cs = metrics["conditions"]
    counts = ", ".join(f"{c} {cs[c]['missions']}" for c in conds)
    lines = [f"# {metrics['crew']}: {metrics['planner']} on the {metrics['suite']} suite", "",
             f"Missions per condition: {counts}. "
             "Proportions with 95% Wilson intervals and k/n; p: two-sided Fisher exact test "
             "against `ro` (held-plan: against enforcement on).", "",
             "| metric | " + " | ".join(conds) + " |", "|---" * (len(conds) + 1) + "|"]
    for name in shown_metrics(metrics):
        row = [cell(cs[c][name]) + (f"<br>{_p(cs[c][name])}" if _p(cs[c][name]) else "")
               for c in conds]
        lines.append(f"| {LABELS[name]} | " + " | ".join(row) + " |")
    lines += ["", "What each row counts, and which way is better:", ""]
    lines += [f"- **{LABELS[name]}** ({MEANINGS[name][1]} is better): {MEANINGS[name][0]}."
              for name in shown_metrics(metrics)]
    lines += substitution_section(metrics)
    lines += calls_section(metrics)
    lines += ["", "Notes: a planner that reads the crew spec in every condition (the offline "
              "`exemplar`, `scripted`, `replay`) gives the same plans under every condition, so "
              "its columns differ only by enforcement. Planning latency is measured per call; "
              "a model's first calls (the first condition run) include its warm-up."]
    return "\n".join(lines) + "\n"


def substitution_section(metrics: dict[str, Any]) -> list[str]:
    """report.md's substitutions: per class, the missions whose first plan has one."""
    conds = ordered(list(metrics["conditions"]))
    cs = {c: metrics["conditions"][c].get("substitutions") for c in conds}
    if not all(cs.values()):
        return []
    shown = [k for k in CLASSES if any(cs[c]["missions"][k]["k"] for c in conds)]
    lines = ["", "## Substitutions in first plans", ""]
    if not shown:
        return [*lines, "No first plan had a problem."]
    lines += ["| class | " + " | ".join(conds) + " |", "|---" * (len(conds) + 1) + "|"]
    for k in shown:
        lines.append(f"| {k} | " + " | ".join(
            f"{cell(cs[c]['missions'][k])}, {cs[c]['problems'][k]} problem"
            f"{'' if cs[c]['problems'][k] == 1 else 's'}" for c in conds) + " |")
    lines += ["", "Each problem of a first plan in one class (crewgate.substitution): a value's "
              "class is its parameter's kind; `robot` holds the intent codes about robots, "
              "`action` the steps the request did not ask for, ruled out, or left out."]
    return lines


ACROSS = ("workflow_accuracy", "skill_grounding", "plan_executability",
          "false_dispatch_missions", "safety_recall", "mission_success")


def across(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Planners side by side, per condition they share: the main proportions and every
    substitution class, each with its Fisher p against the first planner."""
    names = list(results)
    shared = [c for c in ordered(list(results[names[0]]["conditions"]))
              if all(c in results[n]["conditions"] for n in names)]
    out: dict[str, Any] = {}
    for cond in shared:
        base = results[names[0]]["conditions"][cond]
        rows: dict[str, Any] = {}
        for name in names:
            cs = results[name]["conditions"][cond]
            row = {m: _vs(cs[m], base[m], name == names[0]) for m in ACROSS}
            subs = cs.get("substitutions", {}).get("missions", {})
            row.update({f"substitution: {k}": _vs(subs[k], base["substitutions"]["missions"][k],
                                                  name == names[0])
                        for k in CLASSES if k in subs})
            rows[name] = row
        out[cond] = rows
    return out


def _vs(metric: dict[str, Any], base: dict[str, Any], first: bool) -> dict[str, Any]:
    p = None if first else fisher_p(Proportion(metric["k"], metric["n"], None),
                                    Proportion(base["k"], base["n"], None))
    return {**metric, "p_vs_first": p}


def across_markdown(results: dict[str, dict[str, Any]], table: dict[str, Any]) -> str:
    names = list(results)
    first = results[names[0]]
    lines = [f"# {first['crew']}: planners side by side on the {first['suite']} suite", "",
             f"Planners: {', '.join(names)}. Proportions with 95% Wilson intervals and k/n; p: "
             f"two-sided Fisher exact test against {names[0]}. Substitution rows: missions "
             "whose first plan had a problem of that class.", ""]
    for cond, rows in table.items():
        metrics = list(next(iter(rows.values())))
        metrics = [m for m in metrics if not m.startswith("substitution: ") or any(
            rows[n][m]["k"] for n in names)]
        lines += [f"## Condition {cond}", "", "| metric | " + " | ".join(names) + " |",
                  "|---" * (len(names) + 1) + "|"]
        for m in metrics:
            label = LABELS.get(m, m)
            cells = []
            for n in names:
                p = rows[n][m]["p_vs_first"]
                shown = "" if p is None else (f"<br>p={p:.2g}" if p >= 1e-4 else "<br>p<1e-4")
                cells.append(cell(rows[n][m]) + shown)
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def calls_section(metrics: dict[str, Any]) -> list[str]:
    """report.md's planner calls: answers, cache, retries, errors, tokens and cost per
    condition; nothing for a planner that reports no tokens and never failed."""
    conds = ordered(list(metrics["conditions"]))
    cs = {c: metrics["conditions"][c] for c in conds}
    toks = {c: cs[c].get("tokens") or {} for c in conds}
    if not any(t.get("total") or t.get("retries") or t.get("cached") for t in toks.values()) \
            and not any(cs[c].get("planner_error", {}).get("k") for c in conds):
        return []
    priced = any("cost" in cs[c] for c in conds)
    head = "| condition | answers | from cache | retries | no answer | input tokens | " \
        "output tokens |" + (" cost |" if priced else "")
    lines = ["", "## Planner calls", "", head, "|---" * (8 if priced else 7) + "|"]
    for c in conds:
        t = toks[c]
        row = [c, str(t.get("answers", 0)), str(t.get("cached", 0)), str(t.get("retries", 0)),
               str(cs[c].get("planner_error", {}).get("k", 0)), f"{t.get('input', 0):,}",
               f"{t.get('output', 0):,}"]
        if priced:
            spent = cs[c].get("cost")
            row.append("no price" if spent is None else
                       f"{spent['total']:.4f} {spent['currency']}")
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Tokens as the planner's server reported them, for every answer a mission "
              "was given (answers from the response cache included: they were paid when first "
              "asked); held-plan conditions share one sampled answer per scenario."]
    return lines


def latex(metrics: dict[str, Any]) -> str:
    conds = ordered(list(metrics["conditions"]))
    cs = metrics["conditions"]
    head = " & ".join(_tex(c) for c in conds)
    lines = [r"\begin{table}[t]", r"\centering", r"\small",
             rf"\caption{{{_tex(str(metrics['crew']))}: {_tex(str(metrics['planner']))} on the "
             rf"{_tex(str(metrics['suite']))} suite. Rates with 95\% Wilson intervals; "
             r"$^{*}$: $p<0.05$ against \texttt{ro} (Fisher exact).}",
             r"\begin{tabular}{l" + "c" * len(conds) + "}", r"\toprule",
             rf"Metric & {head} \\", r"\midrule"]
    for name in shown_metrics(metrics):
        row = []
        for c in conds:
            m = cs[c][name]
            star = "$^{*}$" if m.get("p_vs_ro") is not None and m["p_vs_ro"] < 0.05 else ""
            if "k" in m:
                row.append("n/a" if m["rate"] is None else
                           rf"{100 * m['rate']:.1f}{star} {{\scriptsize[{100 * m['ci'][0]:.0f}, "
                           rf"{100 * m['ci'][1]:.0f}]}}")
            else:
                row.append("n/a" if m["mean"] is None else f"{m['mean']:.3g}")
        lines.append(rf"{_tex(LABELS[name])} & " + " & ".join(row) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(lines)


def _tex(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("_", r"\_"), ("%", r"\%"), ("&", r"\&"),
                 ("#", r"\#"), ("$", r"\$")):
        text = text.replace(a, b)
    return text
