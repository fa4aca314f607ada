"""The crew's safe fallback: steps run through the gate (always enforced) when a mission halts."""

from __future__ import annotations

from pydantic import Field

from crewgate.spec.base import Name, Scalar, SpecModel, StepRef, split_ref
from crewgate.spec.expressions import ConditionField, State


class FallbackStep(SpecModel):
    """One step of the crew's safe fallback, run through the gate when a mission halts."""

    step: StepRef = Field(description="The robot-skill pair to run, e.g. iris.land.")
    args: dict[Name, Scalar | list[float]] = Field(
        default_factory=dict, description="Its arguments (checked by the gate like any step).")
    when: ConditionField | None = Field(
        None, description="Only when this holds (unprefixed fields are the step's robot's)."
    )
    only_if_engaged: bool = Field(
        True, description="Only for robots that were dispatched in the halted mission."
    )

    def applies(self, state: State) -> bool:
        """Whether its ``when`` holds now (no ``when``: always)."""
        return self.when is None or self.when.holds(state, split_ref(self.step)[0])

    def describe(self) -> str:
        return self.step + (f" (when {self.when})" if self.when is not None else "")


__all__ = ["FallbackStep"]
