"""Keep the TensorFlow cross-check out of ``pytest tests`` / ``make test``.

The test files here are collected only when tests/tf_crosscheck (or a file in it) is named on the
command line: ``python -m pytest tests/tf_crosscheck`` from a venv with TensorFlow (see its docstring).
"""
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _asked(config):
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        if path == HERE or HERE in path.parents:
            return True
    return False


def pytest_ignore_collect(collection_path, config):
    if collection_path.name.startswith("test_") and collection_path.parent == HERE and not _asked(config):
        return True
    return None
