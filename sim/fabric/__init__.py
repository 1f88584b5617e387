"""The fabric that joins a cluster's task processes on loopback, and the cluster it simulates.

``server`` runs in the launcher (collectives as rounds, the cluster's one simulated clock),
``client`` is a task's side of it, ``protocol`` the wire format (JSON and raw array bytes, never
pickles), ``messages`` their words in the course language, ``launch_machine`` the simulated
machine of a launched cluster. Below ``sim.distribute`` (MultiWorkerMirroredStrategy talks to it);
``sim.launch`` starts the processes that use it.
"""
