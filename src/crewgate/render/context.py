"""The planner context: the crew spec rendered as text, at the detail a condition allows.

Rendered from the same spec objects the gate is compiled from: a rule the gate checks is a rule
the planner is told (at the ``CONTRACTS`` level), and nothing is stated here that the gate does
not enforce.
"""

from __future__ import annotations

from crewgate.conditions import Knowledge
from crewgate.render.describe import (
    describe_arg_rule,
    describe_binding,
    describe_location,
    describe_skill,
)
from crewgate.spec import Crew


def render_context(crew: Crew, knowledge: Knowledge) -> str:
    """The system context for the Mission Planner."""
    parts = [_preamble(crew, knowledge)]
    if knowledge >= Knowledge.REGISTRY:
        parts.append(_registry(crew))
    if knowledge >= Knowledge.CONTRACTS:
        parts.append(_contracts(crew))
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
        for sname, skill in robot.skills.items():
            if skill.visible:
                out.append(describe_skill(rname, sname, skill))
    if crew.locations:
        out.append("## Locations (use these names exactly)")
        out.extend(describe_location(n, loc) for n, loc in crew.locations.items())
    if crew.objects:
        out.append("## Objects")
        for name, obj in crew.objects.items():
            names = ", ".join(repr(a) for a in obj.aliases)
            also = f" (also called {names})" if obj.aliases else ""
            desc = f": {obj.description}" if obj.description else ""
            out.append(f"- {name}{also}{desc}")
    op = crew.area.operational
    out.append("## Operational area")
    out.append(f"x in [{op.x[0]:g}, {op.x[1]:g}] m, y in [{op.y[0]:g}, {op.y[1]:g}] m. Every "
               "point and zone in a plan must lie inside it.")
    for zone in crew.area.keep_out:
        out.append(f"- keep out of {zone.name}: x in [{zone.x[0]:g}, {zone.x[1]:g}], "
                   f"y in [{zone.y[0]:g}, {zone.y[1]:g}]")
    if crew.bindings:
        out.append("## Runtime bindings (values that only exist while the mission runs)")
        out.extend(describe_binding(n, b, crew) for n, b in crew.bindings.items())
    return "\n".join(out)


def _contracts(crew: Crew) -> str:
    out = ["## Workflow contracts",
           "Choose exactly one workflow for the request and follow its contract: only the listed "
           "steps, as many times as allowed, in the required order, with the argument rules. If "
           "no workflow fits the request, answer with an empty list of steps."]
    for wname, wf in crew.workflows.items():
        out.append(f"### {wname}: {wf.description.strip()}")
        out.append(f"Robots: {', '.join(wf.robots)}.")
        out.append("Steps:")
        for ref, rule in wf.steps.items():
            line = f"- {ref}: {rule.count.describe()}"
            if rule.description:
                line += f", {rule.description}"
            rules = [describe_arg_rule(p, a) for p, a in rule.args.items()]
            if rules:
                line += "; " + "; ".join(rules)
            out.append(line)
        if wf.min_steps > 1 or (wf.min_steps == 1 and all(r.count.low == 0
                                                          for r in wf.steps.values())):
            out.append(f"At least {wf.min_steps} step(s).")
        for order in wf.order:
            why = f" ({order.why})" if order.why else ""
            out.append(f"- {order.then} only after {order.first} has completed{why}")
        if wf.partial:
            out.append("A step whose robot is unavailable is skipped; the other steps still run.")
        if wf.examples:
            out.append("Example requests: " + " | ".join(repr(e) for e in wf.examples))
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
