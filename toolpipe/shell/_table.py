"""The program table (``programs.toml``): wrappers' option grammars, programs that run code
from an option or an argument, variables that carry code, inert programs, and what cannot
be undone off the machine. Read once at import; a malformed row is an error naming it."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from toolpipe._lazy_re import LazyPattern
from toolpipe.errors import ConfigError
from toolpipe.shell._table_parts import shared_parts, with_parts

TABLE = Path(__file__).with_name("programs.toml")
MAX_JOINED = 4096  # arguments longer than this (joined) are not matched against rows: the
# shield asks about them instead (toolpipe.layers._shield_places.offsite)


@attrs.frozen
class Grammar:
    """Option words of a wrapper: short letters and long names that take a value, and how
    many operands come before the wrapped command."""

    short: str = ""
    long: frozenset[str] = frozenset()
    assignments: bool = False  # NAME=value words before the command (env, sudo)
    operands: int = 0  # e.g. timeout's DURATION, chroot's NEWROOT
    numeric_flags: bool = False  # nice -10
    pairs: frozenset[str] = frozenset()  # options that take two values (bwrap --bind A B)
    after: str = ""  # the command follows this word (xterm -e CMD)
    not_with: frozenset[str] = frozenset()  # with one of these words it wraps nothing
    chdir: frozenset[str] = frozenset()  # options whose value is the folder it runs in


@attrs.frozen
class OptionCode:
    option: str
    value: LazyPattern[str]


@attrs.frozen
class CodeRow:
    programs: tuple[str, ...]
    options: tuple[OptionCode, ...] = ()
    arguments: tuple[LazyPattern[str], ...] = ()
    operands: str = ""  # "code": every operand is a shell command; "argv": one command line
    after: frozenset[str] = frozenset()
    example: str = ""
    harmless: str = ""
    # the words after one of these, joined by spaces, are one shell command line (`git
    # submodule foreach 'CMD'` runs `sh -c` on them, as ssh does)
    shell_after: frozenset[str] = frozenset()
    # the operand after one this matches is code (`composer config scripts.NAME 'CMD'`)
    value_after: LazyPattern[str] | None = None
    # the row reads one form of code only; the rest of the command is judged as an unknown
    # program's (nix: `builtins.exec [...]` here, `nix develop -c CMD` as any wrapper's)
    unknown: bool = False
    # options whose value is the folder the code runs in (`tmux new-session -c DIR CMD`)
    chdir: frozenset[str] = frozenset()
    # the options are the program's own, before the `after` word (`tmux -c CMD`, where a
    # subcommand's `-c DIR` is its folder)
    options_before_after: bool = False


@attrs.frozen
class Irreversible:
    programs: tuple[str, ...]
    args: LazyPattern[str]
    unless: LazyPattern[str] | None
    score: float
    reason: str
    example: str = ""
    harmless: str = ""
    secret: bool = False  # what it prints is a secret (sending it on is exfiltration)

    def matches(self, joined: str) -> bool:
        if self.args.search(joined) is None:
            return False
        return self.unless is None or self.unless.search(joined) is None


@attrs.frozen
class Credential:
    """Options of a program whose value is a password or a token."""

    programs: tuple[str, ...]  # a program, or a program and its subcommand ("docker login")
    flags: tuple[str, ...]
    attached: bool = False  # only `-pPW`, never `-p PW`
    percent: bool = False  # the value is USER%PASSWORD (smbclient -U)
    example: str = ""
    harmless: str = ""
    comma: bool = False  # the value is USER,PASSWORD (lftp -u)
    colon: bool = False  # the value is USER:PASSWORD (skopeo --creds)
    spaced: bool = False  # only `-passwd PW`: `-passwdfile F` is another option


def _pattern(text: object, where: str, lazy: bool) -> LazyPattern[str]:
    """A row's regular expression: compiled now for a table given to ``load``; for the
    shipped table (checked whole by its tests), when its program is first seen."""
    if not isinstance(text, str):
        raise ConfigError(f"{TABLE.name}: {where}: a regular expression must be a string")
    made = LazyPattern(text, re.DOTALL, lambda exc: ConfigError(
        f"{TABLE.name}: {where}: bad regular expression: {exc}"))
    if not lazy:
        made.compiled()
    return made


def _names(value: object, where: str) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(v, str) and v for v in items):
        raise ConfigError(f"{TABLE.name}: {where}: expected a name or a list of names")
    return tuple(items)


def _programs(value: object, where: str) -> tuple[str, ...]:
    """A row's programs: commands are matched by their lower-cased name, so a name with a
    capital could never match (`zkCli.sh` is looked up as `zkcli.sh`)."""
    names = _names(value, where)
    for name in names:
        if name != name.lower():
            raise ConfigError(f"{TABLE.name}: {where}: {name!r} is never matched: program "
                              f"names are compared lower-cased ({name.lower()!r})")
    return names


def _grammar(row: Mapping[str, Any]) -> Grammar:
    return Grammar(str(row.get("short", "")), frozenset(str(row.get("long", "")).split()),
                   bool(row.get("assignments", False)), int(row.get("operands", 0)),
                   bool(row.get("numeric", False)),
                   frozenset(str(row.get("pairs", "")).split()), str(row.get("after", "")),
                   frozenset(str(row.get("not_with", "")).split()),
                   frozenset(str(row.get("chdir", "")).split()))


def _code_row(i: int, row: Mapping[str, Any], lazy: bool) -> CodeRow:
    where = f"[[code]] #{i + 1}"
    programs = _programs(row.get("program"), where + " program")
    options = []
    for opt in row.get("options", []):
        if not isinstance(opt, dict) or not isinstance(opt.get("option"), str):
            raise ConfigError(f"{TABLE.name}: {where}: options need an 'option' name")
        options.append(OptionCode(opt["option"], _pattern(
            opt.get("value", "(?P<code>.+)"), f"{where} {opt['option']}", lazy)))
    arguments = tuple(_pattern(p, f"{where} arguments", lazy)
                      for p in row.get("arguments", []))
    operands = str(row.get("operands", ""))
    if operands not in ("", "code", "argv"):
        raise ConfigError(f"{TABLE.name}: {where}: operands must be 'code' or 'argv'")
    return CodeRow(programs, tuple(options), arguments, operands,
                   frozenset(_names(row.get("after", []), where + " after")
                             if row.get("after") else ()),
                   str(row.get("example", "")), str(row.get("harmless", "")),
                   frozenset(_names(row.get("shell_after", []), where + " shell_after")
                             if row.get("shell_after") else ()),
                   _pattern(row["value_after"], where + " value_after", lazy)
                   if row.get("value_after") else None, bool(row.get("unknown", False)),
                   frozenset(str(row.get("chdir", "")).split()),
                   bool(row.get("options_before_after", False)))


def _irreversible(i: int, row: Mapping[str, Any], lazy: bool, parts: Mapping[str, str]
                  ) -> Irreversible:
    where = f"[[irreversible]] #{i + 1}"
    score = row.get("score")
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0 < score <= 1:
        raise ConfigError(f"{TABLE.name}: {where}: score must be in (0, 1]")
    unless, args = row.get("unless"), with_parts(row.get("args", ""), parts,
                                                 f"{TABLE.name}: {where}")
    return Irreversible(_programs(row.get("program"), where + " program"),
                        _pattern(args, where + " args", lazy),
                        _pattern(unless, where + " unless", lazy) if unless else None,
                        float(score), str(row.get("reason", "cannot be undone")),
                        str(row.get("example", "")), str(row.get("harmless", "")),
                        bool(row.get("secret", False)))


@attrs.frozen
class FileRunner:
    """A program that runs a file of code: named after one of ``options`` (``java -jar
    F``, ``deno run F``, ``awk -f F``) or, with ``operand``, its first operand (ending
    with one of ``endings``, if any: ``dotnet app.dll`` but not ``dotnet build``)."""

    programs: tuple[str, ...]
    options: frozenset[str]
    operand: bool
    endings: tuple[str, ...]
    example: str
    harmless: str


def _file_runner(i: int, row: Mapping[str, Any]) -> FileRunner:
    where = f"[[file]] #{i + 1}"
    options = frozenset(_names(row["options"], where + " options")) if "options" in row else (
        frozenset())
    operand = bool(row.get("operand", False))
    if not options and not operand:
        raise ConfigError(f"{TABLE.name}: {where}: give options, operand = true, or both")
    endings = tuple(_names(row["endings"], where + " endings")) if "endings" in row else ()
    return FileRunner(_programs(row.get("program"), where + " program"), options, operand,
                      endings, str(row.get("example", "")), str(row.get("harmless", "")))


@attrs.frozen
class OutputRow:
    """Where a program writes: the files its ``files`` options name (``gcc -o F``), the
    folders its ``folders`` options name (``javac -d DIR``: names it makes under it), and
    with ``operand`` the operand at that index after ``subcommand`` (-1: the last; ``git
    clone URL DIR``), a file or, with ``operand_folder``, a folder (``new_folder``: one
    that must be new or empty, so nothing there is overwritten); ``valued``: options that
    take a value, skipped when operands are counted."""

    programs: tuple[str, ...]
    subcommand: frozenset[str]
    files: tuple[str, ...]
    folders: tuple[str, ...]
    operand: int | None
    operand_folder: bool
    valued: frozenset[str]
    example: str
    harmless: str
    new_folder: bool = False  # the folder operand must be new or empty (`git clone`)
    # every operand is rewritten in place: always ("*"), or with one of these options
    # (`prettier --write`), unless one of ``unless`` (`black --check`)
    in_place: tuple[str, ...] = ()
    unless: frozenset[str] = frozenset()
    installs: bool = False  # an operand that is a local path is a package whose code runs
    # the row says all the program does (a converter): it is read as a known program, not
    # as an unknown one whose arguments are probed for commands
    understood: bool = False


def _output_row(i: int, row: Mapping[str, Any]) -> OutputRow:
    where = f"[[output]] #{i + 1}"

    def names(key: str) -> tuple[str, ...]:
        return _names(row[key], f"{where} {key}") if key in row else ()

    operand = row.get("operand")
    if operand is not None and (isinstance(operand, bool) or not isinstance(operand, int)):
        raise ConfigError(f"{TABLE.name}: {where}: operand must be an index (-1: the last)")
    if not (names("files") or names("folders") or names("in_place")) and operand is None and (
            not row.get("installs")):
        raise ConfigError(f"{TABLE.name}: {where}: give files, folders, in_place, installs "
                          "or an operand")
    return OutputRow(_programs(row.get("program"), where + " program"),
                     frozenset(names("subcommand")), names("files"), names("folders"),
                     operand, bool(row.get("operand_folder", False)),
                     frozenset(names("valued")), str(row.get("example", "")),
                     str(row.get("harmless", "")), bool(row.get("new_folder", False)),
                     names("in_place"), frozenset(names("unless")),
                     bool(row.get("installs", False)), bool(row.get("understood", False)))


def _flags(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{TABLE.name}: {where}: expected a list of options")
    return tuple(value)


def _credential(i: int, row: Mapping[str, Any]) -> Credential:
    where = f"[[credential]] #{i + 1}"
    flags = _names(row.get("flags"), where + " flags")
    if not all(f.startswith(("-", "/")) for f in flags):
        raise ConfigError(f"{TABLE.name}: {where}: a flag starts with - or /")
    return Credential(_programs(row.get("program"), where + " program"), flags,
                      bool(row.get("attached", False)), bool(row.get("percent", False)),
                      str(row.get("example", "")), str(row.get("harmless", "")),
                      bool(row.get("comma", False)), bool(row.get("colon", False)),
                      bool(row.get("spaced", False)))


@attrs.frozen
class OptionEnv:
    """A variable a program reads as an option: the command it stands for, as words (one
    holds ``{}``, the value, or is ``{...}``, its words), and the place the program uses
    when it is unset (``~/go``), if any."""

    words: tuple[str, ...]
    default: str = ""


def _option_env(data: Mapping[str, Any]) -> dict[str, OptionEnv]:
    out: dict[str, OptionEnv] = {}
    for name, row in data.items():
        if name in ("example", "harmless"):
            continue
        command = row.get("command") if isinstance(row, dict) else row
        default = row.get("default", "") if isinstance(row, dict) else ""
        words = tuple(command.split()) if isinstance(command, str) else ()
        holes = [w for w in words if "{}" in w or w == "{...}"]
        if len(words) < 2 or len(holes) != 1 or "{" in words[0] or not isinstance(
                default, str):
            raise ConfigError(f"{TABLE.name}: [option_env] {name}: expected a program's "
                              "words with one {} (the value) or {...} (its words), or "
                              "{ command = …, default = \"PLACE\" }")
        out[name] = OptionEnv(words, default.rstrip("/"))
    return out


def load(text: str, *, lazy: bool = False) -> dict[str, Any]:
    """The table in ``text``, checked: a malformed row is a ``ConfigError`` naming it (a
    bad regular expression too, unless ``lazy``: then when the row is first used)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{TABLE.name}: {exc}") from None
    wrappers = {name: _grammar(row) for name, row in data.get("wrapper", {}).items()}
    code = {p: made for i, row in enumerate(data.get("code", []))
            for made in (_code_row(i, row, lazy),) for p in made.programs}
    irreversible: dict[str, list[Irreversible]] = {}
    parts = shared_parts(data.get("patterns", {}), TABLE.name)
    for i, row in enumerate(data.get("irreversible", [])):
        made_i = _irreversible(i, row, lazy, parts)
        for p in made_i.programs:
            irreversible.setdefault(p, []).append(made_i)
    files = {p: made_f for i, row in enumerate(data.get("file", []))
             for made_f in (_file_runner(i, row),) for p in made_f.programs}
    outputs: dict[str, list[OutputRow]] = {}
    for i, row in enumerate(data.get("output", [])):
        made_o = _output_row(i, row)
        for p in made_o.programs:
            outputs.setdefault(p, []).append(made_o)
    env = data.get("code_env", {})
    option_env = _option_env(data.get("option_env", {}))
    credentials = tuple(_credential(i, row) for i, row in enumerate(data.get("credential", [])))
    foreign = {name: frozenset(f.lower() for f in _flags(flags, f"[foreign] {name}"))
               for name, flags in data.get("foreign", {}).items()
               if name not in ("example", "harmless")}
    return {
        "credentials": credentials, "foreign": foreign,
        "wrappers": wrappers, "code": code, "irreversible": irreversible, "file": files,
        "output": outputs, "option_env": option_env,
        "code_env": frozenset(_names(env.get("names", []), "[code_env] names")),
        "file_env": frozenset(_names(env.get("files", []), "[code_env] files")),
        "inert": frozenset(_names(data.get("inert", {}).get("names", []), "[inert] names")),
        "rows": data,
    }


