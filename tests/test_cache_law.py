"""The cache law (toolpipe.testing.check_cache_law) on the simulated interpreter and on
asyncio, and a memoize with the old exact-path invalidation failing it."""

from __future__ import annotations

import asyncio
import shutil

import pytest

from interpreters.asyncio import AsyncioInterpreter
from interpreters.simulated import SimulatedInterpreter
from toolpipe.layers.memoize import MemoizingMiddleware, file_keys, write_keys
from toolpipe.testing import check_cache_law
from toolpipe.tools import workspace_registry

pytestmark = [pytest.mark.process,
              pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")]


def simulated():
    interp = SimulatedInterpreter()
    return interp.run


def on_asyncio():
    interp = AsyncioInterpreter()
    return lambda program: asyncio.run(interp.run(program))


def tools(tmp_path):
    # the cache is judged here, not containment: Bash unsandboxed (quicker, same writes)
    return workspace_registry(str(tmp_path), bash_timeout=10.0, sandbox="none")


@pytest.mark.parametrize("run", [simulated, on_asyncio], ids=["simulated", "asyncio"])
def test_the_cache_never_serves_a_stale_answer(run, tmp_path):
    check_cache_law(tools(tmp_path), str(tmp_path), run,
                    examples=8, steps=12)


class Unchecked(MemoizingMiddleware):
    """Yesterday's trust: an entry stands until a known write removes it (no stamps)."""

    def _read_footprint(self, ctx):  # type: ignore[no-untyped-def]
        found = yield from super()._read_footprint(ctx)
        return found if found is None else (found[0], ())


class ExactPaths(Unchecked):
    """The older rule: a write removes only the entries of its exact paths, and a listing
    or search counts as a read of its folder."""

    def _write_keys(self, targets, cwd):  # type: ignore[no-untyped-def]
        keys = yield from super()._write_keys(targets, cwd)
        return frozenset(k for k in keys if k.startswith("f:"))

    def _read_footprint(self, ctx):  # type: ignore[no-untyped-def]
        found = yield from super()._read_footprint(ctx)
        return found if found is None else (frozenset(
            k.replace("t:", "f:") for k in found[0] if not k.startswith("d:")), ())


def test_the_law_catches_exact_path_invalidation(tmp_path):
    def broken():
        return ExactPaths(["Read", "LS", "Glob", "Grep"], ["Write", "Edit", "Bash"],
                          read_only_tools=["Stamp"], root=str(tmp_path))

    with pytest.raises(AssertionError, match="the cache answered"):
        check_cache_law(tools(tmp_path), str(tmp_path),
                        simulated, memo=broken, shrink=False)


@pytest.mark.parametrize("unknown", ["read_only", "writes"])
def test_the_law_catches_a_cache_that_trusts_its_entries(unknown, tmp_path):
    """Footprints alone (yesterday's memoize, with unknown tools changing nothing or, as
    now, writing): writes behind the pipeline's back and unknown tools are served stale."""
    def broken():
        return Unchecked(["Read", "LS", "Glob", "Grep"], ["Write", "Edit", "Bash"],
                         read_only_tools=["Stamp"] if unknown == "read_only" else [],
                         root=str(tmp_path))

    with pytest.raises(AssertionError, match="the cache answered"):
        check_cache_law(tools(tmp_path), str(tmp_path),
                        simulated, memo=broken, shrink=False)


def test_footprint_keys():
    assert write_keys("src/a.py") & file_keys("src/a.py")
    assert not write_keys("src/b.py") & file_keys("src/a.py")
    assert write_keys("src") & file_keys("src/a.py")  # the folder replaced
