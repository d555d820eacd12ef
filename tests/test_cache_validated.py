"""The cache trusts nothing it cannot check (issue 26): every hit is validated against
the stamps of what it read, unknown tools write, the workspace is in the key, the store is
bounded, and MCP tools are cached only when their answers cannot change on their own."""

from __future__ import annotations

import os
import shutil

import pytest
from returns.result import Failure

from interpreters.simulated import SimulatedInterpreter
from interpreters.stores import MemoryStore
from toolpipe import DispatchContext, ToolContext
from toolpipe.config import DEFAULT_PIPELINE, load_pipeline
from toolpipe.effects import CacheLimits
from toolpipe.integrations.mcp import registry_from_tools
from toolpipe.layers.memoize import MARKER, MemoizeOptions
from toolpipe.profiles import ConstrainedProfile
from toolpipe.tools import workspace_registry

pytestmark = [pytest.mark.process,
              pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")]


def default(root, interp=None):
    registry = workspace_registry(str(root), bash_timeout=10.0, sandbox="none")
    pipeline = load_pipeline(DEFAULT_PIPELINE, registry).with_core(registry).build()
    sim = interp or SimulatedInterpreter()

    def call(tool, cwd=".", turn=1, **input):
        ctx = DispatchContext(tool, input, call_id="c", turn_number=turn,
                              tool_context=ToolContext(cwd=cwd))
        return sim.run(pipeline.dispatch(ctx))
    return call, sim


def constrained(root):
    registry = workspace_registry(str(root), bash_timeout=10.0, sandbox="none")
    profile = ConstrainedProfile.for_registry(registry)
    pipeline = profile.pipeline_builder().with_core(registry).build()
    sim = SimulatedInterpreter()

    def call(tool, **input):
        return sim.run(pipeline.dispatch(DispatchContext(tool, input, call_id="c")))
    return call


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    (root / "a.txt").write_text("alpha\n")
    (root / "src" / "b.py").write_text("beta\n")
    return root


@pytest.mark.parametrize("cwd", [".", "ABS"])
def test_a_write_behind_the_pipelines_back_is_never_served(ws, cwd):
    """A background job or an editor rewrites the file, same size, within one clock tick:
    the stat may not move, the digest of a recently changed file does."""
    call, _ = default(ws)
    cwd = str(ws) if cwd == "ABS" else cwd
    assert "alpha" in call("Read", cwd=cwd, path="a.txt").text
    (ws / "a.txt").write_text("omega\n")
    assert "omega" in call("Read", cwd=cwd, path="a.txt").text
    (ws / "src" / "c.py").write_text("new\n")
    assert "c.py" in call("LS", cwd=cwd, path="src").text
    (ws / "src" / "c.py").write_text("gone\n")
    assert "gone" in call("Grep", cwd=cwd, pattern="gone", path="src").text


def test_a_link_changed_behind_the_back_is_seen(ws):
    (ws / "other.txt").write_text("other\n")
    os.symlink("a.txt", ws / "link.txt")
    call, _ = default(ws)
    assert "alpha" in call("Read", path="link.txt").text
    os.remove(ws / "link.txt")
    os.symlink("other.txt", ws / "link.txt")
    assert "other" in call("Read", path="link.txt").text


def test_two_workspaces_sharing_a_store_never_share_an_answer(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    for root, text in ((one, "first\n"), (two, "second\n")):
        root.mkdir()
        (root / "a.txt").write_text(text)
    sim = SimulatedInterpreter(store=MemoryStore())
    first, _ = default(one, sim)
    second, _ = default(two, sim)
    assert "first" in first("Read", path="a.txt").text
    assert "second" in second("Read", path="a.txt").text


def test_an_unreadable_command_keeps_checked_entries_and_a_failed_one_still_writes(ws):
    call, _ = default(ws)
    call("Read", path="a.txt")
    call("Bash", command="python3 -c 'print(1)'")  # its writes cannot be known
    hit = call("Read", path="a.txt")
    assert hit.cached and hit.text.endswith(MARKER)  # checked, still valid: served
    call("Bash", command="echo changed > a.txt; false")
    assert "changed" in call("Read", path="a.txt").text


def test_constrained_profile_counts_shells_as_writers_and_checks_hits(ws):
    call = constrained(ws)
    call("Read", path="a.txt")
    call("Bash", command="echo shell > a.txt")
    assert "shell" in call("Read", path="a.txt").text
    (ws / "a.txt").write_text("other\n")
    assert "other" in call("Read", path="a.txt").text


def test_hit_rate_where_nothing_wrote(ws):
    for i in range(20):
        (ws / "src" / f"m{i}.py").write_text(f"x = {i}\n")
    os.utime(ws / "a.txt", (1, 1))  # old files: stamped by stat alone
    call, _ = default(ws)
    reads = [("Read", {"path": f"src/m{i % 20}.py"}) for i in range(200)]
    reads += [("LS", {"path": "src"}), ("Grep", {"pattern": "x", "path": "src"})] * 20
    hits = sum(call(tool, **input).cached for tool, input in reads)
    assert hits / (len(reads) - 22) >= 0.9


def test_the_store_is_bounded_by_entries_bytes_and_age():
    store = MemoryStore()
    for i in range(100):
        store.put("n", f"k{i}", "v", frozenset(), None,
                  limits=CacheLimits(size=10, age=i // 10, min_age=i // 10 - 2,
                                     max_entries=50, max_bytes=10_000))
    assert len(store) <= 30  # ages 7, 8, 9 alive: the rest expired as turns passed
    for i in range(100):
        store.put("m", f"k{i}", "v", frozenset(), None,
                  limits=CacheLimits(size=100, max_entries=50, max_bytes=1_000))
    assert len(store._spaces["m"].entries) == 10 and store._spaces["m"].bytes == 1_000
    assert store.get("m", "k99").unwrap() == "v" and not store.get("m", "k0")


def test_a_large_answer_is_not_kept(ws):
    (ws / "big.txt").write_text("x" * 300_000)
    call, sim = default(ws)
    call("Read", path="big.txt")
    assert len(sim.store) == 0 and not call("Read", path="big.txt").cached


MCP_TOOLS = [
    {"name": "clock", "annotations": {"readOnlyHint": True}},
    {"name": "lookup", "annotations": {"readOnlyHint": True, "openWorldHint": False}},
    {"name": "create", "annotations": {}},
    {"name": "status", "annotations": {"readOnlyHint": True, "openWorldHint": True}},
]


def test_mcp_tools_are_cached_only_read_only_in_a_closed_world():
    registry = registry_from_tools(None, MCP_TOOLS)
    layer = MemoizeOptions().build(registry)
    assert layer.cached_tools >= {"lookup"}  # type: ignore[attr-defined]
    assert not layer.cached_tools & {"clock", "create", "status"}  # type: ignore[attr-defined]
    assert {"clock", "status"} <= layer.read_only_tools  # type: ignore[attr-defined]
    assert "create" not in layer.read_only_tools  # type: ignore[attr-defined]


def test_stamps_hold_while_nothing_changes_and_move_when_anything_does(tmp_path, monkeypatch):
    from interpreters import files
    from toolpipe.effects import FileOp

    def stamp(op, path):
        return files.perform(FileOp(op, str(tmp_path), path)).unwrap()

    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f.txt").write_text("same\n")
    before = [stamp("stamp", "d/f.txt"), stamp("stamp", "d"), stamp("stamp_tree", ".")]
    assert before == [stamp("stamp", "d/f.txt"), stamp("stamp", "d"), stamp("stamp_tree", ".")]
    info = os.stat(tmp_path / "d" / "f.txt")
    (tmp_path / "d" / "f.txt").write_text("SAME\n")  # same size, same tick possibly:
    os.utime(tmp_path / "d" / "f.txt", ns=(info.st_atime_ns, info.st_mtime_ns))
    after = [stamp("stamp", "d/f.txt"), stamp("stamp", "d"), stamp("stamp_tree", ".")]
    assert all(a != b for a, b in zip(before, after, strict=True))  # the digest moved
    assert stamp("stamp", "missing.txt") == stamp("stamp", "missing.txt")
    monkeypatch.setattr(files, "MAX_STAMP_ENTRIES", 1)
    too_many = files.perform(FileOp("stamp_tree", str(tmp_path), "."))
    assert isinstance(too_many, Failure) and "too large" in too_many.failure()


@pytest.mark.parametrize("racy", [True, False])
def test_the_quick_path_answers_as_the_worker_would_or_not_at_all(tmp_path, monkeypatch,
                                                                  racy):
    from interpreters import files
    from toolpipe.effects import FileOp

    if not racy:  # every file counts as changed long ago
        monkeypatch.setattr(files, "RACY_NS", -(2**62))
    (tmp_path / "old.txt").write_text("old\n")
    (tmp_path / "new.txt").write_text("new\n")  # changed just now: needs its digest
    (tmp_path / "large.txt").write_text("x" * (files.QUICK_READ_BYTES + 1))
    (tmp_path / "wide").mkdir()
    for i in range(files.QUICK_ENTRIES + 1):
        (tmp_path / "wide" / f"{i}").mkdir()
    for op, path, quick in [("stamp", "old.txt", not racy), ("resolve", "new.txt", True),
                            ("stamp", "new.txt", not racy), ("stamp", "wide", False),
                            ("read", "old.txt", True), ("read", "large.txt", False),
                            ("read", "wide", True), ("stamp_tree", ".", False)]:
        effect = FileOp(op, str(tmp_path), path)
        answer = files.perform_quick(effect)
        assert (answer is not None) == quick, (op, path)
        if quick:
            assert answer == files.perform(effect)
