"""The built-in simulator: worlds, robot models, perception, faults, a simulated clock."""
