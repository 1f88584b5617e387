"""A task that reports what a fresh ``python script.py`` would show it, for the fork-server test:
its role, argv, ``__name__``, stdin, NumPy's global RNG, its language; then an atexit function
and a non-daemon thread that outlive the script's last line; and the exit status in argv."""
import atexit
import json
import os
import sys
import threading
import time

import numpy as np

import sim.tf as tf  # noqa: F401
from sim.i18n import get_language

task = json.loads(os.environ["TF_CONFIG"])["task"]
report = {"task": f"{task['type']}:{task['index']}", "name": __name__, "argv": sys.argv[1:],
          "stdin": sys.stdin.read(), "draw": float(np.random.random_sample()),
          "lang": get_language(), "pgid_is_pid": os.getpgid(0) == os.getpid(),
          "parent": os.getppid(), "forked": "sim.launch.forked" in sys.modules,
          "pytest_loaded": "_pytest" in sys.modules}
print("PROBE " + json.dumps(report), flush=True)
atexit.register(lambda: print("atexit ran", flush=True))


def late():
    time.sleep(0.2)
    print("thread joined", flush=True)


threading.Thread(target=late).start()
sys.exit(int(sys.argv[1]) if task["index"] == 1 else 0)
