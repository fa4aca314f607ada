"""The crew spec: pydantic models of a crew, YAML loading, JSON Schema export (the single source).

Owns the vocabulary every other package reads: Crew, Robot, Skill, Location, Area, Binding,
Workflow. Nothing here knows about planners, the gate's algorithms or backends.
"""

from crewgate.spec.base import Scalar, split_ref
from crewgate.spec.crew import Crew
from crewgate.spec.expressions import Condition, Ref
from crewgate.spec.fallback import FallbackStep
from crewgate.spec.loader import crew_json_schema, load_crew, packaged_crews, parse_crew
from crewgate.spec.params import CrewContext, Param, ParamKind
from crewgate.spec.places import Areas, Binding, Box, CrewObject, KeepOut, Location
from crewgate.spec.robots import Robot, Skill, StateField
from crewgate.spec.workflow import ArgRule, Cardinality, OrderRule, StepRule, Workflow

__all__ = [
    "Areas", "ArgRule", "Binding", "Box", "Cardinality", "Condition", "Crew", "CrewContext",
    "CrewObject", "FallbackStep", "KeepOut", "Location", "OrderRule", "Param", "ParamKind", "Ref",
    "Robot", "Scalar", "Skill", "StateField", "StepRule", "Workflow", "crew_json_schema",
    "load_crew", "packaged_crews", "parse_crew", "split_ref",
]
