"""A task that starts a child of its own, says both pids, then waits: for the stop tests."""
import json
import os
import subprocess
import sys
import time

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
task = json.loads(os.environ["TF_CONFIG"])["task"]
print(f"pids {os.getpid()} {child.pid}", flush=True)
if task["index"] == 0 and len(sys.argv) > 1 and sys.argv[1] == "raise":
    time.sleep(0.2)
    raise ValueError("the learning rate is negative")
time.sleep(120)
