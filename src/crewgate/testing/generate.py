"""Generated crews, for tests and benchmarks at scale: R robots, S skills, W workflows, L
locations, valid by construction, with example requests and the plans that answer them.

Deterministic for a seed. Names read like a real crew's (``r7``, ``inspect_valve_12``,
``bay_3``), so that a retriever, a planner or a person can tell them apart by their words. Every
robot can move to a named location; every workflow sends one robot somewhere and has it do one
task there (a request such as "Send r7 to bay_3 and inspect valve 12."), so each workflow's plan
is known and the gate can be measured on plans it accepts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import yaml

KINDS = ("rover", "drone", "arm", "forklift", "quadruped", "humanoid")
VERBS = ("inspect", "clean", "scan", "tighten", "photograph", "measure", "sample", "paint",
         "sort", "label", "weigh", "count", "repair", "lubricate", "calibrate", "seal")
NOUNS = ("valve", "pipe", "panel", "tank", "pump", "door", "crate", "shelf", "sensor", "fan",
         "cable", "hatch", "filter", "gauge", "belt", "motor")
PLACES = ("bay", "dock", "yard", "lab", "gate", "hall", "depot", "annex")
MAX_ROBOTS, MAX_SKILLS, MAX_WORKFLOWS, MAX_LOCATIONS = 1_000, 100_000, 10_000, 10_000


@dataclass(frozen=True, slots=True)
class Example:
    """A request for a generated workflow and the plan that answers it."""

    workflow: str
    request: str
    plan: dict[str, Any]
    robots: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Generated:
    spec: dict[str, Any]
    examples: tuple[Example, ...]

    def yaml(self) -> str:
        return yaml.safe_dump(self.spec, sort_keys=False, width=100)


def generate_crew(robots: int, skills: int, workflows: int, *, locations: int = 20,
                  seed: int = 0, name: str | None = None) -> Generated:
    """A valid crew of ``robots`` robots sharing ``skills`` skills (each robot also has
    ``move_to``), ``workflows`` workflows and ``locations`` named locations."""
    _bounded("robots", robots, 1, MAX_ROBOTS)
    _bounded("skills", skills, robots, MAX_SKILLS)
    _bounded("workflows", workflows, 1, MAX_WORKFLOWS)
    _bounded("locations", locations, 1, MAX_LOCATIONS)
    rng = random.Random(seed)
    places = [f"{PLACES[i % len(PLACES)]}_{i // len(PLACES) + 1}" for i in range(locations)]
    crew: dict[str, Any] = {
        "name": name or f"gen_r{robots}_s{skills}_w{workflows}",
        "title": f"A generated crew: {robots} robots, {skills} skills, {workflows} workflows",
        "description": "A generated crew for tests and benchmarks at scale.",
        "area": {"operational": {"x": [0, 100], "y": [0, 100]}},
        "locations": {p: {"pose": [round(rng.uniform(1, 99), 2), round(rng.uniform(1, 99), 2)]}
                      for p in places},
        "robots": {},
        "workflows": {},
    }
    tasks: dict[str, list[str]] = {}
    per_robot = [skills // robots + (1 if i < skills % robots else 0) for i in range(robots)]
    serial = 0
    for i in range(robots):
        rname = f"r{i + 1}"
        library: dict[str, Any] = {"move_to": {
            "description": "Drive or fly to a named location.",
            "params": {"location": {"type": "location"}},
            "effects": {"location": "$location"}, "duration_s": 5, "timeout_s": 60}}
        names: list[str] = []
        for _ in range(per_robot[i]):
            verb, noun = VERBS[serial % len(VERBS)], NOUNS[(serial // len(VERBS)) % len(NOUNS)]
            serial += 1
            sname = f"{verb}_{noun}_{serial}"
            library[sname] = {"description": f"{verb.capitalize()} {noun} {serial} where the "
                              "robot stands.", "duration_s": 2, "timeout_s": 30}
            names.append(sname)
        tasks[rname] = names
        crew["robots"][rname] = {
            "kind": KINDS[i % len(KINDS)],
            "description": f"Robot {i + 1} of the generated crew.",
            "state": {"location": {"type": "location", "default": places[i % len(places)]}},
            "skills": library}
    examples: list[Example] = []
    robot_names = list(crew["robots"])
    for w in range(workflows):
        rname = robot_names[w % len(robot_names)]
        pool = tasks[rname] or []
        if not pool:
            continue
        task = pool[(w // len(robot_names)) % len(pool)]
        verb, noun, number = task.split("_")
        place = places[rng.randrange(len(places))]
        wname = f"{verb}_{noun}_{number}_job"
        request = f"Send {rname} to {place} and {verb} {noun} {number}."
        crew["workflows"][wname] = {
            "description": f"{rname} goes to a place and does {verb} {noun} {number} there.",
            "examples": [request, f"{rname}: {verb} {noun} {number} at "
                         f"{places[(w + 1) % len(places)]}."],
            "robots": [rname],
            "steps": {f"{rname}.move_to": {"count": 1, "args": {
                "location": {"from_request": True}}}, f"{rname}.{task}": {"count": 1}},
            "order": [{"first": f"{rname}.move_to", "then": f"{rname}.{task}",
                       "why": "there first"}]}
        plan = {"workflow": wname, "steps": [
            {"robot": rname, "skill": "move_to", "args": {"location": place}},
            {"robot": rname, "skill": task, "args": {}}]}
        examples.append(Example(wname, request, plan, (rname,)))
    # the built-in simulator runs it: generic bodies that take their skills' time
    crew["sim"] = {"default_world": "plant", "worlds": {"plant": {}}, "robots": {
        r: {"model": "generic", "spawn": places[i % len(places)]}
        for i, r in enumerate(robot_names)}}
    return Generated(crew, tuple(examples))


def _bounded(what: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise ValueError(f"{what} must be between {low} and {high}, not {value}")


__all__ = ["Example", "Generated", "generate_crew"]
