"""SafetyShieldMiddleware and UnixShield: risk-based blocking of watched tools.

Shell text is tokenised (quotes, operators, ``sh -c '…'`` one level, ``$(…)``, ``<(…)``),
so ``echo "rm -rf /"`` is an echo, ``| sha256sum`` is not ``| sh``, and ``mycurl`` is not
``curl``. Score = min(1, single + 0.5·multi + 0.3·combo), banded into Allow/Warn/Block.
"""

from __future__ import annotations

import math
import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol

import attrs

from toolpipe._shell import Command, commands, tokenize
from toolpipe.context import DispatchContext
from toolpipe.effects import Emit, HistoryAppend, HistoryGet
from toolpipe.errors import ConfigError
from toolpipe.events import ShieldWarning
from toolpipe.layers._util import names, non_negative_int
from toolpipe.layers.paths import COMMAND_FIELDS, PATH_FIELDS
from toolpipe.pipeline import Next
from toolpipe.program import Program
from toolpipe.result import DispatchResult

Action = Literal["allow", "warn", "block"]
CRITICAL = 0.9
HISTORY_SIZE = 20


@attrs.frozen
class ShieldDecision:
    action: Action
    score: float
    reason: str = ""


@attrs.frozen
class CallRecord:
    """An admitted call, as the shield's history keeps it."""

    tool: str
    input: Mapping[str, Any]
    success: bool


class ToolSafetyShield(Protocol):
    def evaluate(
        self, tool: str, input: Mapping[str, Any], history: Sequence[CallRecord]
    ) -> ShieldDecision: ...


# --- shell analysis --------------------------------------------------------------------------

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "csh", "tcsh"})
INTERPRETERS = SHELLS | frozenset({"python", "python3", "perl", "ruby", "node", "php"})
DOWNLOADERS = frozenset({"curl", "wget", "fetch", "aria2c", "http", "https"})
DECODERS = frozenset({"base64", "base32", "xxd", "openssl", "uudecode", "gpg"})
# Words that run the rest of the command line as a command.
EXECUTORS = INTERPRETERS | frozenset({"eval", "source", "."})
WRAPPERS = frozenset({"sudo", "doas", "env", "nohup", "time", "nice", "ionice", "exec",
                      "command", "builtin", "xargs", "timeout", "stdbuf", "chroot", "su"})
ROOT_PATHS = frozenset({"/", "/*", "~", "~/", "~/*", "$home", "${home}", "/etc", "/usr", "/var",
                        "/home", "/boot", "/bin", "/sbin", "/lib", "/lib64", "/opt", "/root",
                        "/sys", "/proc", "/dev", ".", "..", "./", "*", "/.", "/.."})
# Anything under /dev/ except the pseudo-devices that are safe to write to.
_DEVICE = re.compile(r"^/dev/(?!(null|zero|full|random|urandom|stdin|stdout|stderr|tty\w*|"
                     r"pts/|fd/|shm/|mqueue/|console)\b)\S")
_FORK_BOMB = re.compile(r"([\w:.]+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&[^}]*\}\s*;?\s*\1")


def _basename(word: str) -> str:
    return posixpath.basename(word) or word


def _views(cmd: Command, lower: bool = True) -> list[tuple[str, ...]]:
    """The command's words, plus the command each wrapper (sudo, env, xargs…) runs."""
    words = tuple(w.lower() for w in cmd.words) if lower else cmd.words
    views = [words]
    i = 0
    while i < len(words) and _basename(words[i].lower()) in WRAPPERS:
        i += 1
        while i < len(words) and (words[i].startswith("-") or "=" in words[i]
                                  or (words[i - 1] in ("timeout", "-u", "-n") and
                                      words[i].replace(".", "").isdigit())):
            i += 1
        if i < len(words):
            views.append(words[i:])
    return views


def _flags(args: Iterable[str]) -> set[str]:
    """``-rf`` → {``-r``, ``-f``}; long options and operands stay as they are."""
    out: set[str] = set()
    for arg in args:
        if len(arg) > 2 and arg[0] == "-" and arg[1] != "-" and arg[1:].isalpha():
            out.update(f"-{c}" for c in arg[1:])
        else:
            out.add(arg)
    return out


