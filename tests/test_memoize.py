import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreters.simulated import SimulatedInterpreter
from interpreters.stores import MemoryStore
from toolpipe import (
    ConfigError,
    DispatchContext,
    MemoizingMiddleware,
    MultipartContent,
    NoPathExtractor,
    TextContent,
    Tool,
    ToolContext,
    ToolError,
    ToolPipeline,
    ToolRegistry,
    WritePathExtractor,
    cache_key,
)
from toolpipe.effects import (
    CacheDelete,
    CacheGet,
    CacheInvalidate,
    CacheLookup,
    CachePut,
    Emit,
    Sleep,
)
from toolpipe.layers.memoize import CacheHit

from .test_types import json_values


class Files:
    """A fake file system with read/write tools that count their calls."""

    def __init__(self, latency=0.0):
        self.data = {}
        self.reads = 0
        self.latency = latency

    def registry(self):
        def read(input, context):
            self.reads += 1
            snapshot = self.data.get(input["path"])  # read first, then the transfer takes time
            if self.latency:
                yield Sleep(self.latency)
            if snapshot is None:
                raise ToolError(f"no such file: {input['path']}")
            return snapshot

        def write(input, context):
            if input.get("fail"):
                raise ToolError("disk full")
            self.data[input["path"]] = input["content"]
            return "ok"

        def multi(input, context):
            return MultipartContent([TextContent("part")])

        return ToolRegistry([Tool.from_function("Read", read), Tool.from_function("Write", write),
                             Tool.from_function("Multi", multi)])


def setup(ttl=5, extractor=None, latency=0.0):
    files = Files(latency)
    layer = MemoizingMiddleware(["Read", "Multi"], ["Write"], extractor, ttl)
    p = ToolPipeline.builder().with_middleware(layer).with_core(files.registry()).build()
    return files, p, SimulatedInterpreter(record=True)


def read(path, turn=1, call_id="r"):
    return DispatchContext("Read", {"path": path}, call_id=call_id, turn_number=turn)


def write(path, content="new", turn=1, **extra):
    return DispatchContext("Write", {"path": path, "content": content, **extra}, turn_number=turn)


def test_hit_appends_marker_keeps_duration_and_takes_the_callers_id():
    files, p, sim = setup(latency=1.5)
    files.data["a"] = "A"
    first = sim.run(p.dispatch(read("a", call_id="c1")))
    hit = sim.run(p.dispatch(read("a", call_id="c2")))
    assert files.reads == 1 and first.text == "A" and first.tool_call_id == "c1"
    assert hit.text == "A\n[cached]" and hit.duration == 1.5 and hit.tool_call_id == "c2"


def test_a_hit_marks_plain_text_only_and_always_says_so_in_the_result():
    """Departure from the spec (an extra ``[cached]`` part): structured answers stay as
    they were; a hit is ``result.cached`` and a ``CacheHit`` event everywhere."""
    _, p, sim = setup()
    first = sim.run(p.dispatch(DispatchContext("Multi")))
    hit = sim.run(p.dispatch(DispatchContext("Multi")))
    assert hit.output == MultipartContent([TextContent("part")]) == first.output
    assert hit.cached and not first.cached
    assert sum(isinstance(e, Emit) and isinstance(e.event, CacheHit) for e in sim.trace) == 1


@pytest.mark.parametrize("text", ['{"a": 1}', '[1, 2]', '  {"nested": {"x": [true]}}\n'])
def test_json_answers_stay_valid_json_on_a_hit(text):
    files, p, sim = setup()
    files.data["j"] = text
    sim.run(p.dispatch(read("j")))
    hit = sim.run(p.dispatch(read("j")))
    assert hit.cached and hit.text == text and json.loads(hit.text) is not None


def test_text_that_only_looks_like_json_is_marked():
    files, p, sim = setup()
    files.data["t"] = "{not json"
    sim.run(p.dispatch(read("t")))
    assert sim.run(p.dispatch(read("t"))).text == "{not json\n[cached]"


