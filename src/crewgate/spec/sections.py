"""Sections of a crew spec that belong to a backend (``sim:`` for the built-in simulator,
``ros2:`` for ROS 2): each backend owns the model of its section and checks its references to
the rest of the crew. The gate never reads them.

Backends are plugins (entry points in the group ``crewgate.backends``, see
:mod:`crewgate.adapters.backend`); the spec learns their sections from there, so a new backend
brings its section without a change here.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, ClassVar

from crewgate.spec.base import SpecModel, SpecPath

if TYPE_CHECKING:
    from crewgate.spec.crew import Crew

BACKENDS = "crewgate.backends"


class Section(SpecModel):
    """A backend's section of a crew spec, under the top-level key ``key``."""

    key: ClassVar[str]
    title: ClassVar[str]  # its heading in the field reference

    def problems(self, crew: Crew) -> Iterator[tuple[SpecPath, str]]:
        """References to the rest of the crew that do not hold (paths start at ``key``)."""
        return iter(())

    @classmethod
    def reference(cls) -> list[tuple[str, type[SpecModel]]]:
        """Its models as the field reference lists them: (heading, model)."""
        return [(cls.title, cls)]


@lru_cache(maxsize=1)
def registered_sections() -> dict[str, type[Section]]:
    """Top-level key -> section model, of every installed backend that has one."""
    found: dict[str, type[Section]] = {}
    for ep in entry_points(group=BACKENDS):
        try:
            backend = ep.load()
        except ImportError:
            continue  # a backend whose extra is not installed; its section is an unknown field
        section = getattr(backend, "section", None)
        if isinstance(section, type) and issubclass(section, Section):
            found[section.key] = section
    return found
