"""The gate's closed vocabulary of verdict codes, grouped in families."""

from __future__ import annotations

from enum import StrEnum


class Family(StrEnum):
    GROUNDING = "grounding"  # the step names real robots, skills and well-typed arguments
    CONTRACT = "contract"  # the step fits the selected workflow contract and the request
    STATE = "state"  # the world, now, allows it (availability, preconditions, bindings)
    PLAN = "plan"  # the planner's output could not be read as a plan
    RUNTIME = "runtime"  # something happened during execution


class Code(StrEnum):
    # grounding
    UNKNOWN_ROBOT = "unknown_robot"
    UNKNOWN_SKILL = "unknown_skill"
    MISSING_ARG = "missing_arg"
    BAD_ARGUMENT = "bad_argument"
    UNKNOWN_LOCATION = "unknown_location"
    OUT_OF_BOUNDS = "out_of_bounds"
    # contract
    UNKNOWN_WORKFLOW = "unknown_workflow"
    BAD_ASSIGNMENT = "bad_assignment"
    CARDINALITY = "cardinality"
    MISSING_STEP = "missing_step"
    ORDER_VIOLATION = "order_violation"
    SUBSTITUTED_LOCATION = "substituted_location"
    BINDING_REQUIRED = "binding_required"
    # state
    ROBOT_UNAVAILABLE = "robot_unavailable"
    PRECONDITION_FAILED = "precondition_failed"
    NO_TARGET_FIX = "no_target_fix"
    STALE_BINDING = "stale_binding"
    BINDING_OUT_OF_BOUNDS = "binding_out_of_bounds"
    # plan
    MALFORMED_PLAN = "malformed_plan"
    # runtime
    OFF_PLAN = "off_plan"

    @property
    def family(self) -> Family:
        return FAMILY[self]


FAMILY: dict[Code, Family] = {
    **dict.fromkeys(
        [Code.UNKNOWN_ROBOT, Code.UNKNOWN_SKILL, Code.MISSING_ARG, Code.BAD_ARGUMENT,
         Code.UNKNOWN_LOCATION, Code.OUT_OF_BOUNDS],
        Family.GROUNDING,
    ),
    **dict.fromkeys(
        [Code.UNKNOWN_WORKFLOW, Code.BAD_ASSIGNMENT, Code.CARDINALITY, Code.MISSING_STEP,
         Code.ORDER_VIOLATION, Code.SUBSTITUTED_LOCATION, Code.BINDING_REQUIRED],
        Family.CONTRACT,
    ),
    **dict.fromkeys(
        [Code.ROBOT_UNAVAILABLE, Code.PRECONDITION_FAILED, Code.NO_TARGET_FIX,
         Code.STALE_BINDING, Code.BINDING_OUT_OF_BOUNDS],
        Family.STATE,
    ),
    Code.MALFORMED_PLAN: Family.PLAN,
    Code.OFF_PLAN: Family.RUNTIME,
}
