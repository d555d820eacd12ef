import time

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    ConfigError,
    DispatchContext,
    ToolPipeline,
    UnknownToolMiddleware,
    similarity,
)
from toolpipe.layers.unknown_tool import best_match

from .helpers import echo, registry


def test_similarity_examples():
    assert similarity("read_fille", "read_file") == pytest.approx(0.98)
    assert similarity("fille", "file") == pytest.approx(0.86)
    assert similarity("", "") == 1.0 and similarity("", "a") == 0.0 and similarity("a", "") == 0
    assert similarity("READ", "read") == 1.0


@given(st.text(max_size=12), st.text(max_size=12))
def test_similarity_is_clamped_and_symmetric(a, b):
    s = similarity(a, b)
    assert 0.0 <= s <= 1.0
    assert s == pytest.approx(similarity(b, a))


def reference_lcs(a, b):
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1],
                                                                      table[i + 1][j])
    return table[-1][-1]


@given(st.text("abcd_", min_size=1, max_size=8), st.text("abcd_", min_size=1, max_size=8))
def test_similarity_matches_the_formula(a, b):
    if a.lower() == b.lower():
        return
    la, lb = a.lower(), b.lower()
    longest = max(len(la), len(lb))
    pairs = enumerate(zip(la, lb, strict=False))
    prefix = next((i for i, (x, y) in pairs if x != y), min(len(la), len(lb)))
    expected = min(1.0, reference_lcs(la, lb) / longest + 0.1 * prefix / longest)
    assert similarity(a, b) == pytest.approx(expected)


def pipeline(layer_factory, *outer):
    reg = registry(read_file=echo, write_file=echo, list_dir=echo)
    builder = ToolPipeline.builder().with_middlewares(outer)
    return builder.with_middleware(layer_factory(reg)).with_core(reg).build()


def run(p, name):
    return SimulatedInterpreter().run(p.dispatch(DispatchContext(name)))


def test_appends_did_you_mean():
    r = run(pipeline(UnknownToolMiddleware), "read_fille")
    assert r.text == ("Tool not found: read_fille. Available: list_dir, read_file, write_file."
                      " Did you mean 'read_file'?")


def test_no_suggestion_below_threshold_and_threshold_inclusive():
    r = run(pipeline(UnknownToolMiddleware), "zzzzzzzz")
    assert "Did you mean" not in r.text
    score = similarity("fille", "file")
    reg = registry(file=echo)
    at = ToolPipeline.builder().with_middleware(
        UnknownToolMiddleware(reg).with_threshold(score)).with_core(reg).build()
    assert "Did you mean 'file'" in run(at, "fille").text
    above = ToolPipeline.builder().with_middleware(
        UnknownToolMiddleware(reg).with_threshold(score + 1e-9)).with_core(reg).build()
    assert "Did you mean" not in run(above, "fille").text


def test_threshold_clamped_and_validated():
    reg = registry(a=echo)
    assert UnknownToolMiddleware(reg).threshold == 0.4
    assert UnknownToolMiddleware(reg).with_threshold(7).threshold == 1.0
    assert UnknownToolMiddleware(reg).with_threshold(-3).threshold == 0.0
    with pytest.raises(ConfigError, match="threshold"):
        UnknownToolMiddleware(reg).with_threshold(float("nan"))


def test_ties_go_to_the_alphabetically_first():
    assert best_match("ab", ("ac", "aa"))[0] == "aa"
    assert best_match("b", ("zb", "ab"))[0] == "ab"


def test_uses_the_post_dispatch_name():
    class Rename:
        name = "rename"

        def dispatch(self, ctx, next):
            return (yield from next(attrs.evolve(ctx, tool_name="writ_file")))

    # the renaming layer sits inside: the suggestion is for what the core looked up
    reg = registry(read_file=echo, write_file=echo)
    p = (ToolPipeline.builder().with_middleware(UnknownToolMiddleware(reg))
         .with_middleware(Rename()).with_core(reg).build())
    r = run(p, "read_fille")
    assert r.text.endswith("Did you mean 'write_file'?")


def test_only_acts_on_not_found_errors():
    def failing(input, context):
        raise ValueError("tool exploded")

    reg = registry(read_file=failing)
    p = ToolPipeline.builder().with_middleware(UnknownToolMiddleware(reg)).with_core(reg).build()
    assert "Did you mean" not in run(p, "read_file").text


def test_fast_with_ten_thousand_tools():
    reg = registry(**{f"tool_{i:05}_action": echo for i in range(10_000)})
    layer = UnknownToolMiddleware(reg)
    layer.suggest("warm_up")
    start = time.perf_counter()
    assert layer.suggest("tool_04242_actoin") == "tool_04242_action"
    assert time.perf_counter() - start < 0.5


_names_st = st.text(alphabet="abcAB_-xyz0", max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(_names_st, min_size=1, max_size=30, unique=True), _names_st,
       st.sampled_from([0.0, 0.2, 0.4, 0.7, 1.0]))
@example(["00"], "00000000000", 0.2)  # a score exactly at the floor (found beside `yes`)
def test_the_pruned_search_answers_as_the_formula_over_every_candidate(cands, name, floor):
    """best_match skips candidates that cannot win (bounded by 1.1·lcs/longest, filtered
    in rapidfuzz's C loop): the same answer as the formula applied to every name."""
    from toolpipe._names import best_match, closest, similarity

    ranked = sorted(cands, key=lambda c: (-similarity(name, c), c))
    truth = (ranked[0], similarity(name, ranked[0]))
    assert best_match(name, tuple(sorted(cands))) == truth
    expected = truth[0] if truth[1] >= floor else None
    assert closest(name, tuple(sorted(cands)), floor) == expected


def test_the_property_catches_a_bound_that_forgets_the_prefix(monkeypatch):
    import toolpipe._names as names

    monkeypatch.setattr(names, "BOUND", 1.0)  # ignores the prefix bonus: prunes winners
    with pytest.raises((AssertionError, ExceptionGroup)) as caught:
        test_the_pruned_search_answers_as_the_formula_over_every_candidate()
    errors = getattr(caught.value, "exceptions", (caught.value,))
    assert errors and all(isinstance(e, AssertionError) for e in errors)