_ALIASES = {"rm": {"--recursive": "-r", "--force": "-f"}, "chmod": {"--recursive": "-r"}}


def _normal_args(name: str, args: Iterable[str]) -> set[str]:
    aliases = _ALIASES.get(name, {})
    return {aliases.get(a, a) for a in _flags(args)}


@attrs.frozen
class ShellPattern:
    """A command pattern written as shell text: ``rm -rf``, ``chmod 777``, ``| sh``.

    It matches a simple command (or what a wrapper such as sudo runs) whose name is the
    pattern's first word and whose arguments include the pattern's other words (combined
    short flags are expanded, so ``rm -fr`` matches ``rm -rf``). A leading ``|`` requires
    the command to read from a pipe. Matching is on lower-cased text.
    """

    text: str
    score: float
    piped: bool = attrs.field(init=False)
    name: str = attrs.field(init=False)
    args: frozenset[str] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        tokens = tokenize(self.text.lower())
        piped = bool(tokens) and tokens[0].op and tokens[0].text in ("|", "|&")
        words = [t.text for t in tokens if not t.op]
        if not words:
            raise ConfigError(f"pattern {self.text!r} names no command")
        object.__setattr__(self, "piped", piped)
        object.__setattr__(self, "name", words[0])
        object.__setattr__(self, "args", frozenset(_normal_args(words[0], words[1:])))

    def matches(self, cmd: Command) -> bool:
        if self.piped and not cmd.piped_from:
            return False
        for view in _views(cmd):
            if not view or _basename(view[0]) != self.name:
                continue
            if not self.args or self.args <= _normal_args(self.name, view[1:]):
                return True
        return False


@attrs.frozen
class PathPattern:
    """``/etc/`` (a leading ``/``: the path starts with it) or ``.ssh/`` (anywhere)."""

    text: str
    score: float

    def matches_path(self, path: str) -> bool:
        p = posixpath.normpath(path.lower())
        text = self.text.lower()
        if text.startswith("/"):
            return (p + "/").startswith(text if text.endswith("/") else text + "/") or p == text
        return ("/" + text) in ("/" + p + "/")


DEFAULT_BASH = (
    ShellPattern("rm -rf", 0.9), ShellPattern("rm -r -f", 0.9), ShellPattern("rm --recursive", 0.9),
    ShellPattern("rm -f", 0.7), ShellPattern("| sh", 0.8), ShellPattern("|sh", 0.8),
    ShellPattern("sudo", 0.6), ShellPattern("chmod 777", 0.5),
    ShellPattern("curl", 0.3), ShellPattern("wget", 0.3),
)
DEFAULT_WRITE = (PathPattern("/etc/", 0.7), PathPattern(".ssh/", 0.8), PathPattern("/usr/bin", 0.6))
DEFAULT_EDIT = (PathPattern("/etc/", 0.5), PathPattern(".ssh/", 0.7))


@attrs.frozen
class Finding:
    score: float
    reason: str


def _sudo_view(cmd: Command, lower: bool = True) -> tuple[str, ...]:
    """What actually runs, once wrappers are peeled off."""
    return _views(cmd, lower)[-1]


# Short options that take a value, by downloader (the value is the rest of the cluster, or
# the next word): needed to read clusters such as ``-sSLo file`` or ``-qO-`` correctly.
_VALUE_OPTS = {"curl": set("AbcCdDeEFHKmorQTuUwxXyYzO") - {"O"},
               "wget": set("aAbeEiIlnoOPQRtTUwXD") - {"b"}}
_OUTPUT_OPT = {"curl": "o", "wget": "O"}
_LONG_OUTPUT = {"curl": "--output", "wget": "--output-document"}


