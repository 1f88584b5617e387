"""Launching a simulated cluster: one OS process per task, joined by a fabric on loopback.

``launcher.launch(script, workers=2, ...)`` (also ``python -m sim launch``) starts the tasks,
each with its own TF_CONFIG; ``fabric`` carries their collectives and holds the cluster's
simulated clock; ``client`` is a task's side of it; ``protocol`` the wire format (JSON + raw
array bytes, never pickles); ``task`` runs the learner's script in each process;
``cluster_machine`` builds the simulated cluster (one host per worker). ``door`` is the fabric's
listener (a real backlog; each handshake in its own thread with a deadline, so no stranger
stalls a launch) and ``dial`` a task's way in (retries until a deadline); ``stop_signals``
makes Ctrl-C, SIGTERM and SIGHUP stop every task at any moment (and ``subreaper`` what the
tasks started in sessions of their own, for the CLI); ``waiting`` names the task a
stalled launch waits for. Tasks started by hand (``TF_CONFIG=... python main.py &``, as
TensorFlow's tutorials do) need no launcher: ``by_hand`` hosts the fabric in the first task at
its TF_CONFIG address (loopback only), with the secret of ``cluster_secret``. ``engine="tensorflow"``
runs the same script on real TensorFlow instead: ``tf_engine`` picks the interpreter,
``tf_task`` runs each task there and ``tf_alias`` makes its ``import sim.tf`` give ``tensorflow``.
``same_start`` (opt-in, ``SIM_SAME_START``) gives a script the same data, data order and initial
weights on both engines, so their numbers can be compared.
Kept free of NumPy and sim.tf at import, so starting a launch costs little.
"""
from __future__ import annotations


def launch(*args, **kwargs):
    """See ``sim.launch.launcher.launch``."""
    from sim.launch.launcher import launch as _launch
    return _launch(*args, **kwargs)