_LOADED = load(TABLE.read_text(encoding="utf-8"), lazy=True)
WRAPPERS: dict[str, Grammar] = _LOADED["wrappers"]
CODE: dict[str, CodeRow] = _LOADED["code"]
IRREVERSIBLE: dict[str, list[Irreversible]] = _LOADED["irreversible"]
FILE_RUNNERS: dict[str, FileRunner] = _LOADED["file"]
OUTPUTS: dict[str, list[OutputRow]] = _LOADED["output"]
CODE_ENV: frozenset[str] = _LOADED["code_env"]
OPTION_ENV: dict[str, OptionEnv] = _LOADED["option_env"]
FILE_ENV: frozenset[str] = _LOADED["file_env"]
INERT: frozenset[str] = _LOADED["inert"]
CREDENTIALS: tuple[Credential, ...] = _LOADED["credentials"]
FOREIGN: dict[str, frozenset[str]] = _LOADED["foreign"]
ROWS: dict[str, Any] = _LOADED["rows"]
CODE_PROGRAMS = frozenset(CODE)  # their input is read as their options are (input_code)


def clustered(word: str, letter: str) -> bool:
    """``-qc``: one-letter flags clustered, ``letter`` last (its value is the next word)."""
    return (len(word) > 2 and word[0] == "-" and word[1] != "-" and word[1:].isalpha()
            and word[-1] == letter)


