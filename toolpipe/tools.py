"""A standard tool set over a workspace folder: Read, Write, Edit, Glob, Grep, LS, Bash.

The tools are programs: they yield ``FileOp`` and ``RunProcess`` effects, so they stay pure
and run on every interpreter. Paths are confined to the workspace: a ``..`` escape is
refused here, a symlink escape by the interpreter, each with a clear soft error. Bash runs
a real subprocess in the workspace with its own timeout; it is *not* confined beyond its
working folder (that is what the safety shield is for).

Declarations are honest: the read-only tools are safe for concurrency with the path as
their resource key; Write, Edit and Bash run alone.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from typing import Any

from returns.result import Success

from toolpipe import sandbox as sandbox_module
from toolpipe._checks import finite_number
from toolpipe.effects import FileOp, ProcessResult, RunProcess, SandboxCheck
from toolpipe.errors import ConfigError, ToolError
from toolpipe.program import Program
from toolpipe.registry import Tool, ToolRegistry

MAX_MATCHES = 200
MAX_GLOB = 1000
DEFAULT_BASH_TIMEOUT = 30.0


def _schema(required: list[str], **props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required}


_STR = {"type": "string"}
_INT = {"type": "integer"}
_BOOL = {"type": "boolean"}


def _arg(input: Mapping[str, Any], name: str, kind: type, default: Any = ...) -> Any:
    value = input.get(name, default)
    if value is ...:
        raise ToolError(f"Missing required argument '{name}'")
    if value is not None and value is not default and (
        not isinstance(value, kind) or (kind is int and isinstance(value, bool))
    ):
        raise ToolError(f"Argument '{name}' must be a {kind.__name__}, got {value!r:.40}")
    return value


def confine(path: str) -> str:
    """The path relative to the workspace, lexically; ``..`` escapes are refused."""
    if "\0" in path:
        raise ToolError("Path contains a NUL character")
    if posixpath.isabs(path):
        raise ToolError(f"Path '{path}' is outside the workspace (use a relative path)")
    normal = posixpath.normpath(path or ".")
    if normal == ".." or normal.startswith("../"):
        raise ToolError(f"Path '{path}' is outside the workspace")
    return normal


# --- glob ------------------------------------------------------------------------------------


def glob_regex(pattern: str) -> re.Pattern[str]:
    """``*`` and ``?`` within a path segment, ``**/`` across folders, ``[...]`` classes."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1:end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


# --- the tools -------------------------------------------------------------------------------


