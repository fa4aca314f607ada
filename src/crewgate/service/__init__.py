"""The long-running side of crewgate: one crew, one backend, one journal, and the missions that
agents and operators submit to it (:class:`~crewgate.service.desk.MissionDesk`). The MCP server
(:mod:`crewgate.mcp`) stands on it; nothing here sends a command except through
:func:`crewgate.api.run_mission` (the gate, per-dispatch authorization, the journal)."""

from crewgate.service.desk import MissionDesk, SubmitError
from crewgate.service.live import LiveCrew

__all__ = ["LiveCrew", "MissionDesk", "SubmitError"]