@pytest.mark.parametrize(("turn", "hit"), [(1, True), (5, True), (6, False), (7, False)])
def test_ttl_in_turns(turn, hit):
    files, p, sim = setup(ttl=5)
    files.data["a"] = "A"
    sim.run(p.dispatch(read("a", turn=1)))
    r = sim.run(p.dispatch(read("a", turn=turn)))
    assert r.text.endswith("[cached]") is hit and files.reads == (1 if hit else 2)


def test_expired_entries_are_dropped_on_lookup():
    files, p, sim = setup(ttl=1)
    files.data["a"] = "A"
    sim.run(p.dispatch(read("a", turn=1)))
    sim.trace.clear()
    sim.run(p.dispatch(read("a", turn=2)))
    assert any(isinstance(e, CacheDelete) for e in sim.trace)


def test_ttl_zero_disables_and_touches_no_store():
    files, p, sim = setup(ttl=0)
    files.data["a"] = "A"
    sim.run(p.dispatch(read("a")))
    sim.run(p.dispatch(read("a")))
    assert files.reads == 2
    assert not any(isinstance(e, CacheGet | CacheLookup | CachePut) for e in sim.trace)


def test_errors_are_never_cached():
    files, p, sim = setup()
    sim.run(p.dispatch(read("missing")))
    sim.run(p.dispatch(read("missing")))
    assert files.reads == 2


def test_successful_write_invalidates_the_same_path_only():
    files, p, sim = setup()
    files.data.update(a="A", b="B")
    sim.run(p.dispatch(read("a")))
    sim.run(p.dispatch(read("b")))
    sim.run(p.dispatch(write("a", "A2")))
    assert sim.run(p.dispatch(read("a"))).text == "A2"
    assert sim.run(p.dispatch(read("b"))).text == "B\n[cached]"


def test_failed_write_invalidates_nothing_and_writes_are_never_cached():
    files, p, sim = setup()
    files.data["a"] = "A"
    sim.run(p.dispatch(read("a")))
    sim.trace.clear()
    sim.run(p.dispatch(write("a", fail=True)))
    assert not any(isinstance(e, CacheInvalidate | CachePut) for e in sim.trace)
    assert sim.run(p.dispatch(read("a"))).text == "A\n[cached]"
    w1 = sim.run(p.dispatch(write("b")))
    w2 = sim.run(p.dispatch(write("b")))
    assert "[cached]" not in w1.text + w2.text


def test_a_tool_in_both_lists_is_a_write():
    layer = MemoizingMiddleware(["Edit", "Read"], ["Edit"])
    assert "Edit" not in layer.cached_tools and "Edit" in layer.write_tools


def test_paths_normalised_against_cwd():
    files = Files()
    layer = MemoizingMiddleware(["Read"], ["Write"])
    p = ToolPipeline.builder().with_middleware(layer).with_core(files.registry()).build()
    sim = SimulatedInterpreter()
    files.data.update({"/w/src/a.py": "A", "src/../src/a.py": "A"})
    ctx_read = DispatchContext("Read", {"path": "/w/src/a.py"})
    sim.run(p.dispatch(ctx_read))
    sim.run(p.dispatch(DispatchContext("Write", {"path": "src/../src/a.py", "content": "x"},
                                       tool_context=ToolContext(cwd="/w"))))
    assert sim.run(p.dispatch(ctx_read)).text == "A"  # re-read, not cached


def test_no_path_extractor_means_every_write_clears_the_cache():
    files, p, sim = setup(extractor=NoPathExtractor())
    files.data.update(a="A", b="B")
    sim.run(p.dispatch(read("a")))
    sim.run(p.dispatch(read("b")))
    sim.run(p.dispatch(write("zzz")))
    assert files.reads == 2
    sim.run(p.dispatch(read("a")))
    assert files.reads == 3


