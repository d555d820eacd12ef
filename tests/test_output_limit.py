import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    ConfigError,
    DispatchContext,
    ImageContent,
    MultipartContent,
    OutputLimitMiddleware,
    TextContent,
    Tool,
    ToolPipeline,
    ToolRegistry,
)
from toolpipe.layers.output_limit import cap_content, cap_text

MARK = "\n[truncated]"


def run(limit, output, is_error=False):
    def tool(input, context):
        if is_error:
            from toolpipe import ToolError

            raise ToolError(output)
        return output

    reg = ToolRegistry([Tool.from_function("t", tool)])
    p = ToolPipeline.builder().with_middleware(OutputLimitMiddleware(limit)).with_core(reg).build()
    return SimulatedInterpreter().run(p.dispatch(DispatchContext("t")))


def test_short_output_untouched_and_long_output_capped_within_budget():
    assert run(20, "x" * 20).text == "x" * 20
    r = run(20, "x" * 21)
    assert r.text == "x" * (20 - len(MARK)) + MARK and len(r.text) == 20


def test_budget_smaller_than_marker_yields_the_marker():
    assert cap_text("abcdefghijklmnopqrstuvwxyz", 5) == MARK


def test_zero_disables():
    assert run(0, "y" * 100_000).text == "y" * 100_000


def test_error_outputs_are_capped_too():
    r = run(15, "e" * 50, is_error=True)
    assert r.is_error and r.text == "eee" + MARK


def test_bad_max_chars():
    for bad in (-1, 1.5, "10", None):
        with pytest.raises(ConfigError, match="max_chars"):
            OutputLimitMiddleware(bad)


@given(st.text(), st.integers(min_value=0, max_value=200))
def test_never_cuts_inside_a_code_point_and_stays_in_budget(text, budget):
    capped = cap_text(text, budget)
    if len(text) <= budget:
        assert capped == text
    else:
        assert capped.endswith(MARK)
        assert len(capped) <= max(budget, len(MARK))
        head = capped[: -len(MARK)]
        assert text.startswith(head)
        # round-trips through UTF-8: no surrogate halves or split characters
        assert capped.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass") == capped


def test_characters_not_bytes():
    snowmen = "☃" * 30  # 3 bytes each
    assert cap_text(snowmen, 30) == snowmen
    assert len(cap_text(snowmen + "x", 30)) == 30


def test_multipart_shares_one_budget_and_images_pass():
    img = ImageContent(b"\x89PNG")
    content = MultipartContent([TextContent("a" * 10), img, TextContent("b" * 10),
                                TextContent("c" * 10)])
    out = cap_content(content, 25)
    assert out.parts[0] == TextContent("a" * 10)
    assert out.parts[1] is img
    assert out.parts[2] == TextContent("b" * 10)
    assert out.parts[3] == TextContent(MARK)  # 5 left: smaller than the marker
    out2 = cap_content(content, 10)
    assert out2.parts == (TextContent("a" * 10), img, TextContent("[truncated]"),
                          TextContent("[truncated]"))


def test_multipart_within_budget_is_untouched():
    content = MultipartContent([TextContent("ab"), TextContent("")])
    assert cap_content(content, 2) is content


texts = st.text(max_size=60)
contents = st.one_of(
    texts.map(TextContent),
    st.lists(st.one_of(texts.map(TextContent), st.just(ImageContent(b"i"))), max_size=5)
    .map(MultipartContent),
)


@given(contents, st.integers(min_value=1, max_value=80))
def test_idempotent(content, budget):
    once = cap_content(content, budget)
    assert cap_content(once, budget) == once


@given(contents, st.integers(min_value=1, max_value=80))
def test_bound_on_the_kept_text(content, budget):
    """What is kept of the tool's text never exceeds the budget; markers are extra only
    when the budget is smaller than a marker, or for parts reached with no budget left."""
    out = cap_content(content, budget)
    if out is content:
        return
    parts = [out] if isinstance(out, TextContent) else out.parts
    kept = 0
    for part in parts:
        if isinstance(part, TextContent) and part.text not in ("[truncated]",):
            kept += len(part.text[: -len(MARK)] if part.text.endswith(MARK) else part.text)
    assert kept <= budget
    if isinstance(out, TextContent):
        assert len(out.text) <= max(budget, len(MARK))


def test_display_hint_and_duration_survive():
    from toolpipe import DispatchResult, DisplayHint

    r = DispatchResult("i", TextContent("z" * 50), False, 3.0, "t", DisplayHint("code"))

    def inner(ctx):
        return r
        yield

    out = SimulatedInterpreter().run(OutputLimitMiddleware(20).dispatch(DispatchContext("t"),
                                                                         inner))
    assert out.duration == 3.0 and out.display_hint == DisplayHint("code")
    assert attrs.evolve(out, output=r.output) == r
