"""Spec -> planner context text and plan JSON Schema, per evaluation condition."""

from crewgate.render.context import render_context
from crewgate.render.plan_schema import plan_json_schema

__all__ = ["plan_json_schema", "render_context"]