def test_extractor_that_raises_is_conservative():
    def broken(tool, input):
        raise RuntimeError("bad extractor")

    files, p, sim = setup(extractor=broken)
    files.data["a"] = "A"
    first = sim.run(p.dispatch(read("a")))
    second = sim.run(p.dispatch(read("a")))
    assert first.text == "A" and second.text == "A" and files.reads == 2  # not cached, not lost
    w = sim.run(p.dispatch(write("a")))
    assert w.text == "ok"


def test_epoch_guard_drops_a_read_that_raced_a_write():
    # Read starts (miss), then a Write to the same path completes while the Read is in
    # flight: the Read's result predates the write and must not be inserted.
    files, p, sim = setup(latency=2.0)
    files.data["a"] = "old"
    results = sim.run_all([p.dispatch(read("a")), p.dispatch(write("a", "new"))])
    assert results[0].text == "old" and results[1].text == "ok"
    again = sim.run(p.dispatch(read("a")))
    assert again.text == "new" and files.reads == 2


def test_without_the_race_the_read_is_inserted():
    files, p, sim = setup(latency=2.0)
    files.data["a"] = "old"
    sim.run_all([p.dispatch(read("a")), p.dispatch(read("b_missing"))])
    assert sim.run(p.dispatch(read("a"))).text == "old\n[cached]"


def test_all_state_lives_in_the_store():
    store = MemoryStore()
    files = Files()
    files.data["a"] = "A"
    layer = MemoizingMiddleware(["Read"], ["Write"])
    p = ToolPipeline.builder().with_middleware(layer).with_core(files.registry()).build()
    SimulatedInterpreter(store=store).run(p.dispatch(read("a")))
    # a second interpreter sharing the store sees the entry
    assert SimulatedInterpreter(store=store).run(p.dispatch(read("a"))).text == "A\n[cached]"
    assert len(store) == 1
    assert SimulatedInterpreter().run(p.dispatch(read("a"))).text == "A"


@given(st.dictionaries(st.text(max_size=4), json_values, max_size=5))
def test_key_ignores_object_key_order(d):
    assert cache_key("Read", d) == cache_key("Read", dict(reversed(list(d.items()))))


def test_key_differs_by_tool_and_input():
    assert cache_key("Read", {"a": 1}) != cache_key("Glob", {"a": 1})
    assert cache_key("Read", {"a": 1}) != cache_key("Read", {"a": 2})
    assert cache_key("Read", {"a": 1}) == cache_key("Read", {"a": 1.0})


def test_bad_arguments():
    with pytest.raises(ConfigError, match="ttl_turns"):
        MemoizingMiddleware(["Read"], ["Write"], None, -1)
    with pytest.raises(ConfigError, match="cached_tools"):
        MemoizingMiddleware("Read", ["Write"])
    with pytest.raises(ConfigError, match="path_extractor"):
        MemoizingMiddleware(["Read"], ["Write"], "nope")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("input", "paths"),
    [
        ({"path": "a.txt"}, ["/w/a.txt"]),
        ({"file_path": "/abs/b"}, ["/abs/b"]),
        ({"filename": "./c/../d"}, ["/w/d"]),
        ({"filepath": "e"}, ["/w/e"]),
        ({"path": 3, "file_path": "f"}, ["/w/f"]),
        ({"command": "echo hi > out.txt 2>>err.log"}, ["/w/out.txt", "/w/err.log"]),
        ({"command": "make 2>&1 >&2 1>build.log"}, ["/w/build.log"]),
        ({"cmd": "run &> all.log"}, ["/w/all.log"]),
        ({"command": "sh -c 'echo x >> inner.txt'"}, ["/w/inner.txt"]),
        ({"command": "echo '>' notafile"}, []),
        ({"command": "cat a | grep b"}, []),
        ({"other": "x"}, []),
    ],
)
def test_write_path_extractor(input, paths):
    assert WritePathExtractor()("Bash", input, ToolContext(cwd="/w")) == paths
