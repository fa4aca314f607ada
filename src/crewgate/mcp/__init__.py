"""The MCP server (:mod:`crewgate.mcp.server`): an agent's tools over one crew's mission desk.
Needs the ``mcp`` extra: ``pip install "crewgate[mcp]"``."""
