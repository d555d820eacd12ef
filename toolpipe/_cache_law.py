"""The cache law: memoize never serves what a write may have changed.

A hypothesis state machine over a small real workspace: random Read, LS, Glob and Grep
calls, Write and Edit calls, Bash commands drawn from a grammar (redirections, ``tee``,
``sed -i``, ``cp``, ``mv``, ``rm``, ``ln -sf``, ``cd``, read-only commands, an interpreter
whose writes cannot be known…), a tool the cache knows nothing about that writes, and
writes by a second agent through its own pipeline, and writes made behind the
pipeline's back (a background job, an editor, another process).
Every call goes through a pipeline with memoize; every read
is also answered by the same pipeline without it, and the two must agree apart from the
``[cached]`` marker. The kit stays pure: the caller says how to run a program (on which
interpreter), and the workspace is the standard tools' folder.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from toolpipe.context import DispatchContext, ToolContext
from toolpipe.effects import FileOp
from toolpipe.layers.memoize import MARKER, MemoizingMiddleware
from toolpipe.pipeline import Middleware, ToolPipeline
from toolpipe.program import Program
from toolpipe.registry import Tool, ToolRegistry
from toolpipe.result import DispatchResult

Runner = Callable[[Any], DispatchResult]  # runs one program to its result

FILES = ("a.txt", "b.txt", "src/c.py", "src/d.py", "src/sub/e.py", "docs/f.md", "link.txt")
DIRS = (".", "src", "src/sub")
WORDS = ("alpha", "beta")
PATTERNS = ("*.txt", "src/*.py", "**/*")
SETUP = ("rm -rf ./* && mkdir -p src/sub docs && echo alpha > a.txt && echo beta > b.txt"
         " && echo alpha > src/c.py && echo beta > src/d.py && echo beta > src/sub/e.py"
         " && echo alpha > docs/f.md && ln -s a.txt link.txt")
COMMANDS = (
    "echo {w} > {p}", "echo {w} >> {p}", "sed -i s/{w}/{v}/ {p}", "rm -f {p}", "cp {p} {q}",
    "mv {p} {q}", "touch {p}", "mkdir -p {d}/new", "cd {d} && echo {w} > made.txt",
    "echo {w} | tee {p} > /dev/null", "ln -sf b.txt {p}", "rm -rf {d}", "ls -la {d}",
    "cat {p}", "grep -rn {w} {d}", "wc -l {p}", "true",
    "python3 -c \"open('{p}', 'w').write('{w}')\"", "sh -c 'echo {w} > {p}'",
)


def _text(result: DispatchResult) -> str:
    return result.text.removesuffix(MARKER)


def cache_law_machine(registry: ToolRegistry, root: str, run: Callable[[], Runner], *,
                      memo: Callable[[], Middleware] | None = None,
                      ) -> type[RuleBasedStateMachine]:
    """The state machine for the standard tools over ``root`` (it is emptied and filled
    anew for each example). ``run()`` gives a fresh runner per example (a fresh
    interpreter, so a fresh store); ``memo`` makes the layer under test."""
    make = memo or (lambda: MemoizingMiddleware(["Read", "LS", "Glob", "Grep"],
                                                ["Write", "Edit", "Bash"], root=root))

    def stamp(input: Any, context: Any) -> Program[str]:
        """A tool the cache knows nothing about (role "other") that writes a file."""
        yield FileOp("write", root, str(input["path"]), str(input["text"]))
        return "stamped"

    registry = ToolRegistry([*registry.tools(),
                             Tool.from_function("Stamp", stamp)])
    bare = ToolPipeline.builder().with_core(registry).build()
    context = ToolContext(cwd=root)

    class CacheLaw(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.runner = run()
            self.cached = ToolPipeline.builder().with_middleware(make()).with_core(
                registry).build()
            self.other = ToolPipeline.builder().with_middleware(make()).with_core(
                registry).build()
            self.calls = 0

        def call(self, pipeline: ToolPipeline, tool: str, **input: Any) -> DispatchResult:
            self.calls += 1
            ctx = DispatchContext(tool, input, call_id=f"c{self.calls}", turn_number=1,
                                  tool_context=context)
            return self.runner(pipeline.dispatch(ctx))

        def check(self, tool: str, **input: Any) -> None:
            through = self.call(self.cached, tool, **input)
            truth = self.call(bare, tool, **input)
            assert _text(through) == truth.text and through.is_error == truth.is_error, (
                f"{tool} {input}: the cache answered {through.text!r}, the workspace "
                f"{truth.text!r}")

        @initialize()
        def setup(self) -> None:
            done = self.call(bare, "Bash", command=SETUP)
            assert not done.is_error, done.text

        @rule(path=st.sampled_from(FILES))
        def read(self, path: str) -> None:
            self.check("Read", path=path)

        @rule(path=st.sampled_from(DIRS))
        def ls(self, path: str) -> None:
            self.check("LS", path=path)

        @rule(pattern=st.sampled_from(PATTERNS))
        def glob(self, pattern: str) -> None:
            self.check("Glob", pattern=pattern)

        @rule(word=st.sampled_from(WORDS), path=st.sampled_from(DIRS))
        def grep(self, word: str, path: str) -> None:
            self.check("Grep", pattern=word, path=path)

        @rule(path=st.sampled_from(FILES), word=st.sampled_from(WORDS))
        def write(self, path: str, word: str) -> None:
            self.call(self.cached, "Write", path=path, content=word + "\n")

        @rule(path=st.sampled_from(FILES), old=st.sampled_from(WORDS),
              new=st.sampled_from(WORDS))
        def edit(self, path: str, old: str, new: str) -> None:
            self.call(self.cached, "Edit", path=path, old_string=old, new_string=new)

        @rule(path=st.sampled_from(FILES[:-1]), word=st.sampled_from(WORDS))
        def unknown_tool(self, path: str, word: str) -> None:
            self.call(self.cached, "Stamp", path=path, text=word + "\n")

        @rule(path=st.sampled_from(FILES[:-1]), word=st.sampled_from(WORDS))
        def second_agent(self, path: str, word: str) -> None:
            """Another agent on the same store and workspace, through its own pipeline."""
            self.call(self.other, "Write", path=path, content=word + "\n")

        @rule(path=st.sampled_from(FILES[:-1]))
        def behind_its_back(self, path: str) -> None:
            """A background job, an editor or another process: a write no call announced,
            new text of the same length each time (within one clock tick, a same-size
            write may leave every stat field as it was)."""
            self.calls += 1
            text = f"{self.calls:06d}\n"

            def program() -> Program[Any]:
                return (yield FileOp("write", root, path, text))
            self.runner(program())

        @rule(template=st.sampled_from(COMMANDS), p=st.sampled_from(FILES),
              q=st.sampled_from(FILES), d=st.sampled_from(DIRS[1:]),
              w=st.sampled_from(WORDS), v=st.sampled_from(WORDS))
        def bash(self, template: str, p: str, q: str, d: str, w: str, v: str) -> None:
            self.call(self.cached, "Bash", command=template.format(p=p, q=q, d=d, w=w, v=v))

    return CacheLaw


def check_cache_law(registry: ToolRegistry, root: str, run: Callable[[], Runner], *,
                    memo: Callable[[], Middleware] | None = None, examples: int = 20,
                    steps: int = 20, shrink: bool = True) -> None:
    """Run the cache law (see :func:`cache_law_machine`); raises ``AssertionError`` with
    the shortest sequence of calls hypothesis finds that gets a stale answer (with
    ``shrink=False``, the first one found, which is much faster)."""
    machine = cache_law_machine(registry, root, run, memo=memo)
    phases = (Phase.explicit, Phase.reuse, Phase.generate) + (
        (Phase.shrink,) if shrink else ())
    run_state_machine_as_test(machine, settings=settings(
        max_examples=examples, stateful_step_count=steps, deadline=None, database=None,
        derandomize=True, phases=phases, suppress_health_check=list(HealthCheck)))
