"""The Robot Orchestrator's gate: verdict codes, whole-plan validation, per-dispatch authorization.

Owns every decision about whether a step may move a robot. Verdicts are values (codes + detail),
never exceptions; a refused plan moves nothing.
"""

from crewgate.gate.codes import Code, Family
from crewgate.gate.gate import Gate, Mode
from crewgate.gate.session import Authorization, MissionGate
from crewgate.gate.verdict import PlanVerdict, Problem, StepVerdict
from crewgate.text.request import RequestFacts

__all__ = [
    "Authorization", "Code", "Family", "Gate", "MissionGate", "Mode", "PlanVerdict", "Problem",
    "RequestFacts", "StepVerdict",
]
