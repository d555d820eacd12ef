"""UnixShield: the shell-risk evaluator behind the safety shield (see shield.py, the face).

Shell text is read by the shell wing into facts; the rules score them and patterns score
command shapes. A tool is a shell or a file writer by name, by its declared role, or by a
common name (``bash``, ``run_command``, ``write_file``: see toolpipe.roles).
"""

from __future__ import annotations

import copy
import math
import posixpath
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol

import attrs

from toolpipe._checks import names, positive_int
from toolpipe.errors import ConfigError
from toolpipe.layers._shield_flow import (
    EMPTY,
    SessionFacts,
)
from toolpipe.layers._shield_guarded import agent_file
from toolpipe.layers._shield_patterns import (
    DEFAULT_BASH,
    DEFAULT_COMBOS,
    DEFAULT_EDIT,
    DEFAULT_WRITE,
    ComboRule,
    PathPattern,
    ShellPattern,
)
from toolpipe.layers._shield_readings import _analysed, _mentions
from toolpipe.layers._shield_rules import (
    Finding,
    RuleOptions,
    _inside,
    findings,
    strongest,
)
from toolpipe.layers._shield_session import DECISIONS as DECISIONS
from toolpipe.layers._shield_session import CallRecord as CallRecord
from toolpipe.layers._shield_session import _command_text, _paths, _SessionReading
from toolpipe.layers._shield_settings import opens_server
from toolpipe.layers._shield_state import shown
from toolpipe.registry import WRITE_TOOLS
from toolpipe.roles import role_of
from toolpipe.shell import MAX_COMMANDS, Place, Script, classify, start_file

Action = Literal["allow", "warn", "ask", "block"]
Multi = Literal["risky", "all"]
CRITICAL = 0.9
HISTORY_SIZE = 20


@attrs.frozen
class ShieldDecision:
    action: Action
    score: float
    reason: str = ""


class ToolSafetyShield(Protocol):
    def evaluate(
        self, tool: str, input: Mapping[str, Any], history: Sequence[CallRecord]
    ) -> ShieldDecision: ...


_FILE_WRITE = {"persistence": 0.9, "system": 0.8, "secret": 0.8, "root": 0.9, "device": 1.0,
               "outside": 0.5}


def _relative(path: str, workspace: str) -> str:
    """A file tool's path as the workspace's own spelling (``/ws/.env`` is ``.env``)."""
    root = workspace.rstrip("/") + "/"
    return path[len(root):] if workspace and path.startswith(root) else path


# --- the shield -------------------------------------------------------------------------------


