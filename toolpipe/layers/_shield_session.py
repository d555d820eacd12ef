"""What the shield keeps of a session, and how it reads it: the record of each admitted
call (with the session's facts after it), what a call writes and runs (see
``_shield_flow``), and the paths to ask the real filesystem about. Mixed into
:class:`~toolpipe.layers._unix_shield.UnixShield`."""

from __future__ import annotations

import posixpath
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from toolpipe.layers._shield_flow import (
    BLOCKED,
    EMPTY,
    SessionFacts,
    written_by_shell,
    written_by_tool,
)
from toolpipe.layers._shield_guarded import agent_file, instruction_commands
from toolpipe.layers._shield_held import pushed_to_named
from toolpipe.layers._shield_judged import judged
from toolpipe.layers._shield_patterns import ComboRule, ShellPattern
from toolpipe.layers._shield_places import link_checks
from toolpipe.layers._shield_rules import Finding, RuleOptions, findings, strongest
from toolpipe.layers._shield_runs import runs, unknown_scratch_runs
from toolpipe.layers._shield_sent import piped_project, sent_project, sent_secrets
from toolpipe.layers._shield_state import after_line, path_folders
from toolpipe.layers.paths import COMMAND_FIELDS, PATH_FIELDS
from toolpipe.shell import READ_ONLY, Script, modelled

DECISIONS = 1024  # command lines whose findings a shield keeps


def _content(facts: SessionFacts, path: str) -> str | None:
    fact = facts.files.get(path)
    return None if fact is None else fact.content


@attrs.frozen
class CallRecord:
    """An admitted call, as the shield's history keeps it (``score``: its shield risk;
    ``facts``: the session's data flow after it, see ``_shield_flow``)."""

    tool: str
    input: Mapping[str, Any]
    success: bool
    score: float = 0.0
    facts: SessionFacts | None = attrs.field(default=None, eq=False, repr=False)


def _command_text(input: Mapping[str, Any]) -> str | None:
    """The command a shell tool was given: ``command``/``cmd``, a list of commands
    (``commands``, as LangChain's shell tool takes), a ``script``; failing those, every
    string the call holds, one per line (fail closed: an input we cannot read is read
    whole, never skipped)."""
    for field in (*COMMAND_FIELDS, "commands", "script", "shell_command", "code", "input"):
        value = input.get(field)
        if isinstance(value, str):
            return value
        if isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
            return "\n".join(value)
    strings = [v for v in input.values() if isinstance(v, str)]
    return "\n".join(strings) if strings else None


def _paths(input: Mapping[str, Any]) -> list[str]:
    return [v for f in PATH_FIELDS if isinstance(v := input.get(f), str)]


def _program(word: str) -> bool:
    """Is this word of a sentence a program's name (`run: cat …`, `then curl …`)?"""
    return modelled(word) or word in READ_ONLY


