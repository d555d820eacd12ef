"""Hypothesis profiles: random examples while developing (to find new bugs), a fixed
sequence under CI=true (so a landing never depends on luck)."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