def _downloads(cmd: Command) -> list[str]:
    """Files a curl/wget command writes to (case kept: ``-O`` is not ``-o``)."""
    view = _sudo_view(cmd, lower=False)
    if not view:
        return []
    name, args = _basename(view[0]).lower(), list(view[1:])
    if name not in _VALUE_OPTS:
        return []
    out: list[str] = []
    remote_name = name == "wget"  # wget saves under the URL's name unless told otherwise
    urls: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--"):
            key, _, value = a.partition("=")
            if key == _LONG_OUTPUT[name]:
                if not value and i + 1 < len(args):
                    i += 1
                    value = args[i]
                out.append(value)
                remote_name = False
            elif key in ("--remote-name", "--remote-name-all"):
                remote_name = True
        elif a.startswith("-") and len(a) > 1:
            cluster = a[1:]
            for j, c in enumerate(cluster):
                if c == "O" and name == "curl":
                    remote_name = True
                    continue
                if c in _VALUE_OPTS[name] or c == _OUTPUT_OPT[name]:
                    value = cluster[j + 1:]
                    if not value and i + 1 < len(args):
                        i += 1
                        value = args[i]
                    if c == _OUTPUT_OPT[name]:
                        out.append(value)
                        remote_name = False
                    break
        elif "://" in a or "." in a:
            urls.append(a)
        i += 1
    if remote_name:
        out.extend(_url_name(u) for u in urls)
    for op, target in cmd.redirects:
        if op in (">", ">>", "1>", ">|") and target:
            out.append(target)
    return [posixpath.normpath(p) for p in out if p and p != "-"]


def _url_name(url: str) -> str:
    path = url.split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    return path.rsplit("/", 1)[-1] if "/" in path else "index.html"


def _executes(cmd: Command) -> list[str]:
    """Files a command runs: ``./x``, ``sh x``, ``bash x``, ``python x``, ``source x``."""
    view = _sudo_view(cmd, lower=False)
    if not view:
        return []
    name = view[0]
    base = _basename(name).lower()
    if "/" in name and base not in INTERPRETERS:
        return [posixpath.normpath(name)]
    if base in INTERPRETERS or base in ("source", "."):
        operands = [a for a in view[1:] if not a.startswith("-")]
        if operands and "-c" not in view[1:]:
            return [posixpath.normpath(operands[0])]
    return []


def shell_findings(command: str, depth: int = 1) -> list[Finding]:
    """Structural rules over one command line (beyond the scored patterns)."""
    found: list[Finding] = []
    cmds = commands(command)
    if _FORK_BOMB.search(command):
        found.append(Finding(1.0, "fork bomb"))
    downloaded: set[str] = set()
    pipeline_sources: list[str] = []
    for cmd in cmds:
        view = _sudo_view(cmd)
        name = _basename(view[0]) if view else ""
        args = view[1:] if view else ()
        if not cmd.piped_from:
            pipeline_sources = []
        if cmd.piped_from and name in INTERPRETERS and "-c" not in args:
            if any(s in DOWNLOADERS for s in pipeline_sources):
                found.append(Finding(1.0, f"download piped into a shell ({name})"))
            elif any(s in DECODERS for s in pipeline_sources):
                found.append(Finding(1.0, f"decoded data piped into a shell ({name})"))
            elif name in SHELLS:
                found.append(Finding(0.8, f"data piped into a shell ({name})"))
        pipeline_sources.append(name)
        if name == "dd":
            for a in args:
                if a.startswith("of=") and _DEVICE.match(a[3:]):
                    found.append(Finding(1.0, f"dd writes to a device ({a[3:]})"))
        finding = _device_writer(name, args, cmd)
        if finding is not None:
            found.append(finding)
        for op, target in cmd.redirects:
            if op in (">", ">>", "1>", ">|", "&>") and _DEVICE.match(target):
                found.append(Finding(1.0, f"output redirected onto a device ({target})"))
        if name == "rm":
            flags = _normal_args("rm", args)
            if "-r" in flags and any(a in ROOT_PATHS for a in args if not a.startswith("-")):
                found.append(Finding(1.0, "recursive rm of a root path"))
        if name == "chmod":
            flags = _normal_args("chmod", args)
            operands = [a for a in args if not a.startswith("-")]
            if "-r" in flags and any(a in ROOT_PATHS for a in operands[1:]):
                found.append(Finding(1.0, "recursive chmod of a root path"))
        if cmd.substitution and name in DOWNLOADERS:
            # A download inside $(…)/<(…) whose text feeds a shell on the same line.
            if any(_basename(_sudo_view(c)[0]) in EXECUTORS
                   for c in cmds if not c.substitution and c.words):
                found.append(Finding(1.0, "download executed through a substitution"))
        if name in DOWNLOADERS:
            downloaded.update(_downloads(cmd))
        elif downloaded and set(_executes(cmd)) & downloaded:
            found.append(Finding(1.0, "runs a file downloaded on the same line"))
        if depth > 0 and name in SHELLS:
            script = _dash_c(cmd.words[len(cmd.words) - len(view) + 1:])
            if script is not None:
                found.extend(shell_findings(script, depth - 1))
    return found


