"""The Crew: the single source of truth that the planner context and the gate are both built from.

Field-level validation is pydantic's; cross-references (a workflow naming a skill, a precondition
naming a state field ...) are checked here, all at once, each problem with its path in the file.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cached_property

from pydantic import Field, model_validator

from crewgate.errors import did_you_mean
from crewgate.spec.base import Name, SpecModel, SpecPath, split_ref
from crewgate.spec.expressions import Condition, Ref
from crewgate.spec.fallback import FallbackStep
from crewgate.spec.params import CrewContext, on_new_kind
from crewgate.spec.places import Areas, Binding, CrewObject, Location
from crewgate.spec.robots import Robot, Skill
from crewgate.spec.ros2 import Ros2Section
from crewgate.spec.simulation import SimSection
from crewgate.spec.workflow import Workflow

Path = SpecPath


class CrossReferenceError(ValueError):
    """Raised by Crew validation with every broken reference and its path."""

    def __init__(self, problems: list[tuple[Path, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{'.'.join(map(str, p))}: {m}" for p, m in problems))


class Crew(SpecModel):
    """A crew of robots, what they can do, where, and the workflows they may run."""

    name: Name = Field(description="Short name used on the command line, e.g. sar.")
    title: str = Field("", description="One-line human title.")
    description: str = Field("", description="What the crew is for, shown to the planner.")
    area: Areas = Field(description="The operational area and keep-out zones.")
    locations: dict[Name, Location] = Field(
        default_factory=dict, description="Named places plans may refer to.")
    objects: dict[Name, CrewObject] = Field(
        default_factory=dict, description="Named objects robots may manipulate.")
    robots: dict[Name, Robot] = Field(min_length=1, description="The crew's robots, by name.")
    bindings: dict[Name, Binding] = Field(
        default_factory=dict, description="Values that only exist at run time (a victim fix).")
    workflows: dict[Name, Workflow] = Field(
        min_length=1, description="The workflow contracts: the only shapes a mission may take.")
    fallback: list[FallbackStep] = Field(
        default_factory=list, description="The safe fallback run when a mission halts."
    )
    sim: SimSection | None = Field(None, description="Built-in simulator configuration.")
    ros2: Ros2Section | None = Field(
        None, description="ROS 2 wiring (default: every robot speaks crewgate's protocol).")

    @model_validator(mode="after")
    def _cross_references(self) -> Crew:
        problems = list(_problems(self))
        if problems:
            raise CrossReferenceError(problems)
        return self

    def skill(self, robot: str, skill: str) -> Skill | None:
        r = self.robots.get(robot)
        return r.skills.get(skill) if r else None

    def producers(self, binding: str) -> list[tuple[str, str]]:
        """Robot-skill pairs that publish a binding."""
        return [(rn, sn) for rn, r in self.robots.items() for sn, s in r.skills.items()
                if binding in s.produces]

    @cached_property
    def context(self) -> CrewContext:
        """What parameter kinds need of the crew (areas, location and object names)."""
        return CrewContext.of(self)


def _problems(crew: Crew) -> Iterator[tuple[Path, str]]:
    yield from _alias_problems(crew)
    for rname, robot in crew.robots.items():
        for sname, skill in robot.skills.items():
            yield from _skill_problems(crew, rname, sname, skill)
    for wname, wf in crew.workflows.items():
        yield from _workflow_problems(crew, wname, wf)
    for i, fb in enumerate(crew.fallback):
        rname, sname = split_ref(fb.step)
        if crew.skill(rname, sname) is None:
            yield ("fallback", i, "step"), f"{fb.step!r} is not a skill of the crew"
        elif fb.when is not None:
            yield from _condition_problems(crew, rname, None, fb.when, ("fallback", i, "when"))
    if crew.sim is not None:
        yield from _sim_problems(crew, crew.sim)
    if crew.ros2 is not None:
        yield from _ros2_problems(crew, crew.ros2)


def _names(kind: str, name: str, known: Mapping[str, object] | list[str]) -> str:
    return f"unknown {kind} {name!r}{did_you_mean(name, list(known))}"


def _alias_problems(crew: Crew) -> Iterator[tuple[Path, str]]:
    seen: dict[str, str] = {}
    for section, entries in (("locations", crew.locations), ("objects", crew.objects)):
        for name, entry in entries.items():
            for i, word in enumerate([name.replace("_", " "), *entry.aliases]):
                key = " ".join(word.lower().replace("_", " ").split())
                if key in seen and seen[key] != name:
                    path: Path = (section, name) if i == 0 else (section, name, "aliases", i - 1)
                    yield path, f"{word!r} already names {seen[key]!r}; names must be unambiguous"
                seen[key] = name


def _skill_problems(crew: Crew, rname: str, sname: str, skill: Skill) -> Iterator[tuple[Path, str]]:
    base: Path = ("robots", rname, "skills", sname)
    for pname, param in skill.params.items():
        yield from param.problems(crew, (*base, "params", pname))
    for i, cond in enumerate(skill.preconditions):
        yield from _condition_problems(crew, rname, skill, cond, (*base, "preconditions", i))
    for key, value in skill.effects.items():
        robot, _, field = key.rpartition(".")
        target = robot or rname
        path = (*base, "effects", key)
        if target not in crew.robots:
            yield path, _names("robot", target, crew.robots)
        elif field not in crew.robots[target].state and field != "available":
            yield path, f"{target} has no state field {field!r}; declare it under state"
        if isinstance(value, Ref):
            yield from _ref_problems(crew, rname, skill, value, path)
    for i, name in enumerate(skill.produces):
        if name not in crew.bindings:
            yield (*base, "produces", i), _names("binding", name, crew.bindings)


def _condition_problems(
    crew: Crew, rname: str, skill: Skill | None, cond: Condition, path: Path
) -> Iterator[tuple[Path, str]]:
    robot = cond.robot or rname
    if robot not in crew.robots:
        yield path, _names("robot", robot, crew.robots)
    elif cond.field != "available" and cond.field not in crew.robots[robot].state:
        yield path, f"{robot} has no state field {cond.field!r}; declare it under state"
    if isinstance(cond.value, Ref):
        yield from _ref_problems(crew, rname, skill, cond.value, path)


def _ref_problems(
    crew: Crew, rname: str, skill: Skill | None, ref: Ref, path: Path
) -> Iterator[tuple[Path, str]]:
    if ref.robot is not None:
        robot = crew.robots.get(ref.robot)
        if robot is None:
            yield path, _names("robot", ref.robot, crew.robots)
        elif ref.name not in robot.state and ref.name != "available":
            yield path, f"{ref.robot} has no state field {ref.name!r}"
        return
    # $name is the skill's parameter when it has one, else the robot's own state field
    in_params = skill is not None and ref.name in skill.params
    in_state = ref.name in crew.robots[rname].state
    if not in_params and not in_state:
        yield path, f"{ref} names neither a parameter of the skill nor a state field of {rname}"


def _workflow_problems(crew: Crew, wname: str, wf: Workflow) -> Iterator[tuple[Path, str]]:
    base: Path = ("workflows", wname)
    for i, robot in enumerate(wf.robots):
        if robot not in crew.robots:
            yield (*base, "robots", i), _names("robot", robot, crew.robots)
    for ref, rule in wf.steps.items():
        rname, sname = split_ref(ref)
        skill = crew.skill(rname, sname)
        path = (*base, "steps", ref)
        if skill is None:
            yield path, f"{ref!r} is not a skill of the crew"
            continue
        if rname not in wf.robots:
            yield path, f"robot {rname!r} takes a step but is not listed under robots"
        for pname, arg in rule.args.items():
            param = skill.params.get(pname)
            apath = (*path, "args", pname)
            if param is None:
                yield apath, _names(f"parameter of {ref}", pname, skill.params)
                continue
            if arg.bind is not None and not param.accepts_binding(arg.bind):
                yield apath, f"bind: {arg.bind!r} needs a binding parameter that accepts it"
            if arg.range is not None and not param.numeric:
                yield apath, "range applies to number and integer parameters only"
            if arg.from_request and not param.stated:
                yield apath, (f"from_request: a {param.type} parameter is never stated in a "
                              "request")


def _sim_problems(crew: Crew, sim: SimSection) -> Iterator[tuple[Path, str]]:
    if sim.default_world not in sim.worlds:
        yield ("sim", "default_world"), _names("world", sim.default_world, sim.worlds)
    for rname, body in sim.robots.items():
        if rname not in crew.robots:
            yield ("sim", "robots", rname), _names("robot", rname, crew.robots)
            continue
        if isinstance(body.spawn, str) and body.spawn not in crew.locations:
            yield ("sim", "robots", rname, "spawn"), _names("location", body.spawn, crew.locations)
        for skill in body.actions:
            if skill not in crew.robots[rname].skills:
                yield ("sim", "robots", rname, "actions", skill), _names(
                    f"skill of {rname}", skill, crew.robots[rname].skills)
    for rname in crew.robots:
        if rname not in sim.robots:
            yield ("sim", "robots"), f"robot {rname!r} has no simulated body; add it here"
    holders = set(crew.locations) | set(crew.robots)
    for wname, world in sim.worlds.items():
        for obj, where in world.objects.items():
            if obj not in crew.objects:
                yield ("sim", "worlds", wname, "objects", obj), _names("object", obj, crew.objects)
            if where not in holders:
                yield ("sim", "worlds", wname, "objects", obj), _names(
                    "location or robot", where, sorted(holders))
        for rname, spawn in world.spawn.items():
            if rname not in crew.robots:
                yield ("sim", "worlds", wname, "spawn", rname), _names("robot", rname, crew.robots)
            elif isinstance(spawn, str) and spawn not in crew.locations:
                yield ("sim", "worlds", wname, "spawn", rname), _names(
                    "location", spawn, crew.locations)
        if world.requester is not None and world.requester not in crew.locations:
            yield ("sim", "worlds", wname, "requester"), _names(
                "location", world.requester, crew.locations)


def _ros2_problems(crew: Crew, ros2: Ros2Section) -> Iterator[tuple[Path, str]]:
    for rname, robot in ros2.robots.items():
        if rname not in crew.robots:
            yield ("ros2", "robots", rname), _names("robot", rname, crew.robots)
            continue
        for sname, wiring in robot.skills.items():
            path: Path = ("ros2", "robots", rname, "skills", sname)
            skill = crew.skill(rname, sname)
            if skill is None:
                yield path, _names(f"skill of {rname}", sname, crew.robots[rname].skills)
                continue
            for field_path, value in wiring.fields.items():
                if isinstance(value, str) and value.startswith("$"):
                    param = value[1:].split(".")[0]
                    if param not in skill.params:
                        yield (*path, "fields", field_path), _names(
                            f"parameter of {rname}.{sname}", param, skill.params)
            if wiring.done_when is not None:
                yield from _condition_problems(crew, rname, skill, wiring.done_when,
                                               (*path, "done_when"))
    for bname in ros2.bindings:
        if bname not in crew.bindings:
            yield ("ros2", "bindings", bname), _names("binding", bname, crew.bindings)


def _rebuild() -> None:
    Crew.model_rebuild(force=True)


on_new_kind(_rebuild)
__all__ = ["Crew", "CrossReferenceError", "Name"]
