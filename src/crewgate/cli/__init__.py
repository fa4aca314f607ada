"""The ``crewgate`` command line: typer commands, thin over the library (a stable interface)."""
