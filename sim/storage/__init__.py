"""Files that survive faults: atomic writes, array archives that never unpickle, checkpoints.

``safe_io`` writes through a temporary file and a rename and reads ``.npz`` with
``allow_pickle=False``; ``checkpoint`` is the object-graph format behind ``tf.train.Checkpoint``
and ``CheckpointManager`` (``sim.tf.train`` gives them TensorFlow's names).
"""
