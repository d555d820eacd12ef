"""A pipeline around any callable: ``wrap(fn)`` gives ``fn`` back as a tool call through a
pipeline (the default one, or a pipeline file's text, or a builder), awaited on the asyncio
interpreter or called synchronously in real time.

    from interpreters.wrap import wrap

    safe = wrap(run_command)                         # its signature is its schema
    result = await safe(command="ls")                # a DispatchResult
    result = safe.sync(command="ls")                 # the same, blocking, real time

Each call runs through the pipeline on the asyncio interpreter; ``sync`` runs it on a loop
of its own (on this thread, or, when this thread already runs a loop, on another), so it
works from plain code, a script or a synchronous framework hook. The layers' memory (the
cache, the shield's session) is the wrapper's, across its calls. Turns count calls unless
given (``turn=``), as memoize's time-to-live counts turns.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import warnings
from collections.abc import Callable
from typing import Any

from interpreters.asyncio import AsyncioInterpreter
from interpreters.stores import MemoryStore
from toolpipe.config import DEFAULT_PIPELINE, load_pipeline
from toolpipe.context import DispatchContext, ToolContext
from toolpipe.pipeline import PipelineBuilder, ToolPipeline
from toolpipe.registry import Tool, ToolRegistry
from toolpipe.result import DispatchResult

__all__ = ["Wrapper", "run_sync", "wrap"]


def run_sync(program: Any, *, store: Any = None) -> Any:
    """Run a program synchronously, in real time, on the asyncio interpreter: on a new
    loop on this thread, or on another thread when this one already runs a loop."""
    async def main() -> Any:
        return await AsyncioInterpreter(store).run(program)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


class Wrapper:
    """``fn`` as a tool call through a pipeline (see the module)."""

    def __init__(self, fn: Callable[..., Any], pipeline: str | PipelineBuilder,
                 *, name: str | None = None, cwd: str = ".", **declared: Any) -> None:
        self.name: str = name or str(getattr(fn, "__name__", "tool"))
        registry = ToolRegistry([Tool.from_function(self.name, fn, **declared)])
        builder = (load_pipeline(pipeline, registry) if isinstance(pipeline, str)
                   else pipeline)
        with warnings.catch_warnings():  # one tool that is not a shell: nothing to say
            warnings.filterwarnings("ignore", "safety_shield watches none")
            self.pipeline: ToolPipeline = builder.with_core(registry).build()
        self.store = MemoryStore()
        self.cwd = cwd
        self._turns = itertools.count(1)

    def program(self, arguments: dict[str, Any], *, turn: int | None = None,
                call_id: str = "") -> Any:
        ctx = DispatchContext(self.name, arguments, call_id=call_id,
                              turn_number=turn if turn is not None else next(self._turns),
                              tool_context=ToolContext(cwd=self.cwd))
        return self.pipeline.dispatch(ctx)

    async def __call__(self, *, turn: int | None = None, **arguments: Any) -> DispatchResult:
        result: DispatchResult = await AsyncioInterpreter(self.store).run(
            self.program(arguments, turn=turn))
        return result

    def sync(self, *, turn: int | None = None, **arguments: Any) -> DispatchResult:
        result: DispatchResult = run_sync(self.program(arguments, turn=turn),
                                          store=self.store)
        return result


def wrap(fn: Callable[..., Any], pipeline: str | PipelineBuilder = DEFAULT_PIPELINE,
         **options: Any) -> Wrapper:
    """``fn`` through ``pipeline``; ``options``: ``name``, ``cwd``, and what
    ``Tool.from_function`` takes (``description``, ``role``, ``read_only``,
    ``cacheable``, …)."""
    return Wrapper(fn, pipeline, **options)
