"""A task that starts a child in a session of its own (beyond its process group), says both
pids, then waits: the launcher must still stop that child when it stops."""
import os
import subprocess
import sys
import time

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True)
print(f"pids {os.getpid()} {child.pid}", flush=True)
time.sleep(120)
