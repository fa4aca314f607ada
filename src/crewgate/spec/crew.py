"""The Crew: the single source of truth that the planner context and the gate are both built from.

Field-level validation is pydantic's; cross-references (a workflow naming a skill, a precondition
naming a state field ...) are checked here, all at once, each problem with its path in the file.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cached_property
from typing import Any, TypeVar

from pydantic import Field, ModelWrapValidatorHandler, ValidationError, model_validator
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import InitErrorDetails

from crewgate.errors import did_you_mean
from crewgate.spec.base import Name, SpecModel, SpecPath, SpecProblems, init_error, split_ref
from crewgate.spec.contracts import contract_problems
from crewgate.spec.expressions import OBJECT_FIELD, Condition, Ref
from crewgate.spec.fallback import FallbackStep
from crewgate.spec.intent import Intent
from crewgate.spec.naming import name_problems
from crewgate.spec.params import CrewContext, on_new_kind
from crewgate.spec.places import Areas, Binding, CrewObject, Location
from crewgate.spec.robots import Robot, Skill
from crewgate.spec.sections import Section, registered_sections
from crewgate.spec.workflow import Workflow

Path = SpecPath
S = TypeVar("S", bound=Section)


class CrossReferenceError(SpecProblems):
    """Raised by Crew validation with every broken reference, ambiguous name and unsatisfiable
    contract, each with its path."""


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
    max_steps: int = Field(
        64, ge=1, le=1000,
        description="The longest plan the gate reads; a longer one is refused whole. Every "
        "workflow's required steps and min_steps must fit in it.")
    context_budget: int = Field(
        12_000, ge=1_000, le=2_000_000,
        description="The planner's context budget, in tokens (estimated at 4 characters "
        "each): a crew whose whole context and plan schema fit is shown whole; a larger one is "
        "shown, per request, only the workflows, robots, skills, locations and objects most "
        "relevant to it (retrieval, journaled with each plan). The gate always checks plans "
        "against the whole crew.")
    dispatch_window_s: float = Field(
        0.5, gt=0, le=10,
        description="How long an authorization stays valid: a step not sent within this many "
        "seconds of its authorization must be authorized again.")
    sections: SkipJsonSchema[dict[str, Section]] = Field(
        default_factory=dict, exclude=True,
        description="The backends' sections (sim, ros2 ...), by top-level key; read with "
        "Crew.section(Model).")

    @model_validator(mode="wrap")
    @classmethod
    def _split_sections(cls, data: Any, handler: ModelWrapValidatorHandler[Crew]) -> Crew:
        """Top-level keys of registered backends (``sim``, ``ros2``) are validated by the
        backend's own model; every error, in sections or not, is reported at once."""
        if not isinstance(data, dict):
            return handler(data)
        known = registered_sections()
        sections: dict[str, Section] = {}
        errors: list[InitErrorDetails] = []
        for key, model in known.items():
            if data.get(key) is None:
                continue
            try:
                sections[key] = model.model_validate(data[key])
            except ValidationError as exc:
                errors += [init_error(e, (key,)) for e in exc.errors()]
        core = {k: v for k, v in data.items() if k not in known}
        if "sections" in core:
            errors.append({"type": "extra_forbidden", "loc": ("sections",),
                           "input": core.pop("sections")})
        try:
            crew = handler({**core, "sections": sections})
        except ValidationError as exc:
            raise ValidationError.from_exception_data(
                cls.__name__, [*[init_error(e) for e in exc.errors()], *errors]) from None
        if errors:
            raise ValidationError.from_exception_data(cls.__name__, errors)
        return crew

    def section(self, kind: type[S]) -> S | None:
        """The crew's section of that model (``crew.section(SimSection)``), if it has one."""
        found = self.sections.get(kind.key)
        return found if isinstance(found, kind) else None

    @model_validator(mode="after")
    def _cross_references(self) -> Crew:
        problems = list(_problems(self))
        if problems:
            raise CrossReferenceError(problems)
        return self

    def skill(self, robot: str, skill: str) -> Skill | None:
        r = self.robots.get(robot)
        return r.skills.get(skill) if r else None

    def object_moves(self, robot: str, field: str, before: Any, after: Any,
                     fields: Mapping[str, Any], objects: Mapping[str, Any]) -> dict[str, str]:
        """Where objects go when a robot's object-typed state field changes from ``before`` to
        ``after`` (its other ``fields`` as they are now): the object it now names is held by
        the robot; one it held and let go of is where the robot is (its first location-typed
        field), else with it. The simulator moves objects by this, and the gate predicts."""
        spec = self.robots[robot].state.get(field)
        if spec is None or spec.type != "object" or before == after:
            return {}
        moves: dict[str, str] = {}
        if isinstance(after, str) and after in self.objects:
            moves[after] = robot
        if isinstance(before, str) and before in self.objects and objects.get(before) in (
                robot, None):
            here = [fields.get(f) for f, s in self.robots[robot].state.items()
                    if s.type == "location"]
            moves[before] = next((h for h in here if isinstance(h, str)), robot)
        return moves

    def producers(self, binding: str) -> list[tuple[str, str]]:
        """Robot-skill pairs that publish a binding."""
        return [(rn, sn) for rn, r in self.robots.items() for sn, s in r.skills.items()
                if binding in s.produces]

    @cached_property
    def intent(self) -> Intent:
        """The request as a rule for this crew (its robots, skills, places, objects)."""
        return Intent(self)

    @cached_property
    def context(self) -> CrewContext:
        """What parameter kinds need of the crew (areas, location and object names)."""
        return CrewContext.of(self)


