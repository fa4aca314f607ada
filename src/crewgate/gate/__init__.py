"""The Robot Orchestrator's gate: whole-plan validation and per-dispatch authorization.

Owns every decision about whether a step may move a robot: which rules of the crew spec apply
when, and in what order. Verdicts are values (codes + detail), never exceptions; a refused
plan moves nothing.
"""

from crewgate.codes import Code, Family, Problem
from crewgate.gate.gate import Gate, Mode
from crewgate.gate.session import Authorization, MissionGate
from crewgate.gate.verdict import PlanVerdict, StepVerdict
from crewgate.text.request import RequestFacts

__all__ = [
    "Authorization", "Code", "Family", "Gate", "MissionGate", "Mode", "PlanVerdict", "Problem",
    "RequestFacts", "StepVerdict",
]
