"""``tf.keras.utils.SidecarEvaluator``: evaluate the checkpoints a training cluster writes.

In a parameter-server cluster an ``evaluator`` task runs beside the training: it waits for each
new checkpoint in ``checkpoint_dir``, loads it into its own copy of the model and evaluates it,
so every example is evaluated exactly once per checkpoint (unlike evaluation scheduled on the
workers). The simulator has no separate process to wait in: ``start()`` evaluates the
checkpoints present now, oldest first, that it has not evaluated yet (up to ``max_evaluations``
in all), and returns. Checkpoints are those of ``tf.train.Checkpoint(model=...)`` /
``CheckpointManager`` (the ``checkpoint`` state file names them).
"""
from __future__ import annotations

import os


class SidecarEvaluator:
    def __init__(self, model, data, checkpoint_dir, steps=None, max_evaluations=None,
                 callbacks=None):
        self.model, self.data, self.checkpoint_dir = model, data, os.fspath(checkpoint_dir)
        self.steps, self.max_evaluations = steps, max_evaluations
        self.callbacks = callbacks or []
        self._done: list = []
        self.results: list = []           # (checkpoint path, logs) per evaluation

    def _checkpoints(self):
        """The checkpoints the state file lists (none yet without one); a damaged state file
        raises DataLossError saying what is wrong, rather than evaluating nothing."""
        from sim.storage import checkpoint_state
        state = checkpoint_state.read(os.path.join(self.checkpoint_dir, checkpoint_state.NAME))
        if state is None:
            return []
        names = list(state.get("all_model_checkpoint_paths", []))
        latest = state.get("model_checkpoint_path")
        if latest and latest not in names:
            names.append(latest)
        if not names:
            from sim.i18n import t
            raise ValueError(t("checkpoint.state_invalid", directory=self.checkpoint_dir,
                               path=os.path.join(self.checkpoint_dir, checkpoint_state.NAME)))
        return [os.path.join(self.checkpoint_dir, n) for n in names]

    def start(self):
        """Evaluate every checkpoint not evaluated yet; returns the list of (path, logs)."""
        import sim.tf as tf
        for path in self._checkpoints():
            if path in self._done:
                continue
            if self.max_evaluations is not None and len(self._done) >= self.max_evaluations:
                break
            tf.train.Checkpoint(model=self.model).restore(path).expect_partial()
            logs = self.model.evaluate(self.data, steps=self.steps, callbacks=self.callbacks,
                                       verbose=0, return_dict=True)
            self._done.append(path)
            self.results.append((path, logs))
        return self.results