def option_values(args: Sequence[str], option: str) -> list[str]:
    """Every value given to ``option``: ``-o V``, ``-oV`` (one letter), ``-qo V`` (flags
    clustered before it), ``--opt=V``, ``--opt V``, ``-ex V`` (a multi-letter short option,
    whole words only)."""
    out: list[str] = []
    i = 0
    long = option.startswith("--")
    while i < len(args):  # not stopped by `--`: capsh -- -c CODE gives it to bash
        a = args[i]
        if a == option and i + 1 < len(args):
            out.append(args[i + 1])
            i += 2
            continue
        if long and a.startswith(option + "="):
            out.append(a[len(option) + 1:])
        elif not long and len(option) == 2 and a.startswith(option) and len(a) > 2 and (
                not a.startswith("--")):
            out.append(a[2:])
        elif not long and len(option) == 2 and clustered(a, option[1]) and i + 1 < len(args):
            out.append(args[i + 1])  # -qc V: flags clustered, the option's letter last
            i += 2
            continue
        i += 1
    return out


def irreversible(name: str, args: Sequence[str], cwd: str | None = "."
                 ) -> Irreversible | None:
    rows = IRREVERSIBLE.get(name)
    if not rows:
        return None
    joined = " ".join((f"@cwd={cwd or '?'}", *args))  # the caller bounds its length
    return next((r for r in rows if r.matches(joined)), None)
