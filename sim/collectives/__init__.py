"""All-reduce algorithms written once as schedules, used twice (DESIGN.md "one schedule, two uses").

* ``schedule``: rounds of transfers as data; ``executor``: applies them to NumPy arrays;
  ``replay``: times them on a simulated machine (``dependencies``: driven by data dependencies
  and free links; rounds as barriers through ``sim.des`` on request); ``cost``: the closed forms.
* One module per algorithm family: ``ring``, ``reduce_to_one``, ``halving_doubling``, ``trees``
  (binomial, flat double binary tree), ``nccl_tree`` (NCCL's chain + two trees across nodes),
  ``hierarchical``, ``hierarchical_copy``, ``torus``, ``primitives``; ``nccl_model`` is NCCL's
  tuner; ``algorithms`` maps names to builders; ``api.all_reduce`` is what strategies call.
"""
from __future__ import annotations

from .algorithms import ALGORITHMS, build, canonical
from .executor import execute
from .schedule import COPY, REDUCE, Round, Schedule, Transfer

__all__ = ["ALGORITHMS", "build", "canonical", "execute", "Schedule", "Round", "Transfer",
           "COPY", "REDUCE", "all_reduce", "replay", "closed_form"]


def __getattr__(name):
    # replay/api import sim.des lazily, so the NumPy half works without the simulator
    if name == "replay":
        from .replay import replay
        return replay
    if name == "all_reduce":
        from .api import all_reduce
        return all_reduce
    if name == "closed_form":
        from .cost import closed_form
        return closed_form
    raise AttributeError(name)
