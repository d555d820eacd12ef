"""The driver's quick constructors make values equal in every way to the ordinary ones
(they skip Python-level constructors and checks whose work is already done)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from returns.result import Success

from interpreters._core import succeeded, success
from interpreters.simulated import SimulatedInterpreter
from interpreters.stores import MemoryStore
from toolpipe._made import cache_limits, cache_lookup, cache_put, text_content
from toolpipe.effects import CacheInvalidate, CacheLookup, CallOutcome
from toolpipe.result import TextContent

values = st.one_of(st.text(), st.integers(), st.none(), st.lists(st.text(), max_size=3))


@given(values)
def test_success_is_success(value):
    made = success(value)
    assert type(made) is Success and made == Success(value)
    assert made.unwrap() is value
    assert repr(made) == repr(Success(value))


@given(values, st.floats(min_value=0, max_value=1e6))
def test_succeeded_is_a_call_outcome(value, duration):
    made = succeeded(value, duration)
    assert type(made) is CallOutcome and made == CallOutcome(Success(value), duration)
    assert repr(made) == repr(CallOutcome(Success(value), duration))


@given(st.text())
def test_text_content_is_text_content(text):
    made = text_content(text)
    assert type(made) is TextContent and made == TextContent(text)
    assert made.as_text() == text and hash(made) == hash(TextContent(text))


def test_call_tool_is_call_tool():
    from toolpipe import CancelSignal, Tool, ToolContext
    from toolpipe._made import call_tool
    from toolpipe.effects import CallTool

    tool = Tool.from_function("t", lambda input, context: "x")
    for cancel in (None, CancelSignal()):
        made = call_tool(tool, {"a": 1}, ToolContext(), cancel)
        same = CallTool(tool, {"a": 1}, ToolContext(), cancel)
        assert type(made) is CallTool and made == same and repr(made) == repr(same)


def test_the_cache_layers_values_are_their_classes_own():
    from toolpipe import DispatchResult, TextContent
    from toolpipe._made import cache_limits, cache_lookup, cache_put
    from toolpipe.effects import CacheLimits, CacheLookup, CachePut
    from toolpipe.layers._memo import MemoEntry, memo_entry

    limits = cache_limits(10, 2, None, 5, None)
    assert type(limits) is CacheLimits and limits == CacheLimits(10, 2, None, 5, None)
    result = DispatchResult("c", TextContent("x"))
    entry = memo_entry(result, 3, frozenset({"a"}), (("stamp", "a", "s"),), None)
    same = MemoEntry(result, 3, frozenset({"a"}), (("stamp", "a", "s"),), None)
    assert type(entry) is MemoEntry and entry == same and repr(entry) == repr(same)
    put = cache_put("memo", "k", entry, frozenset({"a"}), 7, limits)
    assert type(put) is CachePut and put == CachePut("memo", "k", entry, frozenset({"a"}), 7,
                                                     limits)
    assert repr(put) == repr(CachePut("memo", "k", entry, frozenset({"a"}), 7, limits))
    lookup = cache_lookup("memo", "k")
    assert type(lookup) is CacheLookup and lookup == CacheLookup("memo", "k")


def test_dispatch_result_is_dispatch_result():
    from toolpipe import DispatchResult, TextContent
    from toolpipe._made import dispatch_result
    from toolpipe.failures import NotFound
    from toolpipe.result import DisplayHint

    for cause, cached in ((None, False), (NotFound("x", ("a",)), True)):
        made = dispatch_result("c", TextContent("x"), True, 0.5, "Read", DisplayHint(),
                               cause, cached)
        same = DispatchResult("c", TextContent("x"), True, 0.5, "Read", DisplayHint(), cause,
                              cached)
        assert type(made) is DispatchResult and made == same and repr(made) == repr(same)
        assert hash(made) == hash(same)


class _PlainStore(MemoryStore):
    """The same store, not the exact class: the interpreter takes its generic path (get
    and epoch for a lookup, put with the effect's fields, each answer checked)."""


_ops = st.lists(st.tuples(st.sampled_from(["lookup", "put", "invalidate"]),
                          st.sampled_from(["a", "b", "c", "d"]), st.integers(0, 6)),
                max_size=40)


@given(_ops)
def test_the_memory_stores_one_call_answers_are_the_generic_ones(ops):
    """An interpreter answers CacheLookup and CachePut on the default MemoryStore with one
    call each (``lookup``, ``put_effect``); the answers are those of the generic path, and
    the stores end the same, bounds included (3 entries, turns of age 2)."""
    fast, generic = SimulatedInterpreter(store=MemoryStore()), SimulatedInterpreter(
        store=_PlainStore())
    assert fast._immediate[CacheLookup] == fast.store.lookup
    assert generic._immediate[CacheLookup] != generic.store.lookup

    def program():
        answers = []
        for op, key, turn in ops:
            if op == "lookup":
                answers.append((yield cache_lookup("ns", key)))
            elif op == "put":
                limits = cache_limits(10, turn, turn - 1, 3, None)
                answers.append((yield cache_put("ns", key, (key, turn), frozenset({key}),
                                                None, limits)))
            else:
                answers.append((yield CacheInvalidate("ns", frozenset({key}))))
        return answers

    assert fast.run(program()) == generic.run(program())
    kept = [list(space.entries.items()) if (space := s.store._spaces.get("ns")) else []
            for s in (fast, generic)]
    assert kept[0] == kept[1]
