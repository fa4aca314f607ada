"""Rich rendering of verdicts, live mission timelines, outcomes and traces."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from crewgate.gate.verdict import PlanVerdict
from crewgate.journal import Event, EventKind
from crewgate.orchestrator.result import MissionResult

_KIND_STYLE: dict[EventKind, tuple[str, str]] = {
    EventKind.MISSION_STARTED: ("▶", "bold"), EventKind.PLAN_PROPOSED: ("✎", "cyan"),
    EventKind.PLANNER_ERROR: ("✖", "red"), EventKind.VERDICT: ("⚖", "cyan"),
    EventKind.REPLAN: ("↻", "yellow"), EventKind.REFUSAL: ("✖", "bold red"),
    EventKind.AUTHORIZATION: ("✔", "green"), EventKind.DISPATCH: ("→", "blue"),
    EventKind.SENT: ("↗", "blue"),
    EventKind.RESULT: ("■", "blue"), EventKind.HALT: ("⏹", "bold red"),
    EventKind.FALLBACK: ("⚠", "yellow"), EventKind.MISSION_ENDED: ("●", "bold"),
    EventKind.APPROVAL: ("✋", "magenta"), EventKind.LEASE: ("⚿", "dim"),
    EventKind.NOTE: ("·", "dim"),
}


def print_verdict(console: Console, verdict: PlanVerdict) -> None:
    state = "[bold green]ACCEPTED[/]" if verdict.accepted else "[bold red]REFUSED[/]"
    console.print(f"{state}  workflow: {escape(verdict.workflow or '(none)')}")
    for p in verdict.problems:
        console.print(f"  plan: [red]{p.code.value}[/] {escape(p.detail)}")
    table = Table(show_header=True, header_style="bold")
    for col in ("#", "step", "verdict"):
        table.add_column(col)
    for s in verdict.steps:
        detail = "ok" if s.ok else "\n".join(f"[red]{p.code.value}[/] {escape(p.detail)}"
                                             for p in s.problems)
        if s.deferred:
            detail += f" [dim](checked at dispatch: {escape(', '.join(s.deferred))})[/]"
        table.add_row(str(s.index), escape(f"{s.robot}.{s.skill}"), detail)
    if verdict.steps:
        console.print(table)


def event_line(event: Event) -> str:
    icon, style = _KIND_STYLE.get(event.kind, ("·", ""))
    t = f"{event.t:7.2f}s" if event.t is not None else "        "
    step = f"[{event.step}] " if event.step is not None else ""
    what = escape(f"{event.robot}.{event.skill} ") if event.robot else ""
    codes = f" [red]{escape(', '.join(event.codes))}[/]" if event.codes else ""
    try:
        detail = _detail(event)
    except (AttributeError, KeyError, TypeError, ValueError):  # a row edited by hand
        detail = f"{event.detail} (its data is not as crewgate writes it)"
    if "damaged" in event.data:
        detail += f" (damaged row: {event.data['damaged']})"
    return f"[dim]{t}[/] [{style}]{icon} {event.kind:<13}[/] {step}{what}{escape(detail)}{codes}"


def _detail(event: Event) -> str:
    """What the event says, read from its data as crewgate writes it."""
    detail = event.detail
    if event.kind == "plan_proposed":
        detail = _plan_summary(event.data)
    elif event.kind == "verdict":
        detail = f"attempt {event.data.get('attempt')}: {event.detail}" + _facts(event.data)
    elif event.kind == "dispatch":
        detail = _args(event.data.get("args", {}))
    elif event.kind == "authorization" and event.data.get("bindings"):
        bound = event.data["bindings"].items()
        detail += " " + ", ".join(_binding(n, b) for n, b in bound)
    elif event.kind == "result" and event.detail in ("succeeded", ""):
        detail = " ".join(filter(None, ["succeeded", _result(event.data.get("result", {}))]))
    elif event.kind == "result":
        detail = f"failed: {event.detail}"
    elif event.kind == "replan":
        detail = "asking the planner once more, with the gate's feedback"
    elif event.kind == "refusal" and event.data.get("problems"):
        detail += ": " + "; ".join(str(p.get("detail", "")) for p in event.data["problems"])
    return str(detail)


def _facts(verdict: dict[str, Any]) -> str:
    """Each problem of a verdict with the fact it is about: a refusal names its reason."""
    problems = [*verdict.get("problems", []),
                *(p for s in verdict.get("steps", []) for p in s.get("problems", []))]
    return "".join(f"; {_at(p.get('index'))}{p.get('code')}: {p.get('detail', '')}"
                   for p in problems)


def _at(index: int | None) -> str:
    return "" if index is None else f"[{index}] "


def _binding(name: str, b: dict[str, Any]) -> str:
    value = b.get("value") or []
    age = f", {b['age_s']:.1f} s old" if b.get("age_s") is not None else ""
    return f"{name} = {_short(value)}{age}"


def _result(result: dict[str, Any]) -> str:
    if not result:
        return ""
    return "(" + ", ".join(f"{k}={_short(v)}" for k, v in result.items()) + ")"


def _plan_summary(data: dict[str, Any]) -> str:
    plan = data.get("plan")
    if not plan:
        return "no plan could be read from the planner's output"
    steps = ", ".join(f"{s['robot']}.{s['skill']}" for s in plan["steps"])
    if plan.get("workflow") is None and not steps:
        note = data.get("note")
        return f"no plan: {note}" if note else "no plan (no workflow, no steps)"
    return f"{plan.get('workflow') or '(no workflow)'}: {steps or '(no steps)'}"


def _args(args: dict[str, Any]) -> str:
    return "(" + ", ".join(f"{k}={_short(v)}" for k, v in args.items()) + ")"


def _short(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(f"{x:g}" if isinstance(x, float) else str(x) for x in v) + "]"
    return str(v)


def print_outcome(console: Console, result: MissionResult, clock: str = "simulated", *,
                  planner_load_s: float | None = None) -> None:
    """The mission's end: status, reason, what moved, final state; ``clock`` names the time
    execution was measured in ("simulated", or "real" over ROS 2)."""
    color = {"completed": "green", "refused": "red", "halted": "yellow", "crashed": "bold red",
             "interrupted": "bold red"}[result.status]
    label = result.status.upper()
    if result.status == "completed" and not result.clean:
        color, label = "yellow", "COMPLETED WITH VIOLATIONS OR FAILURES (enforcement off)"
    console.print(f"\n[bold {color}]{label}[/]"
                  + (f"  codes: [red]{escape(', '.join(result.codes))}[/]" if result.codes else "")
                  + (f"\n{escape(result.reason)}" if result.reason else ""))
    for refusal in result.refusals:  # what each refusal is about, not only its code
        for problem in refusal.problems:
            console.print(f"  [red]{problem.code.value}[/] {escape(problem.detail)}")
    moved = list(result.dispatched)
    if moved:
        console.print("dispatched: " + ", ".join(
            escape(f"{d.robot}.{d.skill}{'' if d.succeeded else ' (failed)'}")
            + (" \\[fallback]" if d.kind == "fallback" else "") for d in moved))
    else:
        console.print("dispatched: nothing moved")
    outcome = result.outcome
    facts = []
    for key, value in outcome.items():
        if key == "requester_has":
            facts.append("the requester holds " + (", ".join(value) if value else "nothing"))
        elif key.endswith("_m"):
            facts.append(f"{key} = {_short(value)}")
        elif isinstance(value, list) and len(value) == 2 and key not in ("robots",) and all(
                isinstance(v, int | float) for v in value):  # a target of the simulated world
            facts.append(f"{key} at {_short(value)} (the simulator's ground truth)")
    if "objects" in outcome:
        facts.append("objects: " + ", ".join(f"{o} -> {v['holder']}"
                                             + (f" @ {v['location']}" if v.get('location') and
                                                v['location'] != v['holder'] else "")
                                             for o, v in outcome["objects"].items()))
    for robot, state in result.final_state.items():
        shown = {k: v for k, v in state.items() if k != "available" and v is not None}
        facts.append(f"{robot}: " + ", ".join(f"{k} {_short(v)}" for k, v in shown.items())
                     + ("" if state.get("available", True) else " (unavailable)"))
    for f in facts:
        console.print(f"  {escape(f)}")
    loading = "" if planner_load_s is None else (
        f" (+ {planner_load_s * 1000:.0f} ms starting the planner)")
    console.print(f"[dim]planning {result.planning_s * 1000:.1f} ms{loading}, execution "
                  f"{result.execution_s:.1f} s {clock}; mission {result.mission_id} "
                  f"(crewgate trace {result.mission_id})[/]")
