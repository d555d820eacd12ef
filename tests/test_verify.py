import sys

import pytest

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    CommandVerifier,
    ConfigError,
    DispatchContext,
    MultipartContent,
    NoopVerifier,
    TextContent,
    Tool,
    ToolContext,
    ToolError,
    ToolPipeline,
    ToolRegistry,
    VerifyMiddleware,
    VerifyResult,
)
from toolpipe.effects import Sleep

from .helpers import dispatch


def write(input, context):
    if input.get("fail"):
        raise ToolError("cannot write")
    return "wrote"


def multi(input, context):
    return MultipartContent([TextContent("wrote")])


REG = ToolRegistry([Tool.from_function("Write", write), Tool.from_function("Read", write),
                    Tool.from_function("Multi", multi)])


def run(verifier, ctx, **options):
    layer = VerifyMiddleware(verifier, ["Write", "Multi"], **options)
    p = ToolPipeline.builder().with_middleware(layer).with_core(REG).build()
    return SimulatedInterpreter().run(p.dispatch(ctx))


class Fixed:
    def __init__(self, result):
        self.result = result
        self.calls = []

    def verify(self, context, tool, input):
        self.calls.append((context, tool, input))
        return self.result


def test_passed_and_failed_verdicts_are_appended_never_setting_is_error():
    r = run(Fixed(VerifyResult.ok("all good")), DispatchContext("Write"))
    assert r.text == "wrote\n\n[verify] passed: all good" and not r.is_error
    r = run(Fixed(VerifyResult.fail("syntax error line 3")), DispatchContext("Write"))
    assert r.text == "wrote\n\n[verify] failed: syntax error line 3" and not r.is_error


def test_noop_verifier_passes_with_empty_diagnostics():
    assert run(NoopVerifier(), DispatchContext("Write")).text == "wrote\n\n[verify] passed: "


def test_multipart_gets_a_new_text_part():
    r = run(NoopVerifier(), DispatchContext("Multi"))
    assert r.output == MultipartContent([TextContent("wrote"), TextContent("[verify] passed: ")])


def test_skipped_on_errors_and_on_other_tools():
    v = Fixed(VerifyResult.ok("x"))
    assert run(v, DispatchContext("Write", {"fail": True})).text == "cannot write"
    assert run(v, DispatchContext("Read")).text == "wrote"
    assert v.calls == []


def test_verifier_receives_the_tool_context_name_and_input():
    v = Fixed(VerifyResult.ok())
    ctx = DispatchContext("Write", {"path": "a.py"}, tool_context=ToolContext(cwd="/w"))
    run(v, ctx)
    assert v.calls == [(ToolContext(cwd="/w"), "Write", {"path": "a.py"})]


def test_verifier_that_raises_gives_a_failed_verdict():
    class Broken:
        def verify(self, context, tool, input):
            raise OSError("no compiler")

    r = run(Broken(), DispatchContext("Write"))
    assert r.text == "wrote\n\n[verify] failed: verifier raised OSError: no compiler"
    assert not r.is_error


def test_verifier_that_hangs_times_out_on_the_simulated_clock():
    class Hangs:
        def verify(self, context, tool, input):
            yield Sleep(10_000)

    sim = SimulatedInterpreter()
    layer = VerifyMiddleware(Hangs(), ["Write"], timeout=30)
    p = ToolPipeline.builder().with_middleware(layer).with_core(REG).build()
    r = sim.run(p.dispatch(DispatchContext("Write")))
    assert r.text == "wrote\n\n[verify] failed: verifier timed out after 30s" and sim.now == 30


def test_verifier_returning_junk():
    r = run(Fixed("yes"), DispatchContext("Write"))
    assert "[verify] failed: verifier returned 'yes', not a VerifyResult" in r.text


def test_async_verifier_on_asyncio():
    class AsyncOk:
        async def verify(self, context, tool, input):
            return VerifyResult.ok("async")

    layer = VerifyMiddleware(AsyncOk(), ["Write"])
    p = ToolPipeline.builder().with_middleware(layer).with_core(REG).build()
    assert dispatch("asyncio", p, DispatchContext("Write")).text.endswith("passed: async")


@pytest.mark.parametrize("kind", ["simulated", "asyncio", "trio"])
def test_command_verifier_runs_py_compile_in_the_cwd(kind, tmp_path):
    (tmp_path / "good.py").write_text("x = 1\n")
    (tmp_path / "bad.py").write_text("def broken(:\n")
    verifier = CommandVerifier(f"{sys.executable} -m py_compile {{path}}", timeout=20)
    layer = VerifyMiddleware(verifier, ["Write"])
    p = ToolPipeline.builder().with_middleware(layer).with_core(REG).build()
    ctx = ToolContext(cwd=str(tmp_path))
    good = dispatch(kind, p, DispatchContext("Write", {"path": "good.py"}, tool_context=ctx))
    bad = dispatch(kind, p, DispatchContext("Write", {"path": "bad.py"}, tool_context=ctx))
    assert "[verify] passed:" in good.text
    assert "[verify] failed:" in bad.text and "SyntaxError" in bad.text and not bad.is_error


def test_command_verifier_timeout_and_missing_path(tmp_path):
    slow = CommandVerifier([sys.executable, "-c", "import time; time.sleep(5)"], timeout=0.2)
    r = run(slow, DispatchContext("Write", tool_context=ToolContext(cwd=str(tmp_path))))
    assert r.text.endswith("[verify] failed: command timed out after 0.2s")
    needs_path = CommandVerifier("cat {path}")
    assert "no path in the input" in run(needs_path, DispatchContext("Write")).text


def test_bad_arguments():
    with pytest.raises(ConfigError, match="command"):
        CommandVerifier("")
    with pytest.raises(ConfigError, match="command"):
        CommandVerifier("echo 'unbalanced")
    with pytest.raises(ConfigError, match="timeout"):
        CommandVerifier("true", timeout=-1)
    with pytest.raises(ConfigError, match="verifier"):
        VerifyMiddleware(42, ["Write"])
    with pytest.raises(ConfigError, match="timeout"):
        VerifyMiddleware(NoopVerifier(), ["Write"], timeout=float("nan"))