def _threshold(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ConfigError(f"{name} must be a finite number, got {value!r}")
    return min(1.0, max(0.0, float(value)))


def multi_score(prior_same_tool: int) -> float:
    return 0.0 if prior_same_tool <= 0 else 0.1 if prior_same_tool == 1 else (
        0.3 if prior_same_tool == 2 else 0.6
    )


class UnixShield(_SessionReading):
    """The default shield: shell facts and rules, Bash/Write/Edit patterns, combos.

    ``write_tools``: file tools whose ``path`` is a file they write, classified like a shell
    write; ``workspace``: where relative paths point (the middleware passes ``ToolContext.cwd``);
    ``workspace_deletions``: the score of ``rm -rf`` inside it (0.4; the spec's 0.9 comes
    with ``bash_patterns=SPEC_BASH``); ``multi``: which earlier calls of the same tool the
    multi-call term counts, ``"risky"`` ones (scored at least the warn threshold) or
    ``"all"`` (the spec); ``max_length`` (characters) and ``max_commands``: a command
    longer, or one that runs more commands (function calls included), is blocked unread,
    so that every input is decided in bounded time.
    """

    def __init__(
        self,
        *,
        block_threshold: float = 0.7,
        warn_threshold: float = 0.4,
        ask_threshold: float = 0.5,
        bash_patterns: Sequence[ShellPattern] = DEFAULT_BASH,
        path_patterns: Mapping[str, Sequence[PathPattern]] | None = None,
        combos: Sequence[ComboRule] = DEFAULT_COMBOS,
        bash_tools: Iterable[str] = ("Bash",),
        write_tools: Iterable[str] = WRITE_TOOLS,
        workspace: str = ".",
        workspace_deletions: float = 0.4,
        multi: Multi = "risky",
        max_length: int = 1 << 16,
        max_commands: int = MAX_COMMANDS,
        roles: Mapping[str, str] | None = None,
        recognise_names: bool = True,
    ) -> None:
        block = _threshold("block_threshold", block_threshold)
        warn = _threshold("warn_threshold", warn_threshold)
        if warn > block:  # an inverted pair is swapped, not rejected
            block, warn = warn, block
        self.block_threshold = block
        self.warn_threshold = warn
        # the ask band [ask, block): a person decides (clamped into [warn, block])
        self.ask_threshold = min(block, max(warn, _threshold("ask_threshold", ask_threshold)))
        self.bash_patterns = tuple(bash_patterns)
        for p in self.bash_patterns:
            if not isinstance(p, ShellPattern):
                raise ConfigError(f"bash_patterns: {p!r:.60} is not a ShellPattern")
        self.path_patterns = dict(path_patterns if path_patterns is not None else {
            "Write": DEFAULT_WRITE, "Edit": DEFAULT_EDIT, "MultiEdit": DEFAULT_EDIT,
        })
        self.combos = tuple(combos)
        self.bash_tools = names("bash_tools", bash_tools)
        self.write_tools = names("write_tools", write_tools)
        # a tool is a shell or a file writer by name, by its declared role, or (unless
        # recognise_names is off) by a common name: bash, run_command, write_file, …
        self.roles = dict(roles or {})
        self.recognise_names = bool(recognise_names)
        if not isinstance(workspace, str) or not workspace:
            raise ConfigError(f"workspace must be a non-empty path, got {workspace!r:.60}")
        self.workspace = workspace
        self.options = RuleOptions(_threshold("workspace_deletions", workspace_deletions))
        if multi not in ("risky", "all"):
            raise ConfigError(f"multi must be 'risky' or 'all', got {multi!r:.40}")
        self.multi: Multi = multi
        self.max_length = positive_int("max_length", max_length)
        self.max_commands = positive_int("max_commands", max_commands)
        self._decisions: OrderedDict[tuple[object, ...], Finding] = OrderedDict()
        self._mentioned: dict[tuple[str, ...], bool] = {}
        # the session's files each kept finding was made with (the same object: unchanged)
        self._flows: OrderedDict[tuple[str, ...], tuple[object, list[Finding]]] = (
            OrderedDict())
        self._by_text = {p.text: p for p in self.bash_patterns}
        self._by_name: dict[str, list[tuple[int, ShellPattern]]] = {}
        for i, p in enumerate(self.bash_patterns):  # a pattern can only match its name
            self._by_name.setdefault(p.name, []).append((i, p))
        for rule in self.combos:  # the combos' patterns, made once
            for _, text in (rule.first, rule.second):
                if text is not None and text not in self._by_text:
                    self._by_text[text] = ShellPattern(text, 0.0)

    def tools(self) -> frozenset[str]:
        return self.bash_tools | self.write_tools | frozenset(self.path_patterns)

    def with_roles(self, roles: Mapping[str, str]) -> UnixShield:
        """The same shield, told the registry's declared roles."""
        other = copy.copy(self)
        other.roles = {**self.roles, **roles}
        other._decisions = OrderedDict()
        other._flows = OrderedDict()
        other._mentioned = {}
        return other

    def role(self, tool: str) -> str:
        declared = self.roles.get(tool)
        if declared is None and not self.recognise_names:
            return "other"
        return role_of(tool, declared)

    def is_shell(self, tool: str) -> bool:
        return tool in self.bash_tools or self.role(tool) == "shell"

    def is_write(self, tool: str) -> bool:
        return tool in self.write_tools or self.role(tool) == "file_write"

    def _same_kind(self, tool: str, want: str) -> bool:
        if tool == want:
            return True
        if self.is_shell(want):
            return self.is_shell(tool)
        return self.is_write(want) and self.is_write(tool)

    def __repr__(self) -> str:
        return (f"UnixShield(block_threshold={self.block_threshold:g}, "
                f"ask_threshold={self.ask_threshold:g}, warn_threshold={self.warn_threshold:g})")

    def script(self, command: str, workspace: str | None = None) -> Script:
        return _analysed(command, workspace or self.workspace, self.max_length,
                         self.max_commands)

    # single ------------------------------------------------------------------------------

    def single(self, tool: str, input: Mapping[str, Any], workspace: str | None = None,
               downloaded: Iterable[str] = (), facts: SessionFacts = EMPTY,
               escaped: frozenset[str] = frozenset()) -> Finding:
        """The strongest pattern or rule finding of this call (given what earlier calls
        downloaded and wrote: ``facts``; ``escaped``: paths inside the workspace by their
        spelling that a link takes out of it)."""
        ws = workspace or self.workspace
        found: list[Finding] = []
        escaped |= {k for k, f in facts.files.items() if f.origin == "link"}  # (made so
        # by earlier calls: the filesystem, asked at decision time, says so too)
        if self.is_shell(tool):
            command = _command_text(input)
            if command is None:
                return Finding(0.0, "")
            best = self._readings(command, ws, frozenset(downloaded), escaped)
            flowed = self._flowed(command, ws, facts)
            best = strongest([best, *flowed]) if flowed else best
            if facts.shell:  # read too in the shell earlier calls left, if it lasts
                best = strongest([best, self._persisted(command, ws, frozenset(downloaded),
                                                        facts, escaped)])
            return best
        for path in _paths(input):
            patterns = self.path_patterns.get(tool)
            if patterns is None:  # a writer by role (write_file, …) is judged as Write
                patterns = self.path_patterns.get("Write", ()) if self.is_write(tool) else ()
            for path_pattern in patterns:
                if path_pattern.matches_path(path):
                    found.append(Finding(path_pattern.score,
                                         f"path matches '{path_pattern.text}'"))
            if self.is_write(tool):
                text = input.get("content", input.get("new_string"))
                opened = opens_server(path, text) if isinstance(text, str) else None
                if opened:  # (a server's settings file, written to open it to everyone)
                    found.append(Finding(0.6, f"opens a server to everyone: {opened} ({tool})"))
                if isinstance(text, str) and agent_file(path):
                    found += self.instructed(path, text, ws)
                starts = start_file(path)
                if starts:  # (a file that changes what runs later, wherever it is)
                    found.append(Finding(0.6, f"writes {starts}: {path} ({tool})"))
                place = classify(path, ".", ws)
                if place.kind in ("workspace", "secret") and posixpath.normpath(
                        path) in escaped:
                    place = Place("outside", f"{path} (a link out of the workspace)")
                score, what = _FILE_WRITE.get(place.kind), "writes"
                if place.kind == "secret" and _inside(_relative(path, ws)):
                    # `.env` in the workspace, as a shell's write of it (`cp .env.example .env`)
                    score, what = 0.4, "writes, in the workspace,"
                if score is not None:
                    found.append(Finding(score, f"{what} {place.label}: {place.path} ({tool})"))
        return strongest(found)

    def _persisted(self, command: str, workspace: str, downloaded: frozenset[str],
                   facts: SessionFacts, escaped: frozenset[str]) -> Finding:
        """The line read after the state a lasting shell keeps (``_shield_state``): what
        it finds that the state alone does not (the state's own findings were its lines')."""
        text = f"{facts.shell}\n{command}"
        found = strongest([self._readings(text, workspace, downloaded, escaped),
                           *self._flowed(text, workspace, facts)])
        alone = strongest([self._readings(facts.shell, workspace, downloaded, escaped),
                           *self._flowed(facts.shell, workspace, facts)])
        if found.score <= 0 or found.reason == alone.reason:
            return Finding(0.0, "")
        return Finding(found.score, f"{found.reason}, in the shell earlier calls left "
                                    f"({shown(facts.shell)})")

    def _readings(self, command: str, workspace: str, downloaded: frozenset[str],
                  escaped: frozenset[str]) -> Finding:
        """The strongest pattern or rule finding of a command line, kept: a text seen again
        (the same workspace, downloads and links) is decided without reading it again."""
        key = (command, workspace, downloaded, escaped)
        kept = self._decisions.get(key)
        if kept is not None:
            self._decisions.move_to_end(key)
            return kept
        script = self.script(command, workspace)
        found = strongest(self._pattern_findings(script) + findings(
            script, workspace, self.options, downloaded, escaped))
        self._decisions[key] = found
        if len(self._decisions) > DECISIONS:
            self._decisions.popitem(last=False)
        return found

    def _pattern_findings(self, script: Script) -> list[Finding]:
        """The bash patterns some command of the script matches (each once, in order)."""
        hit: set[int] = set()
        for c in script.commands:
            for name in (c.name, *c.wrappers):
                for i, pattern in self._by_name.get(name, ()):
                    if i not in hit and pattern.matches(c):
                        hit.add(i)
        return [Finding(self.bash_patterns[i].score, f"'{self.bash_patterns[i].text}'")
                for i in sorted(hit)]

    def _triggers(self, tool: str, input: Mapping[str, Any], trigger: tuple[str, str | None],
                  workspace: str) -> bool:
        want_tool, pattern_text = trigger
        if not self._same_kind(tool, want_tool):
            return False
        if pattern_text is None:
            return True
        command = _command_text(input)
        if command is None:
            return False
        key = ("mentions", pattern_text, command, workspace)
        kept = self._mentioned.get(key)
        if kept is None:
            kept = self._mentioned[key] = _mentions(
                self._by_text[pattern_text], command, workspace, self.max_length,
                self.max_commands)
            if len(self._mentioned) > DECISIONS:
                self._mentioned.pop(next(iter(self._mentioned)))
        return kept

    def combo(self, tool: str, input: Mapping[str, Any], history: Sequence[CallRecord],
              workspace: str | None = None, facts: SessionFacts | None = None
              ) -> tuple[float, str]:
        ws = workspace or self.workspace
        best = (0.0, "")
        if not history:
            return best
        fired = (facts if facts is not None else self.facts_of(history, ws)).fired
        for i in sorted(fired):
            if i >= len(self.combos):
                continue  # facts another shield kept
            rule = self.combos[i]
            if rule.score <= best[0]:
                continue
            if self._triggers(tool, input, rule.second, ws):
                best = (rule.score, rule.reason)
        return best

    def downloaded(self, history: Sequence[CallRecord], workspace: str | None = None
                   ) -> frozenset[str]:
        """Files earlier shell calls downloaded (running one is a download-then-execute)."""
        return self.facts_of(history, workspace).downloaded

    def evaluate(
        self, tool: str, input: Mapping[str, Any], history: Sequence[CallRecord],
        workspace: str | None = None, escaped: frozenset[str] = frozenset(),
    ) -> ShieldDecision:
        ws = workspace or self.workspace
        facts = self.facts_of(history, ws)
        single = self.single(tool, input, ws, facts.downloaded, facts, escaped)
        if not history:  # the common first call: nothing else to weigh
            return self._decision(single.score, single.reason)
        if len(facts.recent) == len(history):  # kept by the layer: no need to count
            counted = facts.counts.get(tool, (0, 0))[0 if self.multi == "all" else 1]
        else:
            counted = sum(1 for h in history if h.tool == tool and (
                self.multi == "all" or h.score >= self.warn_threshold))
        multi = multi_score(counted)
        combo, combo_reason = self.combo(tool, input, history, ws, facts) if (
            facts.fired) else (0.0, "")
        if not multi and not combo:
            return self._decision(single.score, single.reason)
        score = round(min(1.0, single.score + 0.5 * multi + 0.3 * combo), 9)
        parts = [single.reason] if single.reason else []
        if combo:
            parts.append(combo_reason)
        if multi:
            risky = " risky" if self.multi == "risky" else ""
            parts.append(f"{counted} earlier{risky} {tool} call(s)")
        return self._decision(score, ", ".join(parts))

    def _decision(self, score: float, reason: str) -> ShieldDecision:
        if score <= 0:
            return ShieldDecision("allow", 0.0, reason or "no risk found")
        reason = reason or "no risk found"
        if score >= CRITICAL:
            return ShieldDecision("block", score, f"{reason} (critical, risk {score:.2f})")
        if score >= self.block_threshold:
            return ShieldDecision("block", score, f"{reason} (risk {score:.2f})")
        if score >= self.ask_threshold:
            return ShieldDecision("ask", score, f"{reason} (risk {score:.2f})")
        if score >= self.warn_threshold:
            return ShieldDecision("warn", score, f"{reason} (risk {score:.2f})")
        return ShieldDecision("allow", score, reason)