class _SessionReading:
    """The session half of the shield (the shield itself gives the rest)."""

    workspace: str
    options: RuleOptions
    combos: tuple[ComboRule, ...]
    bash_patterns: tuple[ShellPattern, ...]
    _flows: OrderedDict[tuple[str, ...], tuple[object, list[Finding]]]

    def is_shell(self, tool: str) -> bool:
        raise NotImplementedError

    def is_write(self, tool: str) -> bool:
        raise NotImplementedError

    def script(self, command: str, workspace: str | None = None) -> Script:
        raise NotImplementedError

    def _pattern_findings(self, script: Script) -> list[Finding]:
        raise NotImplementedError

    def _triggers(self, tool: str, input: Mapping[str, Any], trigger: tuple[str, str | None],
                  workspace: str) -> bool:
        raise NotImplementedError

    def link_checks(self, tool: str, input: Mapping[str, Any], workspace: str | None = None
                    ) -> list[str]:
        """Paths of this call to look up on the real filesystem before deciding (each
        relative to the workspace): a link there may lead out of it."""
        ws = workspace or self.workspace
        if self.is_shell(tool):
            command = _command_text(input)
            return [] if command is None else link_checks(self.script(command, ws), ws)
        if self.is_write(tool):
            return [posixpath.normpath(p) for p in _paths(input)
                    if not p.startswith(("/", "~")) and posixpath.normpath(p) != "."]
        return []

    def _flowed(self, command: str, workspace: str, facts: SessionFacts) -> list[Finding]:
        """``_flow``'s findings, kept while the session's files stay the same. The files
        this line writes count too: a line that writes a script and runs it (`echo … > x.sh
        && bash x.sh`) is judged as two calls would be (a file run before the line writes
        it is judged by what it will hold: more is asked, never less)."""
        key = ("flow", command, workspace)
        kept = self._flows.get(key)
        if kept is not None and kept[0] is facts.files:
            return kept[1]
        script = self.script(command, workspace)
        if any(p.kind == "too-long" for p in script.problems):
            return []  # blocked unread (see findings)
        own = written_by_shell(script, workspace, facts)
        found = self._flow(script, workspace, facts.with_files(own), frozenset(own)) if (
            own or facts.files) else []
        if own.keys() & facts.files.keys():  # a file it overwrites may run first, as it was
            found += self._flow(script, workspace, facts)
        for path, fact in own.items():  # (instructions that every later agent reads)
            if fact.content and agent_file(path):
                found += self.instructed(path, fact.content, workspace)
        found += _unknown_scratch(command, script, workspace, facts.files.keys() | own.keys())
        found += [Finding(0.6, f"sends the whole project, packed by an earlier command of its "
                               f"pipeline ({cmd.located()})") for cmd in piped_project(script)]
        found += [Finding(0.6, f"pushes the repository to a server an earlier call named "
                               f"({cmd.located()})")
                  for cmd in pushed_to_named(script, lambda k: _content(facts, k), workspace)]
        self._flows[key] = (facts.files, found)
        if len(self._flows) > DECISIONS:
            self._flows.popitem(last=False)
        return found

    def instructed(self, path: str, text: str, workspace: str) -> list[Finding]:
        """An instruction file for coding agents (AGENTS.md, CLAUDE.md…) written with a
        command that would be blocked: every later session's agent reads it as its task."""
        for line in instruction_commands(text, _program):
            score, reason = self._judge(line, workspace, EMPTY, 2)
            if score >= BLOCKED:
                return [Finding(0.6, f"writes an instruction for coding agents to run what "
                                     f"is blocked, in {path}: {reason}")]
        return []

    def _judge(self, code: str, workspace: str, facts: SessionFacts, depth: int
               ) -> tuple[float, str]:
        """A session file's commands, judged as a line of their own, with the files of
        the session they run in turn (a Makefile's `sh tools/lint.sh`, downloaded by an
        earlier call), two files deep."""
        script = self.script(code, workspace)
        found = self._pattern_findings(script) + findings(script, workspace, self.options)
        # (a file that runs one in a scratch folder no call wrote: asked, as the line is)
        found += _unknown_scratch(code, script, workspace, facts.files.keys())
        if depth < 2 and facts.files:
            found += self._flow(script, workspace, facts, depth=depth + 1)
        best = strongest(found)
        return best.score, best.reason

    def _flow(self, script: Script, workspace: str, facts: SessionFacts,
              own: frozenset[str] = frozenset(), depth: int = 0) -> list[Finding]:
        """Files earlier calls (or this line: ``own``) wrote, run or sent by this one."""
        out: list[Finding] = []
        on_path = path_folders(script.text) if "PATH=" in script.text else []
        for cmd in script.commands:
            for path, fact, how in runs(cmd, workspace, facts, on_path):
                found = judged(path, fact, how, lambda code, _how: self._judge(
                    code, workspace, facts, depth),
                               "earlier on this line" if path in own else "by an earlier call")
                if found is not None:
                    out.append(Finding(found[0], f"{found[1]} ({cmd.located()})"))
        for path, cmd in sent_secrets(script, workspace, facts):
            out.append(Finding(1.0, f"sends {path}, a copy of a secret made by an earlier "
                                    f"call ({cmd.located()})"))
        for path, cmd in sent_project(script, workspace, facts):
            out.append(Finding(0.6, f"sends {path}, the whole project packed into one file "
                                    f"({cmd.located()})"))
        return out

    def facts_of(self, history: Sequence[CallRecord], workspace: str | None = None
                 ) -> SessionFacts:
        """The session's facts: kept by the last record, or (for a history made by hand)
        gathered from every record."""
        if history and history[-1].facts is not None:
            return history[-1].facts
        facts = EMPTY
        for record in history:
            facts = self.after(record.tool, record.input, facts, workspace)
        return facts

    def after(self, tool: str, input: Mapping[str, Any], facts: SessionFacts,
              workspace: str | None = None) -> SessionFacts:
        """The session's facts once this call has run."""
        ws = workspace or self.workspace
        fired = {i for i, rule in enumerate(self.combos)
                 if i not in facts.fired and self._triggers(tool, input, rule.first, ws)}
        if fired:
            facts = attrs.evolve(facts, fired=facts.fired | fired)
        if self.is_shell(tool):
            command = _command_text(input)
            if command is not None:
                facts = facts.with_files(written_by_shell(self.script(command, ws), ws,
                                                          facts))
                state = after_line(facts.shell, command, lambda t: self.script(t, ws))
                if state != facts.shell:
                    facts = attrs.evolve(facts, shell=state)
        elif self.is_write(tool):
            for path in _paths(input):
                facts = facts.with_files(written_by_tool(input, path, ws, facts))
        return facts


def _unknown_scratch(text: str, script: Script, workspace: str, known: Iterable[str]
                     ) -> list[Finding]:
    """A file in a scratch folder that the text runs or loads and no call of the session
    wrote: what it holds is not known (understood, or ask)."""
    if "tmp" not in text and "shm" not in text:  # (a scratch path is spelled so: one C scan)
        return []
    return [Finding(0.55, (f"runs the project in {path}, a scratch folder" if how == "project"
                           else f"runs {path}, a file in a scratch folder") +
                    f" that no call of this session wrote: what it holds is not known "
                    f"({cmd.located()})")
            for path, cmd, how in unknown_scratch_runs(script, workspace, known)]
