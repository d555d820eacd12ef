"""Writing your own layer: a pure function from a context and `next` to a program."""

import attrs

from interpreters.simulated import SimulatedInterpreter
from toolpipe import DispatchContext, TextContent, ToolPipeline, ToolRegistry
from toolpipe.effects import Emit, Now


@attrs.frozen
class Alias:
    """Routes old tool names to new ones (the core looks up the rewritten name)."""

    aliases: dict[str, str]
    name: str = "alias"

    def dispatch(self, ctx, next):
        target = self.aliases.get(ctx.tool_name, ctx.tool_name)
        return (yield from next(attrs.evolve(ctx, tool_name=target)))


@attrs.frozen
class Stopwatch:
    """Measures the layers inside it on the interpreter's clock and emits a trace event."""

    name: str = "stopwatch"

    def dispatch(self, ctx, next):
        start = yield Now()
        result = yield from next(ctx)
        yield Emit(("took", ctx.tool_name, (yield Now()) - start))
        return attrs.evolve(result, output=TextContent(result.text + " (timed)"))


registry = ToolRegistry()
registry.tool("cat")(lambda input, context: f"contents of {input['path']}")

pipeline = (ToolPipeline.builder().with_middleware(Stopwatch())
            .with_middleware(Alias({"type": "cat"})).with_core(registry).build())
sim = SimulatedInterpreter()
result = sim.run(pipeline.dispatch(DispatchContext("type", {"path": "a.txt"})))
print(result.text, result.resolved_tool_name, sim.events)
assert result.text == "contents of a.txt (timed)" and result.resolved_tool_name == "cat"
assert sim.events == [("took", "type", 0.0)]
