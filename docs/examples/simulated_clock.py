"""Testing timeouts, retries and races on the simulated clock: exact and instant."""

from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    CancelSignal,
    DispatchContext,
    MemoizingMiddleware,
    TimeoutConfig,
    TimeoutMiddleware,
    Tool,
    ToolPipeline,
    ToolRegistry,
)
from toolpipe.effects import Now, Sleep


def slow_tool(latency):
    def tool(input, context):
        yield Sleep(latency)
        return f"answered after {latency}s"

    return tool


registry = ToolRegistry([Tool.from_function("search", slow_tool(50))])
retrying = TimeoutMiddleware(TimeoutConfig(timeout=20, retry_on_timeout=True, max_retries=2))
pipeline = ToolPipeline.builder().with_middleware(retrying).with_core(registry).build()


def timed(ctx):
    start = yield Now()
    result = yield from pipeline.dispatch(ctx)
    return result, (yield Now()) - start


sim = SimulatedInterpreter(seed=7)
result, spent = sim.run(timed(DispatchContext("search")))
# attempts under 20 s and 40 s expire; the third, under 80 s, succeeds after 50 s
print(result.text, "| virtual seconds spent:", spent)
assert result.text == "answered after 50s" and spent == 20 + 40 + 50

# Cancellation at a chosen virtual time.
signal = CancelSignal()
sim = SimulatedInterpreter()
sim.cancel_at(signal, 12.5)
cancelled = sim.run(pipeline.dispatch(DispatchContext("search", cancel=signal)))
print(cancelled.text, "at", sim.now)
assert cancelled.text == "Tool 'search' cancelled" and sim.now == 12.5

# A read racing a write in the same wave: the memoizer's epoch guard drops the stale read.
files = {"a.txt": "old"}


def read(input, context):
    snapshot = files[input["path"]]
    yield Sleep(2)
    return snapshot


def write(input, context):
    files[input["path"]] = input["content"]
    return "ok"


fs = ToolRegistry([Tool.from_function("Read", read), Tool.from_function("Write", write)])
memo = ToolPipeline.builder().with_middleware(MemoizingMiddleware(["Read"], ["Write"])) \
    .with_core(fs).build()
sim = SimulatedInterpreter()
stale, _ = sim.run_all([
    memo.dispatch(DispatchContext("Read", {"path": "a.txt"})),
    memo.dispatch(DispatchContext("Write", {"path": "a.txt", "content": "new"})),
])
fresh = sim.run(memo.dispatch(DispatchContext("Read", {"path": "a.txt"})))
print(stale.text, "->", fresh.text)
assert stale.text == "old" and fresh.text == "new"  # the stale read was never cached
