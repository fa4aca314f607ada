"""A seeded plan fuzzer for the gate: hostile variants of real plans, and the invariants a total,
fail-closed gate must keep on every one of them.

Seeds are real plans with their requests: the reference plans of the packaged scenario suites,
and any recorded planner outputs given (the study's corpus). Each fuzzed plan is a seed mutated
a few times: steps dropped, repeated, swapped or taken from another crew's plan; robots, skills
and workflows replaced by other names or junk; arguments replaced by hostile values (huge or
non-finite numbers, deep nesting, markup, control characters, other crew names, points outside
the area, wrong types); or the whole output replaced by damaged text.

Invariants checked per plan (a violation is a bug in the gate):
- the parser and the gate return a verdict, never raise;
- the verdict is JSON without NaN, and every detail is bounded;
- judging the same plan twice gives the same verdict (deterministic);
- an accepted plan names the crew's robots and visible skills, in one of its workflows, with
  arguments the skills accept (every skill's own check finds nothing);
- a sample of accepted plans runs on the simulator, and every step sent was authorized clean.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from crewgate.codes import Findings
from crewgate.gate import Gate, PlanVerdict
from crewgate.plan import Plan, parse_plan
from crewgate.spec import Crew

MAX_DETAIL = 2_000  # characters of one problem's detail

HOSTILE_VALUES: tuple[Any, ...] = (
    10**400, -(10**30), 1e308, float("nan"), float("inf"), -0.0, True, None, "", " ",
    "NaN", "1e999", "[/]", "[bold red]x[/]", "\x00\x1b[2J", "ｒｏｏｍ＿ｂ", "会议室", "x" * 5000,
    [], [1], [1, 2, 3], [[[[[[[[]]]]]]]], {}, {"x": 1, "y": 2}, {"a": {"b": {"c": {}}}},
    -1e9, 1e9, 0, 3, -2, 5.5, 99, "victim", "room_b", "charging", "red cube", "table",
)
DAMAGED_TEXT = (
    "", "{", "}", "null", "[]", "{\"steps\": 3}", "```json\n{\"workflow\": 1}\n```",
    "{" * 2000, "[" * 3000 + "]" * 3000, "not a plan at all", "\x00" * 100,
)


@dataclass(frozen=True, slots=True)
class Seed:
    crew: str
    request: str
    plan: dict[str, Any]


@dataclass(slots=True)
class Tally:
    tried: int = 0
    accepted: int = 0
    refused: int = 0
    executed: int = 0
    exceptions: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"tried": self.tried, "accepted": self.accepted, "refused": self.refused,
                "executed": self.executed, "exceptions": len(self.exceptions),
                "violations": len(self.violations)}


def suite_seeds(crews: Sequence[str]) -> list[Seed]:
    """The reference plans of the packaged suites of these crews."""
    from crewgate.suites.scenarios import load_suite, packaged_suites

    out = []
    for crew in crews:
        for name in packaged_suites():
            if name.startswith(f"{crew}_"):
                for s in load_suite(crew, name[len(crew) + 1:]).scenarios:
                    if s.reference_plan:
                        out.append(Seed(crew, s.request, dict(s.reference_plan)))
    return out


class Fuzzer:
    def __init__(self, crews: dict[str, Crew], seeds: Sequence[Seed], *, seed: int = 0,
                 execute_every: int = 20) -> None:
        self.crews = crews
        self.gates = {name: Gate(crew) for name, crew in crews.items()}
        self.seeds = list(seeds)
        self.rng = random.Random(seed)
        self.execute_every = execute_every
        self.names = sorted({n for c in crews.values() for n in (
            *c.robots, *c.workflows, *c.locations, *c.objects,
            *(s for r in c.robots.values() for s in r.skills))})

    # -- generating -------------------------------------------------------------------------

    def plans(self, n: int) -> Iterator[tuple[Seed, str | dict[str, Any]]]:
        for _ in range(n):
            seed = self.rng.choice(self.seeds)
            if self.rng.random() < 0.03:
                yield seed, self.rng.choice(DAMAGED_TEXT)
                continue
            plan = json.loads(json.dumps(seed.plan))
            for _ in range(self.rng.choice((0, 1, 1, 2, 3))):  # a fifth stay as recorded
                self._mutate(plan)
            yield seed, (plan if self.rng.random() < 0.7 else self._as_text(plan))

    def _as_text(self, plan: dict[str, Any]) -> str:
        text = json.dumps(plan, allow_nan=True, default=str)
        return self.rng.choice([text, f"Here is the plan:\n```json\n{text}\n```\nDone.",
                                text[: self.rng.randint(0, len(text))]])

    def _mutate(self, plan: dict[str, Any]) -> None:
        steps: list[Any] = plan.setdefault("steps", [])
        r = self.rng
        op = r.randrange(8)
        if op == 0 and steps:
            steps.pop(r.randrange(len(steps)))
        elif op == 1 and steps:
            steps.insert(r.randrange(len(steps) + 1), json.loads(json.dumps(r.choice(steps))))
        elif op == 2 and len(steps) > 1:
            i, j = r.sample(range(len(steps)), 2)
            steps[i], steps[j] = steps[j], steps[i]
        elif op == 3:
            other = r.choice(self.seeds).plan.get("steps") or [{}]
            steps.append(json.loads(json.dumps(r.choice(other))))
        elif op == 4 and steps and isinstance(steps[0], dict):
            step = r.choice(steps)
            step[r.choice(["robot", "skill"])] = r.choice([*self.names, *HOSTILE_VALUES[:6]])
        elif op == 5:
            plan["workflow"] = r.choice([*self.names, None, 3, "[/]"])
        elif steps and isinstance(steps[0], dict):
            step = r.choice(steps)
            args = step.setdefault("args", {})
            if isinstance(args, dict):
                key = r.choice([*args, "x", "y", "zone", "location", "object", "altitude"]
                               if args else ["x", "target", "location"])
                args[key] = r.choice(HOSTILE_VALUES)

    # -- checking ---------------------------------------------------------------------------

    def run(self, n: int) -> Tally:
        from crewgate.adapters.sim import SimAdapter

        tally = Tally()
        worlds = {name: SimAdapter(crew).world for name, crew in self.crews.items()}
        for seed, raw in self.plans(n):
            tally.tried += 1
            crew, gate = self.crews[seed.crew], self.gates[seed.crew]
            try:
                parsed = parse_plan(raw)
                verdict = gate.validate(parsed, seed.request, worlds[seed.crew])
                again = gate.validate(parse_plan(raw), seed.request, worlds[seed.crew])
            except Exception as exc:  # the bug this fuzzer looks for
                tally.exceptions.append(f"{type(exc).__name__}: {exc}"[:300])
                continue
            problems = self._violations(crew, parsed, verdict, again)
            tally.violations += problems
            if verdict.accepted:
                tally.accepted += 1
                if isinstance(parsed, Plan) and tally.accepted % self.execute_every == 1:
                    tally.executed += 1
                    tally.violations += self._execute(crew, seed.request, parsed)
            else:
                tally.refused += 1
        return tally

    def _violations(self, crew: Crew, parsed: Any, verdict: PlanVerdict,
                    again: PlanVerdict) -> list[str]:
        out = []
        try:
            json.dumps(verdict.to_json(), allow_nan=False)
        except (ValueError, TypeError) as exc:
            out.append(f"verdict is not plain JSON: {exc}")
        if verdict.to_json() != again.to_json():
            out.append("the same plan judged twice gave two verdicts")
        out += [f"a detail of {len(p.detail)} characters" for p in verdict.all_problems
                if len(p.detail) > MAX_DETAIL]
        if verdict.accepted and isinstance(parsed, Plan):
            if parsed.workflow not in crew.workflows:
                out.append(f"accepted with workflow {parsed.workflow!r}")
            for step in parsed.steps:
                skill = crew.skill(step.robot, step.skill)
                if skill is None or not skill.visible:
                    out.append(f"accepted {step.ref}, not a visible skill")
                    continue
                f = Findings(0)
                if skill.check(step.args, crew.context, f, step.ref) is None or f:
                    out.append(f"accepted {step.ref} with arguments its skill refuses")
        return out

    def _execute(self, crew: Crew, request: str, plan: Plan) -> list[str]:
        from crewgate.api import run_mission
        from crewgate.journal import Journal
        from crewgate.planners import ScriptedPlanner

        result = run_mission(crew, request, ScriptedPlanner([plan.to_json()]),
                             journal=Journal(":memory:"))
        return [f"{d.robot}.{d.skill} sent with codes {d.codes}"
                for d in result.dispatched if d.codes]