# Commands that destroy what is on a block device, and the words that make them do so
# (None: the command always does). Lower-cased, as the arguments are.
DEVICE_WRITERS: dict[str, frozenset[str] | None] = {
    "mkfs": None, "mke2fs": None, "mkswap": None, "shred": None, "blkdiscard": None,
    "scrub": None, "pvremove": None, "wipefs": frozenset({"-a", "--all", "-o", "--offset"}),
    "cryptsetup": frozenset({"luksformat", "erase", "lukserase", "reencrypt"}),
    "mdadm": frozenset({"--zero-superblock"}),
    "sgdisk": frozenset({"--zap-all", "-z", "--clear", "-o", "--delete", "-d"}),
    "sfdisk": frozenset({"--delete", "<"}),
    "parted": frozenset({"mklabel", "rm", "mkpart", "resizepart"}),
    "badblocks": frozenset({"-w"}), "nvme": frozenset({"format", "sanitize"}),
    "hdparm": frozenset({"--security-erase", "--security-erase-enhanced", "--trim-sector-ranges"}),
}
DRY_RUN = {"wipefs": frozenset({"-n", "--no-act"}), "sfdisk": frozenset({"--no-act"}),
           "mke2fs": frozenset({"-n"}), "mkfs": frozenset({"--dry-run"})}


def _device_writer(name: str, args: Sequence[str], cmd: Command) -> Finding | None:
    key = "mkfs" if name.startswith("mkfs") else name
    if key not in DEVICE_WRITERS:
        if name in ("lvremove", "vgremove"):
            return Finding(0.6, f"{name} destroys logical volumes")
        return None
    words = set(args) | {op for op, _ in cmd.redirects}
    needed = DEVICE_WRITERS[key]
    flags = _flags(args)
    if needed is not None and not (needed & words or needed & flags):
        return None
    if DRY_RUN.get(key, frozenset()) & flags:
        return None
    devices = [a for a in args if _DEVICE.match(a)]
    devices += [t for op, t in cmd.redirects if op == "<" and _DEVICE.match(t)]
    if devices:
        return Finding(1.0, f"{name} on a device ({devices[0]})")
    if key == "mkfs" and not any(not a.startswith("-") for a in args):
        return Finding(1.0, f"{name} with no target")
    return None


def _dash_c(args: Sequence[str]) -> str | None:
    for i, a in enumerate(args[:-1]):
        if a == "-c" or (a.startswith("-") and not a.startswith("--") and a.endswith("c")):
            return args[i + 1]
    return None


def _all_commands(command: str) -> list[Command]:
    """Commands of the line and of one level of ``sh -c '…'``."""
    out = commands(command)
    for cmd in list(out):
        view = _sudo_view(cmd, lower=False)
        if view and _basename(view[0].lower()) in SHELLS:
            script = _dash_c(cmd.words[len(cmd.words) - len(view) + 1:])
            if script is not None:
                out.extend(commands(script))
    return out


def _command_text(input: Mapping[str, Any]) -> str | None:
    for field in COMMAND_FIELDS:
        value = input.get(field)
        if isinstance(value, str):
            return value
    return None


def _paths(input: Mapping[str, Any]) -> list[str]:
    return [v for f in PATH_FIELDS if isinstance(v := input.get(f), str)]


# --- the shield -------------------------------------------------------------------------------


