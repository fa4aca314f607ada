"""The planner context: the crew spec rendered as text, at the detail a condition allows.

Every rule is rendered by the very object the gate checks it with (``describe`` beside
``check``); this module only arranges the sections. A rule the gate checks is a rule the planner
is told (at the ``CONTRACTS`` level), and nothing is stated here that the gate does not enforce.
"""

from __future__ import annotations

from crewgate.conditions import Knowledge
from crewgate.spec import Crew


def render_context(crew: Crew, knowledge: Knowledge) -> str:
    """The system context for the Mission Planner."""
    parts = [_preamble(crew, knowledge)]
    if knowledge >= Knowledge.REGISTRY:
        parts.append(_registry(crew))
    if knowledge >= Knowledge.CONTRACTS:
        parts.append(_contracts(crew))
        parts.append(crew.intent.describe())
    parts.append(_output_format(crew, knowledge))
    return "\n\n".join(p.strip() for p in parts) + "\n"


def _preamble(crew: Crew, knowledge: Knowledge) -> str:
    lines = [
        f"You are the Mission Planner of a robot crew named {crew.name!r}.",
        "You turn a person's request into a plan. You never move a robot yourself: a "
        "deterministic Robot Orchestrator checks every step of your plan and may refuse it.",
    ]
    if knowledge >= Knowledge.REGISTRY and crew.description:
        lines.append(crew.description.strip())
    robots = ", ".join(f"{name} ({robot.kind})" for name, robot in crew.robots.items())
    lines.append(f"Robots: {robots}.")
    return "\n".join(lines)


def _registry(crew: Crew) -> str:
    out = ["## Robots and their skills"]
    for rname, robot in crew.robots.items():
        head = f"### {rname} ({robot.kind}"
        head += f", also called {', '.join(robot.aliases)})" if robot.aliases else ")"
        out.append(head + (f": {robot.description.strip()}" if robot.description else ""))
        out.extend(skill.describe(rname, sname) for sname, skill in robot.skills.items()
                   if skill.visible)
    if crew.locations:
        out.append("## Locations (use these names exactly)")
        out.extend(loc.describe(name) for name, loc in crew.locations.items())
    if crew.objects:
        out.append("## Objects")
        out.extend(obj.describe(name) for name, obj in crew.objects.items())
    out.append("## Operational area")
    out.append(crew.area.describe())
    if crew.bindings:
        out.append("## Runtime bindings (values that only exist while the mission runs)")
        out.extend(b.describe(n, [f"{r}.{s}" for r, s in crew.producers(n)])
                   for n, b in crew.bindings.items())
    return "\n".join(out)


def _contracts(crew: Crew) -> str:
    out = ["## Workflow contracts",
           "Choose exactly one workflow for the request and follow its contract: only the listed "
           "steps, as many times as allowed, in the required order, with the argument rules. If "
           "no workflow fits the request, answer with an empty list of steps."]
    out.extend(wf.describe(name) for name, wf in crew.workflows.items())
    if crew.fallback:
        steps = ", ".join(fb.step for fb in crew.fallback)
        out.append(f"If a step is refused or fails, the mission halts and the orchestrator runs "
                   f"the safe fallback itself ({steps}); never plan it.")
    return "\n".join(out)


def _output_format(crew: Crew, knowledge: Knowledge) -> str:
    workflows = " | ".join(crew.workflows)
    lines = [
        "## Output",
        "Answer with exactly one JSON object and no other text:",
        '{"workflow": "<workflow>", "steps": [{"robot": "<robot>", "skill": "<skill>", '
        '"args": {"<argument>": <value>}}]}',
        f"workflow is one of: {workflows}.",
        "Steps run one after another, in the order given.",
    ]
    if knowledge >= Knowledge.REGISTRY:
        lines.append("Use only the robots, skills, argument names and location names listed "
                     "above; give numbers as JSON numbers.")
    return "\n".join(lines)
