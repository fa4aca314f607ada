"""crewgate: a language model proposes, only the deterministic Robot Orchestrator actuates."""

__version__ = "0.1.0"
