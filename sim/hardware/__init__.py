"""Simulated hardware: devices, links, machines as topology graphs, and cited presets.

>>> from sim.hardware import preset
>>> m = preset("workstation-4gpu")
>>> m.route("/gpu:0", "/gpu:1")        # [(link, direction), ...]
"""
from sim.hardware.devices import SPECS, Device, DeviceSpec, full_name
from sim.hardware.links import Link
from sim.hardware.machine import Machine, Node
from sim.hardware.presets import DEFAULT, as_machine, preset, preset_names, switched
from sim.hardware.node_clusters import cluster
from sim.hardware.leaf_spine import LeafSpine
from sim.hardware.networks import Network, network, network_names
from sim.hardware.machine_file import NodeSpec, read_machine_file

__all__ = ["Device", "DeviceSpec", "Link", "Machine", "Node", "SPECS", "DEFAULT", "as_machine",
           "full_name", "preset", "preset_names", "switched", "cluster", "Network", "network",
           "network_names", "NodeSpec", "read_machine_file", "LeafSpine"]
