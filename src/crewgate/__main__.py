"""``python -m crewgate``: the command line (as the ``crewgate`` script), e.g. for an MCP
client's configuration that names an interpreter rather than a script."""

from crewgate.cli.app import main

main()
