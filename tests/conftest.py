"""Hypothesis profiles: random examples while developing (to find new bugs), a fixed
sequence under CI=true (so a landing never depends on luck). Neither has a per-example
deadline: no test may depend on how fast the machine is, and a loaded one is slow."""

import os

from hypothesis import settings

# (bytecode: see tests/_bytecode.py, loaded before every other plugin)

settings.register_profile("dev", deadline=None)
settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The provider SDKs cost seconds of CPU to import (anthropic alone 2 s, openai and mcp about
# 1 s each), once per test worker that needs them. Their tests go first: the scheduler hands
# each worker a consecutive share of the list, and work is stolen from the end of a share,
# so they all run on the first worker and the others never import the SDKs.
SDK_TESTS = ("test_models.py", "test_sdk_formats.py", "test_mcp.py", "test_mcp_proxy.py",
             "test_langchain.py", "test_pydantic_ai.py", "test_openai_agents.py")


def pytest_collection_modifyitems(items: list) -> None:
    # then the process tests: they wait on real processes and clocks, so started early
    # their waits overlap the other workers' computing instead of ending the run alone
    items.sort(key=lambda item: (item.path.name not in SDK_TESTS,
                                 item.get_closest_marker("process") is None))
