"""ROS 2 deployment (extra ``crewgate[ros2]``): robots as ROS 2 nodes in their own processes, the
orchestrator dispatching over ROS 2, availability from the graph, bindings from topics, e-stop.

``protocol`` is pure Python; everything else imports rclpy, installed with
``pip install "crewgate[ros2]"`` (rclpy and the message packages from PyPI).
"""
