"""The discrete-event simulator (SimPy): compute, transfers with link sharing, stragglers,
failures, and a trace of every event.

>>> from sim.des import Simulator
>>> sim = Simulator("workstation-4gpu")
>>> done = sim.transfer("/gpu:0", "/gpu:1", 1e9)
>>> sim.run(); sim.now          # 1 µs + 1e9 / 12e9 s
"""
from sim.des.failures import DeviceFailure, Failure
from sim.des.simulator import Simulator
from sim.des.stragglers import ComputeTime, Slowdown, Stragglers
from sim.des.trace import Trace, TraceEvent

__all__ = ["ComputeTime", "DeviceFailure", "Failure", "Simulator", "Slowdown", "Stragglers", "Trace",
           "TraceEvent"]
