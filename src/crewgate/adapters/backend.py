"""Backends are plugins: entry points in the group ``crewgate.backends``, built-ins included
(``sim``: the built-in simulator; ``ros2``: robots as ROS 2 nodes).

A backend is a class with a ``name``, the crew-spec :class:`~crewgate.spec.sections.Section` it
owns (or None), its ``Options`` (what ``crewgate run --backend NAME`` takes; parsed and listed
by :mod:`crewgate.plugins`, as planners' options are) and ``open(crew, options) -> Adapter``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar

from crewgate import plugins
from crewgate.adapters.base import Adapter
from crewgate.plugins import Options, PluginInfo
from crewgate.spec import Crew
from crewgate.spec.sections import BACKENDS, Section

DEFAULT_BACKEND = "sim"


class BackendOptions(Options):
    """The options of a backend that takes none; the base of every backend's options."""


class Backend(ABC):
    """Where missions run. Subclasses set ``name``, ``section`` and ``Options`` and implement
    ``open``; the first paragraph of their docstring is their summary in ``crewgate
    backends``."""

    name: ClassVar[str]
    section: ClassVar[type[Section] | None] = None
    Options: ClassVar[type[BackendOptions]] = BackendOptions
    # what to say of an option the backend does not take ("give faults to each node instead")
    hints: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def options(cls, values: Mapping[str, object]) -> BackendOptions:
        """The backend's options from names and values; a UserError names what is wrong."""
        return plugins.parse_options("backend", cls.name, cls.Options, values, cls.hints)

    @abstractmethod
    def open(self, crew: Crew, options: BackendOptions) -> Adapter:
        """An adapter for ``crew`` on this backend (the caller closes it)."""

    def wait_s(self, options: BackendOptions) -> float:
        """How long to wait for the robots to be heard before planning (0: they are there)."""
        return 0.0


def backend_class(name: str) -> type[Backend]:
    """The backend registered as ``name``."""
    found: type[Backend] = plugins.load(BACKENDS, "backend", name, Backend)
    return found


def available_backends() -> dict[str, str]:
    """Backend name -> the object path it loads from."""
    return plugins.available(BACKENDS)


def describe_backends() -> list[PluginInfo]:
    """Every installed backend with its options, by name."""
    return plugins.describe(BACKENDS, "backend", Backend, lambda cls: cls.Options)


def open_backend(name: str, crew: Crew, options: Mapping[str, object] | None = None
                 ) -> tuple[Backend, BackendOptions, Adapter]:
    """The named backend, its checked options, and an adapter of it for ``crew``."""
    backend = backend_class(name)()
    parsed = backend.options(options or {})
    return backend, parsed, backend.open(crew, parsed)
