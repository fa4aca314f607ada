"""The crew spec's optional ``ros2`` section: how each robot's skills, state and the runtime
bindings map to ROS 2 names and types, so that a real robot (Nav2, PX4 through MAVROS, a Unitree
bridge) is wired by editing YAML. Robots and skills not listed speak crewgate's own protocol
(docs/ros2.md). The gate never reads this section; only the ROS 2 adapter does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field, model_validator

from crewgate.spec.base import Name, Scalar, SpecModel, SpecPath
from crewgate.spec.expressions import ConditionField
from crewgate.spec.sections import Section

if TYPE_CHECKING:
    from crewgate.spec.crew import Crew

InterfaceType = str  # "package/msg/Type", "package/srv/Type" or "package/action/Type"


class Ros2Skill(SpecModel):
    """One skill wired to a ROS 2 topic, service or action instead of crewgate's protocol."""

    topic: str | None = Field(None, description="Publish one message to this topic.")
    service: str | None = Field(None, description="Call this service.")
    action: str | None = Field(None, description="Send a goal to this action server.")
    type: InterfaceType = Field(
        description="The interface type, e.g. geometry_msgs/msg/PoseStamped, "
        "std_srvs/srv/Trigger, nav2_msgs/action/NavigateToPose.")
    fields: dict[str, Scalar | list[float]] = Field(
        default_factory=dict,
        description="Message, request or goal fields by dotted path. A string value '$param' is "
        "the typed argument, '$param.0' its first element; for a binding argument, its value "
        "resolved at dispatch (e.g. pose.position.x: $target.0).",
    )
    done_when: ConditionField | None = Field(
        None, description="Topic skills: succeeded once this state condition holds (e.g. "
        "'moving == false'); without it, after duration_s.")
    duration_s: float | None = Field(
        None, gt=0, description="Topic skills: succeeded after this long (or the skill's "
        "nominal duration).")
    success_field: str | None = Field(
        None, description="Services: the response field that says whether it worked "
        "(e.g. success for std_srvs/srv/Trigger).")

    @model_validator(mode="after")
    def _one_kind(self) -> Ros2Skill:
        kinds = [k for k in (self.topic, self.service, self.action) if k]
        if len(kinds) != 1:
            raise ValueError("give exactly one of topic, service or action")
        part = {"topic": "msg", "service": "srv", "action": "action"}[self.kind]
        if self.type.count("/") != 2 or self.type.split("/")[1] != part:
            raise ValueError(f"type {self.type!r} must read package/{part}/Type for a "
                             f"{self.kind}")
        return self

    @property
    def kind(self) -> Literal["topic", "service", "action"]:
        return "topic" if self.topic else ("service" if self.service else "action")

    @property
    def name(self) -> str:
        return self.topic or self.service or self.action or ""


class Ros2Robot(SpecModel):
    """Where a robot's state comes from and how its skills are called."""

    state_topic: str | None = Field(
        None, description="crewgate JSON state and heartbeat (default /NS/ROBOT/state).")
    pose_topic: str | None = Field(
        None, description="A geometry_msgs/msg/PoseStamped topic whose position becomes the "
        "state field pose; also a heartbeat.")
    skills: dict[Name, Ros2Skill] = Field(
        default_factory=dict, description="Skills wired to ROS 2 interfaces; the others use "
        "crewgate's protocol.")


class Ros2Binding(SpecModel):
    """Where a runtime binding is published."""

    topic: str | None = Field(None, description="geometry_msgs/msg/PointStamped topic "
                              "(default /NS/bindings/NAME).")
    confidence_topic: str | None = Field(None, description="std_msgs/msg/Float32 topic "
                                         "(default /NS/bindings/NAME/confidence).")


class Ros2Section(Section):
    """ROS 2 deployment of the crew."""

    key: ClassVar[str] = "ros2"
    title: ClassVar[str] = "ROS 2 (`ros2`)"

    namespace: str = Field("crewgate", description="Namespace of crewgate's own topics.")
    estop_topic: str | None = Field(None, description="std_msgs/msg/Bool e-stop topic "
                                    "(default /NS/estop).")
    heartbeat_topic: str | None = Field(
        None, description="std_msgs/msg/String topic of the orchestrator's heartbeat, published "
        "while a mission runs; each robot's lost-link failsafe watches it (default "
        "/NS/orchestrator/heartbeat).")
    robots: dict[Name, Ros2Robot] = Field(
        default_factory=dict, description="Per-robot wiring; robots not listed use the protocol.")
    bindings: dict[Name, Ros2Binding] = Field(
        default_factory=dict, description="Binding topics; unlisted bindings use the defaults.")

    def problems(self, crew: Crew) -> Iterator[tuple[SpecPath, str]]:
        from crewgate.spec.crew import condition_problems, unknown_name

        for rname, robot in self.robots.items():
            if rname not in crew.robots:
                yield ("ros2", "robots", rname), unknown_name("robot", rname, crew.robots)
                continue
            for sname, wiring in robot.skills.items():
                path: SpecPath = ("ros2", "robots", rname, "skills", sname)
                skill = crew.skill(rname, sname)
                if skill is None:
                    yield path, unknown_name(f"skill of {rname}", sname, crew.robots[rname].skills)
                    continue
                for field_path, value in wiring.fields.items():
                    if isinstance(value, str) and value.startswith("$"):
                        param = value[1:].split(".")[0]
                        if param not in skill.params:
                            yield (*path, "fields", field_path), unknown_name(
                                f"parameter of {rname}.{sname}", param, skill.params)
                if wiring.done_when is not None:
                    yield from condition_problems(crew, rname, skill, wiring.done_when,
                                                   (*path, "done_when"))
        for bname in self.bindings:
            if bname not in crew.bindings:
                yield ("ros2", "bindings", bname), unknown_name("binding", bname, crew.bindings)

    @classmethod
    def reference(cls) -> list[tuple[str, type[SpecModel]]]:
        return [(cls.title, cls), ("ROS 2 robot (`ros2.robots.NAME`)", Ros2Robot),
                ("ROS 2 skill wiring (`ros2.robots.NAME.skills.SKILL`)", Ros2Skill),
                ("ROS 2 binding (`ros2.bindings.NAME`)", Ros2Binding)]
