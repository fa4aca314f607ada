"""Choosing and configuring a planner from command-line options (shared by plan, run, eval)."""

from __future__ import annotations

from pathlib import Path

from crewgate.errors import UserError
from crewgate.planners.base import Planner
from crewgate.planners.registry import PlannerOptions, available_planners, make_planner
from crewgate.spec import Crew

DEFAULT_PLANNER = "exemplar"


def build_planner(
    crew: Crew, *, planner: str | None, plan: Path | None, plans: Path | None, model: str | None,
    base_url: str | None, api_key_env: str | None, timeout: float, temperature: float,
    free_form: bool, seed: int = 0,
) -> Planner:
    name = planner or ("scripted" if plan is not None else
                       "replay" if plans is not None else DEFAULT_PLANNER)
    if plan is not None and name != "scripted":
        raise UserError(f"--plan gives the scripted planner its output; it does not combine "
                        f"with --planner {name}")
    if name not in available_planners():
        raise UserError(f"planner {name!r} is not installed (installed: "
                        f"{', '.join(sorted(available_planners()))})")
    options = PlannerOptions(plan_file=plan, plans=plans, model=model, base_url=base_url,
                             api_key_env=api_key_env, timeout_s=timeout,
                             temperature=temperature, free_form=free_form, seed=seed)
    return make_planner(name, crew, options)
