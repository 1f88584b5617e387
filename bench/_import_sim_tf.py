"""A task that only starts: it imports sim.tf (what every training script does first)."""
import sim.tf  # noqa: F401