@attrs.frozen
class ComboRule:
    """``first`` in the history, then ``second`` in the current call: (tool, pattern|None)."""

    first: tuple[str, str | None]
    second: tuple[str, str | None]
    score: float
    reason: str


DEFAULT_COMBOS = (
    ComboRule(("Bash", "curl"), ("Bash", "| sh"), 0.85, "download then pipe to shell"),
    ComboRule(("Write", None), ("Bash", "chmod +x"), 0.75, "write then make executable"),
    ComboRule(("Bash", "chmod"), ("Write", None), 0.65, "chmod then write"),
)


def _threshold(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ConfigError(f"{name} must be a finite number, got {value!r}")
    return min(1.0, max(0.0, float(value)))


def multi_score(prior_same_tool: int) -> float:
    return 0.0 if prior_same_tool <= 0 else 0.1 if prior_same_tool == 1 else (
        0.3 if prior_same_tool == 2 else 0.6
    )


class UnixShield:
    """The default shield: Bash, Write and Edit patterns, structural shell rules, combos."""

    def __init__(
        self,
        *,
        block_threshold: float = 0.7,
        warn_threshold: float = 0.4,
        bash_patterns: Sequence[ShellPattern] = DEFAULT_BASH,
        path_patterns: Mapping[str, Sequence[PathPattern]] | None = None,
        combos: Sequence[ComboRule] = DEFAULT_COMBOS,
        bash_tools: Iterable[str] = ("Bash",),
    ) -> None:
        block = _threshold("block_threshold", block_threshold)
        warn = _threshold("warn_threshold", warn_threshold)
        if warn > block:  # an inverted pair is swapped, not rejected
            block, warn = warn, block
        self.block_threshold = block
        self.warn_threshold = warn
        self.bash_patterns = tuple(bash_patterns)
        self.path_patterns = dict(path_patterns if path_patterns is not None else {
            "Write": DEFAULT_WRITE, "Edit": DEFAULT_EDIT, "MultiEdit": DEFAULT_EDIT,
        })
        self.combos = tuple(combos)
        self.bash_tools = names("bash_tools", bash_tools)
        self._by_text = {p.text: p for p in self.bash_patterns}

    def tools(self) -> frozenset[str]:
        return self.bash_tools | frozenset(self.path_patterns)

    def __repr__(self) -> str:
        return (f"UnixShield(block_threshold={self.block_threshold:g}, "
                f"warn_threshold={self.warn_threshold:g})")

    # single ------------------------------------------------------------------------------

    def single(self, tool: str, input: Mapping[str, Any]) -> Finding:
        """The highest pattern or rule score of this call alone."""
        best = Finding(0.0, "")
        if tool in self.bash_tools:
            command = _command_text(input)
            if command is None:
                return best
            cmds = _all_commands(command)
            for pattern in self.bash_patterns:
                if pattern.score > best.score and any(pattern.matches(c) for c in cmds):
                    best = Finding(pattern.score, f"'{pattern.text}'")
            for finding in shell_findings(command):
                if finding.score > best.score:
                    best = finding
            return best
        for path_pattern in self.path_patterns.get(tool, ()):
            if path_pattern.score > best.score and any(
                path_pattern.matches_path(p) for p in _paths(input)
            ):
                best = Finding(path_pattern.score, f"path matches '{path_pattern.text}'")
        return best

    def _triggers(
        self, tool: str, input: Mapping[str, Any], trigger: tuple[str, str | None]
    ) -> bool:
        want_tool, pattern_text = trigger
        if tool != want_tool:
            return False
        if pattern_text is None:
            return True
        command = _command_text(input)
        if command is None:
            return False
        pattern = self._by_text.get(pattern_text) or ShellPattern(pattern_text, 0.0)
        return any(pattern.matches(c) for c in _all_commands(command))

    def combo(self, tool: str, input: Mapping[str, Any],
              history: Sequence[CallRecord]) -> tuple[float, str]:
        best = (0.0, "")
        for rule in self.combos:
            if rule.score <= best[0] or not self._triggers(tool, input, rule.second):
                continue
            if any(self._triggers(h.tool, h.input, rule.first) for h in history):
                best = (rule.score, rule.reason)
        return best

    def download_then_run(self, tool: str, input: Mapping[str, Any],
                          history: Sequence[CallRecord]) -> Finding | None:
        if tool not in self.bash_tools:
            return None
        command = _command_text(input)
        if command is None:
            return None
        downloaded: set[str] = set()
        for record in history:
            if record.tool in self.bash_tools:
                text = _command_text(record.input)
                if text is not None:
                    for cmd in _all_commands(text):
                        downloaded.update(_downloads(cmd))
        if not downloaded:
            return None
        for cmd in _all_commands(command):
            hit = set(_executes(cmd)) & downloaded
            if hit:
                return Finding(1.0, f"runs {sorted(hit)[0]!r}, downloaded by an earlier call")
        return None

    def evaluate(
        self, tool: str, input: Mapping[str, Any], history: Sequence[CallRecord]
    ) -> ShieldDecision:
        single = self.single(tool, input)
        prior = sum(1 for h in history if h.tool == tool)
        multi = multi_score(prior)
        combo, combo_reason = self.combo(tool, input, history)
        staged = self.download_then_run(tool, input, history)
        if staged is not None and staged.score > single.score:
            single = staged
        score = round(min(1.0, single.score + 0.5 * multi + 0.3 * combo), 9)
        parts = [single.reason] if single.reason else []
        if combo:
            parts.append(combo_reason)
        if multi:
            parts.append(f"{prior} earlier {tool} call(s)")
        reason = ", ".join(parts) or "no risk found"
        if score >= CRITICAL:
            return ShieldDecision("block", score, f"{reason} (critical, risk {score:.2f})")
        if score >= self.block_threshold:
            return ShieldDecision("block", score, f"{reason} (risk {score:.2f})")
        if score >= self.warn_threshold:
            return ShieldDecision("warn", score, f"{reason} (risk {score:.2f})")
        return ShieldDecision("allow", score, reason)


class SafetyShieldMiddleware:
    """Consults a shield before watched tools run: Block → soft error (duration 0, not
    recorded); Warn → logged and emitted, then proceeds. Admitted calls are recorded in the
    store (last 20) so multi-call rules fire across turns. A shield that raises blocks
    (fail closed)."""

    name = "safety_shield"

    def __init__(
        self,
        shield: ToolSafetyShield | None = None,
        watched_tools: Iterable[str] | None = None,
        *,
        namespace: str = "shield",
        history_size: int = HISTORY_SIZE,
    ) -> None:
        self.shield: ToolSafetyShield = shield if shield is not None else UnixShield()
        if not callable(getattr(self.shield, "evaluate", None)):
            raise ConfigError(f"shield must have an evaluate() method, got {shield!r:.60}")
        if watched_tools is None:
            tools = getattr(self.shield, "tools", None)
            watched_tools = tools() if callable(tools) else ()
        self.watched = names("watched_tools", watched_tools)
        self.namespace = namespace
        self.history_size = non_negative_int("history_size", history_size)

    def __repr__(self) -> str:
        return f"SafetyShieldMiddleware({self.shield!r}, watched={sorted(self.watched)})"

    def dispatch(self, ctx: DispatchContext, next: Next) -> Program[DispatchResult]:
        tool = ctx.tool_name
        if tool not in self.watched:
            return (yield from next(ctx))
        history = yield HistoryGet(self.namespace)
        try:
            decision = self.shield.evaluate(tool, ctx.input, history)
            if not isinstance(decision, ShieldDecision):
                raise TypeError(f"evaluate() returned {decision!r:.40}, not a ShieldDecision")
        except Exception as exc:
            decision = ShieldDecision("block", 1.0, f"shield failed ({type(exc).__name__}: {exc})")
        if decision.action == "block":
            return DispatchResult.error(
                ctx.call_id, f"blocked by safety shield: {decision.reason}", tool, 0.0
            )
        if decision.action == "warn":
            yield Emit(ShieldWarning(tool, decision.score, decision.reason))
        result = yield from next(ctx)
        yield HistoryAppend(
            self.namespace, CallRecord(tool, ctx.input, not result.is_error), self.history_size
        )
        return result
