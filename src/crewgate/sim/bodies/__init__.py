"""Simulated robot models, by the name a crew's ``sim.robots.*.model`` uses."""

from crewgate.sim.bodies.base import Action, Body
from crewgate.sim.bodies.manipulation import Generic, Humanoid, Quadruped
from crewgate.sim.bodies.quadcopter import Quadcopter
from crewgate.sim.bodies.rover import DiffDrive

MODELS: dict[str, type[Body]] = {
    m.model: m for m in (Quadcopter, DiffDrive, Humanoid, Quadruped, Generic)
}

__all__ = ["MODELS", "Action", "Body"]
