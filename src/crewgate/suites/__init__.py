"""Scenario suites as data: the suite format, its loader and the packaged suites (study,
extended, holdout per packaged crew). Read by the evaluation harness and by the replay planner;
it imports nothing of crewgate's but the spec's building blocks, the codes and the errors."""

from crewgate.suites.scenarios import (
    Family,
    Scenario,
    Suite,
    load_suite,
    packaged_requests,
    packaged_suites,
)

__all__ = ["Family", "Scenario", "Suite", "load_suite", "packaged_requests", "packaged_suites"]
