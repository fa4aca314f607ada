"""The robots' side: a built-in simulated robot served as a ROS 2 node (``crewgate node``),
speaking exactly what a real robot speaks to the orchestrator (:mod:`crewgate.ros2.protocol`).

Nothing here judges or plans: a node obeys what it receives. The orchestrator's side of ROS 2
(the adapter) is :mod:`crewgate.ros2`; both share the protocol and the rclpy runtime there.
"""