class Workspace:
    """The standard tools bound to one workspace folder.

    ``Workspace(root).registry()`` gives a ``ToolRegistry`` of all seven tools.
    """

    def __init__(self, root: str, *, bash_timeout: float = DEFAULT_BASH_TIMEOUT,
                 sandbox: str = sandbox_module.DEFAULT_SANDBOX, network: bool = False,
                 env: Iterable[str] = (), hard_links: bool = False) -> None:
        if not isinstance(root, str) or not root:
            raise ConfigError(f"root must be a folder path, got {root!r}")
        self.root = root
        self.bash_timeout = finite_number("bash_timeout", bash_timeout, positive=True)
        self.sandbox = sandbox_module.check(sandbox)
        # the folder bubblewrap binds: a relative root is taken from the current folder now
        self.sandbox_root = posixpath.abspath(root)
        self.network = bool(network)
        self.env = sandbox_module.env_names(env)
        self.hard_links = bool(hard_links)  # read files with several names (see FileOp)

    def _file(self, op: str, path: str, data: str | None = None) -> Program[Any]:
        answer = yield FileOp(op, self.root, path, data, hard_links=self.hard_links)
        if not isinstance(answer, Success):
            raise ToolError(str(answer.failure()))
        return answer.unwrap()

    def read(self, input: Mapping[str, Any], context: Any) -> Program[str]:
        """Read a text file. Optional `offset` (first line, from 1) and `limit` (lines)."""
        path = confine(_arg(input, "path", str))
        offset = _arg(input, "offset", int, None)
        limit = _arg(input, "limit", int, None)
        text: str = yield from self._file("read", path)
        if offset is None and limit is None:
            return text
        lines = text.splitlines(keepends=True)
        start = max((offset or 1) - 1, 0)
        end = len(lines) if limit is None else start + max(limit, 0)
        return "".join(lines[start:end])

    def write(self, input: Mapping[str, Any], context: Any) -> Program[str]:
        """Write a text file (creating folders), replacing what was there."""
        path = confine(_arg(input, "path", str))
        content = _arg(input, "content", str)
        count = yield from self._file("write", path, content)
        return f"Wrote {count} characters to {path}"

    def edit(self, input: Mapping[str, Any], context: Any) -> Program[str]:
        """Replace `old_string` by `new_string` in a file; it must occur exactly once unless
        `replace_all` is true."""
        path = confine(_arg(input, "path", str))
        old = _arg(input, "old_string", str)
        new = _arg(input, "new_string", str)
        replace_all = _arg(input, "replace_all", bool, False)
        if not old:
            raise ToolError("old_string must not be empty")
        text: str = yield from self._file("read", path)
        count = text.count(old)
        if count == 0:
            raise ToolError(f"old_string not found in {path}")
        if count > 1 and not replace_all:
            raise ToolError(
                f"old_string occurs {count} times in {path}; give more context or set "
                "replace_all"
            )
        yield from self._file("write", path, text.replace(old, new))
        return f"Replaced {count if replace_all else 1} occurrence(s) in {path}"

    def _files(self, base: str) -> Program[list[tuple[str, str]]]:
        """The files under ``base`` (``base`` itself when it is a file): each as its path in
        the workspace and the name patterns match (its path below ``base``, or its own
        name when ``base`` is the file)."""
        below: tuple[str, ...] = yield from self._file("walk", base)
        return [(posixpath.normpath(posixpath.join(base, name)),
                 name or posixpath.basename(base)) for name in below]

    def glob(self, input: Mapping[str, Any], context: Any) -> Program[str]:
        """Files matching a glob pattern (`*`, `?`, `**/`, `[...]`), relative to `path`."""
        pattern = _arg(input, "pattern", str)
        base = confine(_arg(input, "path", str, "."))
        regex = glob_regex(pattern)
        files = yield from self._files(base)
        hits = [path for path, name in files if regex.match(name)]
        if not hits:
            return f"No files match {pattern!r}"
        more = f"\n… and {len(hits) - MAX_GLOB} more" if len(hits) > MAX_GLOB else ""
        return "\n".join(hits[:MAX_GLOB]) + more

    def grep(self, input: Mapping[str, Any], context: Any) -> Program[str]:
        """Lines matching a regular expression, as `path:line:text`. Optional `glob`
        filters the files searched; `ignore_case`."""
        source = _arg(input, "pattern", str)
        base = confine(_arg(input, "path", str, "."))
        only = _arg(input, "glob", str, None)
        flags = re.IGNORECASE if _arg(input, "ignore_case", bool, False) else 0
        try:
            regex = re.compile(source, flags)
        except re.error as exc:
            raise ToolError(f"Invalid regular expression {source!r}: {exc}") from None
        files = yield from self._files(base)
        if only is not None:
            keep = glob_regex(only)
            files = [(path, name) for path, name in files
                     if keep.match(name) or keep.match(posixpath.basename(name))]
        matches: list[str] = []
        for path, _ in files:
            answer = yield FileOp("read", self.root, path, hard_links=self.hard_links)
            if not isinstance(answer, Success):
                continue  # unreadable files are skipped, as grep -s does
            for number, line in enumerate(answer.unwrap().splitlines(), start=1):
                if regex.search(line):
                    matches.append(f"{path}:{number}:{line}")
                    if len(matches) >= MAX_MATCHES:
                        return "\n".join(matches) + f"\n… stopped at {MAX_MATCHES} matches"
        return "\n".join(matches) if matches else f"No matches for {source!r}"

    def ls(self, input: Mapping[str, Any], context: Any) -> Program[str]:
        """The entries of a folder: `name/` for folders, `name (N bytes)` for files."""
        path = confine(_arg(input, "path", str, "."))
        entries: tuple[tuple[str, str, int], ...] = yield from self._file("list", path)
        if not entries:
            return f"{path} is empty"
        return "\n".join(
            f"{name}/" if kind == "dir" else f"{name} -> (link)" if kind == "link"
            else f"{name} ({size} bytes)"
            for name, kind, size in entries
        )

    def bash(self, input: Mapping[str, Any], context: Any) -> Program[str]:
        """Run a bash command in the workspace. Optional `timeout` in seconds. A non-zero
        exit is a soft error carrying the output."""
        command = _arg(input, "command", str)
        timeout = input.get("timeout")
        if timeout is not None and (isinstance(timeout, bool) or
                                    not isinstance(timeout, int | float) or timeout <= 0):
            raise ToolError(f"Argument 'timeout' must be a positive number, got {timeout!r:.40}")
        seconds = self.bash_timeout if timeout is None else min(float(timeout), 600.0)
        argv: tuple[str, ...] = ("bash", "-c", command)
        sandboxed = False
        if self.sandbox != "none":
            status = yield SandboxCheck()
            if status is not None and not isinstance(status, str):
                # the check itself failed (every worker thread stuck): not knowing is no
                # reason to run unsandboxed
                raise ToolError(f"Command not run: could not check the sandbox: "
                                f"{getattr(status, 'failure', lambda: status)()}")
            sandboxed = status is None
            if not sandboxed and self.sandbox == "required":
                raise ToolError(f"Command not run: the sandbox is required and cannot start "
                                f"here: {status}")
        effect = RunProcess(argv, self.root, seconds)
        if sandboxed:
            bpf = sandbox_module.seccomp_filter()
            effect = RunProcess(
                sandbox_module.bwrap_argv(self.sandbox_root, argv, network=self.network,
                                          seccomp=bpf is not None),
                self.root, seconds,
                env=sandbox_module.environment(self.sandbox_root, self.env),
                fds=((sandbox_module.SECCOMP_FD, bpf),) if bpf is not None else ())
            # (under the subreaper too: bubblewrap's --die-with-parent does not always
            # end its namespace when bubblewrap is stopped; the subreaper adopts it and
            # ends it, so that the call answers only when nothing of it runs)
        answer = yield effect
        if sandboxed and isinstance(answer, Success) and answer.unwrap().returncode != 0 \
                and sandbox_module.explain(answer.unwrap().stderr) is not None:
            # bubblewrap itself failed to start: a path it masks may have been removed
            # between the scan and the start; once more, with a fresh scan
            answer = yield effect
        if not isinstance(answer, Success):
            failure = str(answer.failure())
            if sandboxed and failure.startswith("could not run 'bwrap'"):
                raise ToolError("Command failed: the bwrap sandbox is not installed "
                                "(apt-get install bubblewrap)")
            raise ToolError(f"Command failed: {failure}")
        done: ProcessResult = answer.unwrap()
        if sandboxed and done.returncode != 0:
            reason = sandbox_module.explain(done.stderr)
            if reason is not None:
                raise ToolError(f"Command failed: {reason}")
        output = (done.stdout + done.stderr).rstrip("\n")
        if done.returncode != 0:
            raise ToolError(f"Exit code {done.returncode}\n{output}".rstrip())
        return output

    def tools(self) -> list[Tool]:
        path = {**_STR, "description": "a path relative to the workspace"}
        folder = {**_STR, "description": "a folder relative to the workspace (default: .)"}
        return [
            Tool.from_function(
                "Read", self.read, concurrency_safe=True, resource_key_from="path",
                description="Read a text file of the workspace, with line numbers.",
                input_schema=_schema(
                    ["path"], path=path,
                    offset={**_INT, "description": "the first line to show, from 1"},
                    limit={**_INT, "description": "at most this many lines"})),
            Tool.from_function(
                "Write", self.write, description="Write a whole file (atomically).",
                input_schema=_schema(["path", "content"], path=path,
                                     content={**_STR, "description": "the file's new text"})),
            Tool.from_function(
                "Edit", self.edit, description="Replace text in a file.",
                input_schema=_schema(
                    ["path", "old_string", "new_string"], path=path,
                    old_string={**_STR, "description": "the exact text to replace"},
                    new_string={**_STR, "description": "what replaces it"},
                    replace_all={**_BOOL, "description": "replace every occurrence"})),
            Tool.from_function(
                "Glob", self.glob, concurrency_safe=True, resource_key_from="path",
                description="List the files that match a glob pattern.",
                input_schema=_schema(
                    ["pattern"], pattern={**_STR, "description": "a glob, e.g. **/*.py"},
                    path=folder)),
            Tool.from_function(
                "Grep", self.grep, concurrency_safe=True, resource_key_from="path",
                description="Search file contents with a regular expression.",
                input_schema=_schema(
                    ["pattern"], pattern={**_STR, "description": "a regular expression"},
                    path=folder, glob={**_STR, "description": "only files matching this glob"},
                    ignore_case={**_BOOL, "description": "match without regard to case"})),
            Tool.from_function(
                "LS", self.ls, concurrency_safe=True, resource_key_from="path",
                description="List a folder of the workspace.",
                input_schema=_schema([], path=folder)),
            Tool.from_function(
                "Bash", self.bash, description="Run a bash command in the workspace.",
                input_schema=_schema(
                    ["command"], command={**_STR, "description": "the command to run"},
                    timeout={"type": "number", "description": "seconds before it is stopped"},
                    description={**_STR, "description": "what the command is for"})),
        ]

    def registry(self) -> ToolRegistry:
        registry = ToolRegistry(self.tools())
        registry.workspace = self.root
        return registry


def workspace_registry(root: str, *, bash_timeout: float = DEFAULT_BASH_TIMEOUT,
                       sandbox: str = sandbox_module.DEFAULT_SANDBOX, network: bool = False,
                       env: Iterable[str] = (), hard_links: bool = False) -> ToolRegistry:
    """All seven standard tools over ``root`` (Bash in bubblewrap where it works; see
    ``toolpipe.sandbox`` for the modes)."""
    return Workspace(root, bash_timeout=bash_timeout, sandbox=sandbox, network=network,
                     env=env, hard_links=hard_links).registry()
