"""Physical outcome of a simulated mission, measured from the simulator's truth (not from what
robots reported): final poses, distances to targets, where every object ended up."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crewgate.sim.simulator import Simulator

REQUESTER = "requester"


def measure(sim: Simulator) -> dict[str, Any]:
    out: dict[str, Any] = {"world": sim.world_name, "seed": sim.seed,
                           "sim_time_s": round(sim.t, 3), "faults": list(sim.faults.specs)}
    robots: dict[str, Any] = {}
    for name, body in sim.bodies.items():
        pose = body.pose()
        entry: dict[str, Any] = {"pose": [round(v, 3) for v in pose] if pose else None,
                                 "down": body.down}
        travelled = getattr(body, "travelled", None)
        if travelled is not None:
            entry["travelled_m"] = round(travelled, 3)
        robots[name] = entry
    out["robots"] = robots
    for target, (tx, ty) in sim.targets.items():
        out[target] = [tx, ty]
        for name, body in sim.bodies.items():
            pose = body.pose()
            if pose is not None and body.model in ("diff_drive", "quadruped"):
                out[f"{name}_to_{target}_m"] = round(math.dist(pose[:2], (tx, ty)), 3)
    if sim.objects:
        objects: dict[str, Any] = {}
        for obj, holder in sim.objects.items():
            objects[obj] = {"holder": holder, "location": _where(sim, holder)}
        out["objects"] = objects
        if sim.requester is not None:  # a crew with nobody to hand objects to has no such fact
            out["requester_has"] = [o for o, h in sim.objects.items() if h == REQUESTER]
    out["trajectories"] = sim.trajectories
    return out


def _where(sim: Simulator, holder: str) -> str | None:
    """The named location of an object: its holder's location if a robot holds it."""
    if holder in sim.crew.locations:
        return holder
    if holder == REQUESTER:
        return sim.requester
    body = sim.bodies.get(holder)
    if body is None:
        return None
    loc = sim.world.get(holder, "location") or sim.world.get(holder, "at")
    return str(loc) if loc is not None else None
