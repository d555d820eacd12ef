"""Hypothesis profiles: random examples while developing (to find new bugs), a fixed
sequence under CI=true (so a landing never depends on luck). Neither has a per-example
deadline: no test may depend on how fast the machine is, and a loaded one is slow."""

import os

from hypothesis import settings

settings.register_profile("dev", deadline=None)
settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
