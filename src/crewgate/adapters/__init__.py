"""Robot backends behind one Adapter interface: the built-in simulator, ROS 2 (extra)."""
