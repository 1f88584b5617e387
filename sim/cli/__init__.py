"""Command-line tools behind ``python -m sim <command>``."""
