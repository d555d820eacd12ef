"""Hypothesis profiles: random examples while developing (to find new bugs), a fixed
sequence under CI=true (so a landing never depends on luck). Neither has a per-example
deadline: no test may depend on how fast the machine is, and a loaded one is slow."""

import os
from typing import Any

import pytest
from hypothesis import settings

from . import sources

# (bytecode: see tests/_bytecode.py, loaded before every other plugin)

settings.register_profile("dev", deadline=None)
settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The provider SDKs cost seconds of CPU to import (anthropic alone 1 s, the agents SDK 1.4 s,
# openai and pydantic_ai about 0.5 s each), once per test worker that needs them: their
# tests, and the documentation page that runs them, all go to one worker.
SDK_TESTS = ("test_models.py", "test_sdk_formats.py", "test_mcp.py", "test_langchain.py",
             "test_pydantic_ai.py", "test_openai_agents.py")
SDK_PAGES = ("integrations.md",)


def pytest_configure(config: pytest.Config) -> None:
    """toolpipe's sources are parsed once per run, as it starts (tests/sources.py says why):
    here in the controlling process, or in a run without workers."""
    given = getattr(config, "workerinput", {}).get("toolpipe_sources")
    sources.GIVEN = given if given is not None else sources.summaries()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist, in the controlling process: what each worker is handed as it starts."""
    node.workerinput["toolpipe_sources"] = sources.GIVEN


def _sdk(item: pytest.Item) -> bool:
    return item.path.name in SDK_TESTS or (
        item.path.name == "test_docs.py" and any(p in item.name for p in SDK_PAGES))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The order every worker collects, shaped for pytest-xdist's worksteal scheduler, which
    hands the N workers consecutive shares of this list (the first len//N items to one, and
    so on) and later steals from the end of the longest queue.

    Each share starts with its part of the tests that wait on real processes and clocks
    (the `process` mark), so that every worker's waits overlap the others' computing
    instead of one worker waiting through them all while the rest finish and then wait for
    it. The SDK tests open the first share."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2:
        items.sort(key=lambda item: (not _sdk(item), item.get_closest_marker("process") is None))
        return
    sdk = [item for item in items if _sdk(item)]
    waiting = [item for item in items
               if not _sdk(item) and item.get_closest_marker("process") is not None]
    rest = [item for item in items
            if not _sdk(item) and item.get_closest_marker("process") is None]
    # dealt one by one, so a module's long waits (the proxy's lifetime tests take 2 to 5 s
    # each) are spread over every worker rather than left to one
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    shares[0].extend(sdk)
    for index, item in enumerate(waiting):
        shares[(index + 1) % workers].append(item)
    # the scheduler's share sizes: len//N, then what is left over N-1, and so on
    left, sizes = len(items), []
    for remaining in range(workers, 0, -1):
        sizes.append(left // remaining)
        left -= sizes[-1]
    ordered: list[pytest.Item] = []
    position = 0
    for share, size in zip(shares, sizes, strict=True):
        take = max(0, size - len(share))
        ordered.extend(share + rest[position:position + take])
        position += take
    ordered.extend(rest[position:])
    items[:] = ordered


@pytest.fixture
def fresh_readings() -> Any:
    """For a law shown catching a reading taken away (its ``monkeypatch``): the safety
    shield's kept readings cleared before the test and after it, so that none read by the
    real wing is judged by the broken one, nor one read by the broken wing kept after it.
    Gives the clearing itself, for a test that breaks the reading halfway."""
    from toolpipe.layers._shield_readings import clear_caches
    from toolpipe.shell._places import _classify

    def clear() -> None:
        clear_caches()
        _classify.cache_clear()  # (the places, by their words: a broken reading's too)

    clear()
    yield clear
    clear()


@pytest.fixture
def taken_away(fresh_readings: Any, monkeypatch: Any) -> Any:
    """For a law shown catching its reading taken away: the shield's decision on a
    command, then its decision once ``module.name`` is put as ``broken`` (the kept
    readings cleared between)."""
    from tests.shield_laws import decide

    def decisions(module: Any, name: str, broken: Any, command: str) -> tuple[str, str]:
        before = decide(command)
        monkeypatch.setattr(module, name, broken)
        fresh_readings()
        return before, decide(command)

    return decisions