def _problems(crew: Crew) -> Iterator[tuple[Path, str]]:
    yield from name_problems(crew)
    for lname, location in crew.locations.items():
        x, y = location.pose[:2]
        if not crew.area.allows(x, y):  # the area rule would not hold for a plan naming it
            yield ("locations", lname, "pose"), (
                f"({x:g}, {y:g}) is outside the operational area or inside a keep-out zone, "
                "where no plan may send a robot; move the location or widen the area")
    for rname, robot in crew.robots.items():
        for sname, skill in robot.skills.items():
            yield from _skill_problems(crew, rname, sname, skill)
    for wname, wf in crew.workflows.items():
        yield from _workflow_problems(crew, wname, wf)
        yield from contract_problems(crew, wname, wf)
    for i, fb in enumerate(crew.fallback):
        rname, sname = split_ref(fb.step)
        if crew.skill(rname, sname) is None:
            yield ("fallback", i, "step"), f"{fb.step!r} is not a skill of the crew"
        elif fb.when is not None:
            yield from condition_problems(crew, rname, None, fb.when, ("fallback", i, "when"))
    for section in crew.sections.values():
        yield from section.problems(crew)


def unknown_name(kind: str, name: str, known: Mapping[str, object] | list[str]) -> str:
    """"unknown robot 'x' (did you mean ...)", for cross-reference problems."""
    return f"unknown {kind} {name!r}{did_you_mean(name, list(known))}"


def _skill_problems(crew: Crew, rname: str, sname: str, skill: Skill) -> Iterator[tuple[Path, str]]:
    base: Path = ("robots", rname, "skills", sname)
    for pname, param in skill.params.items():
        yield from param.problems(crew, (*base, "params", pname))
    for i, cond in enumerate(skill.preconditions):
        yield from condition_problems(crew, rname, skill, cond, (*base, "preconditions", i))
    for key, value in skill.effects.items():
        robot, _, field = key.rpartition(".")
        target = robot or rname
        path = (*base, "effects", key)
        if target not in crew.robots:
            yield path, unknown_name("robot", target, crew.robots)
        elif field not in crew.robots[target].state and field != "available":
            yield path, f"{target} has no state field {field!r}; declare it under state"
        if isinstance(value, Ref):
            yield from _ref_problems(crew, rname, skill, value, path)
    for i, name in enumerate(skill.produces):
        if name not in crew.bindings:
            yield (*base, "produces", i), unknown_name("binding", name, crew.bindings)


def condition_problems(
    crew: Crew, rname: str, skill: Skill | None, cond: Condition, path: Path
) -> Iterator[tuple[Path, str]]:
    robot = cond.robot or rname
    if cond.robot is not None and (cond.robot.startswith("$") or cond.robot in crew.objects):
        yield from _object_condition_problems(crew, skill, cond, path)
    elif robot not in crew.robots:
        yield path, unknown_name("robot", robot, crew.robots)
    elif cond.field != "available" and cond.field not in crew.robots[robot].state:
        yield path, f"{robot} has no state field {cond.field!r}; declare it under state"
    if isinstance(cond.value, Ref):
        yield from _ref_problems(crew, rname, skill, cond.value, path)


def _object_condition_problems(crew: Crew, skill: Skill | None, cond: Condition, path: Path
                               ) -> Iterator[tuple[Path, str]]:
    """``$param.at`` (the object an argument names) or ``OBJECT.at``: where it is."""
    assert cond.robot is not None
    if cond.field != OBJECT_FIELD:
        yield path, (f"{cond.robot}.{cond.field}: an object has one field, {OBJECT_FIELD!r} "
                     f"(where it is); write {cond.robot}.{OBJECT_FIELD}")
    if cond.robot.startswith("$"):
        name = cond.robot[1:]
        kind = skill.params.get(name) if skill is not None else None
        if kind is None:
            yield path, (f"{cond.robot} names no parameter of the skill"
                         + ("" if skill is None else did_you_mean(name, list(skill.params))))
        elif kind.slot != "object":
            yield path, f"{cond.robot} is not an object parameter (its type is {kind.type})"


def _ref_problems(
    crew: Crew, rname: str, skill: Skill | None, ref: Ref, path: Path
) -> Iterator[tuple[Path, str]]:
    if ref.robot is not None:
        robot = crew.robots.get(ref.robot)
        if robot is None:
            yield path, unknown_name("robot", ref.robot, crew.robots)
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
            yield (*base, "robots", i), unknown_name("robot", robot, crew.robots)
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
                yield apath, unknown_name(f"parameter of {ref}", pname, skill.params)
                continue
            if arg.bind is not None and not param.accepts_binding(arg.bind):
                yield apath, f"bind: {arg.bind!r} needs a binding parameter that accepts it"
            if arg.range is not None and not param.numeric:
                yield apath, "range applies to number and integer parameters only"
            if arg.from_request and not param.stated:
                yield apath, (f"from_request: a {param.type} parameter is never stated in a "
                              "request")


def _rebuild() -> None:
    Crew.model_rebuild(force=True)


on_new_kind(_rebuild)
__all__ = ["Crew", "CrossReferenceError", "Name"]
