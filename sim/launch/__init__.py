"""Launching a simulated cluster: one OS process per task, joined by a fabric on loopback.

``launcher.launch(script, workers=2, ...)`` (also ``python -m sim launch``) starts the tasks,
each with its own TF_CONFIG; ``fabric`` carries their collectives and holds the cluster's
simulated clock; ``client`` is a task's side of it; ``protocol`` the wire format (JSON + raw
array bytes, never pickles); ``task`` runs the learner's script in each process;
``cluster_machine`` builds the simulated cluster (one host per worker).
Kept free of NumPy and sim.tf at import, so starting a launch costs little.
"""
from __future__ import annotations


def launch(*args, **kwargs):
    """See ``sim.launch.launcher.launch``."""
    from sim.launch.launcher import launch as _launch
    return _launch(*args, **kwargs)
