"""Where a worker writes checkpoints under a multi-worker strategy (tf-keras'
``distributed_file_utils``, §10.2-10.3, T30).

Every worker runs the save (SyncOnRead variables need all of them), but only the chief
(``strategy.extended.should_checkpoint``) writes to the real path; the others write into a
``workertemp_<task_id>`` folder beside it, removed right after the save. A strategy without
``extended._in_multi_worker_mode()`` counts as single-worker, so its path is kept.
"""
from __future__ import annotations

import os
import shutil


def _strategy(strategy):
    if strategy is None:
        from sim.distribute.context import get_strategy
        strategy = get_strategy()
    return strategy


def _multi_worker(strategy):
    extended = getattr(strategy, "extended", None)
    check = getattr(extended, "_in_multi_worker_mode", None)
    return bool(check()) if callable(check) else False


def _temp_name(strategy):
    return "workertemp_" + str(strategy.extended._task_id)


def _temp_dir(dirpath, strategy):
    """``dirpath/workertemp_<id>`` (or ``dirpath`` if it already is one), created."""
    name = _temp_name(strategy)
    temp = dirpath if dirpath.endswith(name) else os.path.join(dirpath, name)
    os.makedirs(temp, exist_ok=True)
    return temp


def write_dirpath(dirpath, strategy=None):
    """The folder this worker writes to: ``dirpath`` itself for the chief or a single worker."""
    strategy = _strategy(strategy)
    if strategy is None or not _multi_worker(strategy) or strategy.extended.should_checkpoint:
        return dirpath
    return _temp_dir(dirpath, strategy)


def write_filepath(filepath, strategy=None):
    """``filepath`` for the chief; ``dirname/workertemp_<id>/basename`` for the others."""
    dirpath, base = os.path.dirname(filepath), os.path.basename(filepath)
    return os.path.join(write_dirpath(dirpath, strategy), base)


def remove_temp_dirpath(dirpath, strategy=None):
    """Delete a non-chief worker's temporary folder after its save."""
    strategy = _strategy(strategy)
    if strategy is None or not _multi_worker(strategy) or strategy.extended.should_checkpoint:
        return
    shutil.rmtree(_temp_dir(dirpath, strategy), ignore_errors=True)


def remove_temp_dir_with_filepath(filepath, strategy=None):
    remove_temp_dirpath(os.path.dirname(filepath), strategy)
