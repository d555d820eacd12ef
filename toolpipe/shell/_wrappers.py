"""Wrappers peeled off a command (sudo, env, timeout, xargs…), each with its own options,
and the code strings a command runs (``bash -c``, ``eval``, ``su -c``, ``ssh host CMD``,
``watch``, ``find -exec``, shell commands inside ``python -c`` and friends)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from toolpipe.shell._code_rows import carried_code
from toolpipe.shell._folders import chdir_value, login_folder
from toolpipe.shell._inline import PERL_RENAMERS, inline_codes
from toolpipe.shell._items import (
    _echoed_items,
    _fd_exec,
    _find_exec,
    _items,
    _parallel_words,
    _with_items,
    execdir_folder,
    fd_folder,
)
from toolpipe.shell._named import daemon_argv, env_split, machine_shell
from toolpipe.shell._oneliners import LANGUAGES
from toolpipe.shell._runners import RUNNERS, runner_start
from toolpipe.shell._table import WRAPPERS as WRAPPERS
from toolpipe.shell._table import Grammar, clustered
from toolpipe.shell._toolmodes import tool_mode
from toolpipe.shell._words import Word, literal, replaced

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh",
                    "rbash", "yash", "posh", "oksh", "loksh", "pdksh"})
PRIVILEGED = frozenset({"sudo", "doas", "pkexec", "su", "runuser", "sudoedit", "run0"})


def _g(short: str = "", long: str = "", assignments: bool = False, operands: int = 0,
       numeric: bool = False) -> Grammar:
    return Grammar(short, frozenset(long.split()), assignments, operands, numeric)


_SHELL_STRING = frozenset({"watch", "ssh"})  # they run their arguments as one shell string
SSH_VALUED = "BbcDEeFIiJLlmOopQRSWw"


class Peeled(NamedTuple):
    """What peeling the wrappers off an argv found (a tuple: one per command read)."""
    argv: tuple[Word, ...]
    wrappers: tuple[str, ...] = ()
    privileged: bool = False
    codes: tuple[tuple[str, Word, tuple[Word, ...]], ...] = ()  # (label, code, $1…)
    subcommands: tuple[tuple[str, tuple[Word, ...]], ...] = ()  # (label, argv)
    alerts: tuple[tuple[str, str], ...] = ()  # (kind, label) found in a one-liner
    chdir: Word | None = None  # the folder a wrapper runs the command in (`env -C DIR`)
    sub_chdir: Word | None = None  # the folder its subcommands run in (`find -execdir`)


def _code_option(text: str) -> bool:
    """``-c`` or ``--command``, also with flags clustered before the ``c`` (``-qc``,
    ``-lc``): the next word is the code."""
    return text in ("-c", "--command") or clustered(text, "c")


def _name(word: Word) -> str:
    return word.text.rpartition("/")[2].lower() if word.known else ""


def skip_options(args: Sequence[Word], g: Grammar) -> int:
    """Index of the first word after the options (and fixed operands) of a wrapper."""
    if g.after:  # xterm -e CMD…: the command is what follows the word
        texts = [a.text for a in args]
        return texts.index(g.after) + 1 if g.after in texts else len(args)
    i = 0
    while i < len(args):
        a = args[i].text
        if a == "--":
            i += 1
            break
        if a.startswith("--"):
            if a in g.pairs:
                i += 3
                continue
            i += 2 if a.split("=", 1)[0] in g.long and "=" not in a else 1
        elif a.startswith("-") and len(a) > 1:
            if g.numeric_flags and a[1:].isdigit():
                i += 1
                continue
            step = 1
            for j, c in enumerate(a[1:]):
                if c in g.short:
                    step = 1 if a[j + 2:] else 2
                    break
            i += step
        elif g.assignments and "=" in a and a.split("=", 1)[0].removesuffix("%%").replace(
                "_", "a").isalnum():  # (BASH_FUNC_name%%=… exports a function)
            i += 1
        else:
            break
    return min(len(args), i + g.operands)


def join_words(words: Sequence[Word]) -> Word:
    text = " ".join(w.text for w in words)
    return Word(text, " ".join(w.raw for w in words), False, all(w.tame for w in words),
                tuple(s for w in words for s in w.sources))


def shell_code(args: Sequence[Word]) -> tuple[Word, tuple[Word, ...]] | None:
    """``-c CODE [$0 [$1…]]`` of a shell (also in a cluster: ``-lc``, ``-xec``)."""
    i = 0
    while i < len(args):
        a = args[i].text
        if a in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if a.startswith("-") and not a.startswith("--") and "c" in a[1:] and i + 1 < len(args):
            return args[i + 1], tuple(args[i + 2:])  # $0 first
        if a == "--command" and i + 1 < len(args):
            return args[i + 1], ()
        if not a.startswith(("-", "+")):
            return None
        i += 1
    return None


def _host_target(args: Sequence[Word]) -> bool:
    """``nsenter -t 1`` (or ``--all``, ``-a``): the host's namespaces, as root."""
    texts = [a.text for a in args]
    return any(t in ("-a", "--all", "--target=1", "-t1") or (
        t in ("-t", "--target") and i + 1 < len(texts) and texts[i + 1] == "1")
        for i, t in enumerate(texts))


_SHELL_TEXT = re.compile(r"\s\S|[|;&<>`]|\$\(")  # a word that reads as a command line


def _unequalled(argv: tuple[Word, ...]) -> tuple[Word, ...]:
    """zsh's ``=rm`` in a command's place: the path of ``rm`` (classes-fresh76.txt found
    ``zsh -c '=rm -rf ~'`` allowed, a program named ``=rm``)."""
    if argv and argv[0].text[:1] == "=" and argv[0].text[1:2].isalpha():
        return (argv[0]._replace(text=argv[0].text[1:]), *argv[1:])
    return argv


def peel(argv: tuple[Word, ...], upstream: Sequence[object] = ()) -> Peeled:
    argv = _unequalled(argv)
    if not argv or _name(argv[0]) not in PEELED:
        return Peeled(argv)  # the common case: a command that wraps nothing
    wrappers: list[str] = []
    privileged = False
    scheduled = False
    chdir: Word | None = None
    codes: list[tuple[str, Word, tuple[Word, ...]]] = []
    loads: list[tuple[str, tuple[Word, ...]]] = []  # `uv run --env-file F`: `set -a; . F`
    for _ in range(16):
        argv = _unequalled(argv)  # (`sudo =rm`: zsh reads every word so)
        if not argv:
            break
        name = _name(argv[0])
        args = argv[1:]
        if name in ("su", "runuser"):
            privileged = True
            wrappers.append(name)
            chdir = login_folder(name, args) or chdir  # (`su - -c CMD`: from the home)
            for i, a in enumerate(args):
                t = a.text
                if (_code_option(t) or t == "--session-command") and i + 1 < len(args):
                    codes.append((f"{name} -c", args[i + 1], ()))
                    rest = args[i + 1:]
                    if name == "su" and len(rest) > 1 and all(w.known for w in rest):
                        # Android's su (Magisk's) joins the words after -c into the command:
                        # `su -c setenforce 0` runs `setenforce 0`
                        codes.append((f"{name} -c", literal(" ".join(w.raw for w in rest)), ()))
                elif t.startswith(("--command=", "--session-command=")):
                    code = Word(t.split("=", 1)[1], a.raw, a.glob, a.tame, a.sources)
                    codes.append((f"{name} -c", code, ()))
            if name == "su" and not codes:  # AOSP's su: `su [WHO [COMMAND ARGS…]]`
                start = skip_options(args, _g("sgGw", "--shell --group --supp-group "
                                                      "--whitelist-environment"))
                operands = [a for a in args[start:] if a.text not in ("-", "--")]
                if len(operands) > 1:
                    argv = tuple(operands[1:])
                    continue
            if name == "runuser" and not codes:  # runuser -u USER -- COMMAND ARGS…
                start = skip_options(args, _g("ugG", "--user --group --supp-group"))
                if any(a.text.startswith(("-u", "--user")) for a in args[:start]) and (
                        args[start:]):
                    argv = tuple(args[start:])
                    continue
            return Peeled(argv, tuple(wrappers), privileged, tuple(codes), chdir=chdir)
        i = skip_options(args, WRAPPERS["sudo"]) if name == "sudo" else 0
        if name == "sudo" and any(a.text in ("-e", "--edit") for a in args[:i]):
            return Peeled((literal("sudoedit"), *args[i:]), (*wrappers, "sudo"), True,
                          chdir=chdir)
        if name == "command" and any(a.text.startswith("-") and not a.text.startswith("--")
                                     and set(a.text[1:]) & {"v", "V"}
                                     for a in args[:skip_options(args, WRAPPERS[name])]):
            break  # `command -v rm`: a lookup (a `-v` after the name is the command's own:
            # `command rm -rf ~ -v` was read as the lookup before the ninth sitting)
        if name in ("busybox", "toybox") and args and _name(args[0]) in ("--list", "--help"):
            break
        if name == "machinectl":  # machinectl shell USER@ CMD: a login, from the home
            shelled = machine_shell(args)
            if shelled is None:
                break
            argv, chdir, privileged = shelled, literal("~"), True
            wrappers.append(name)
            continue
        if name == "start-stop-daemon":  # the command is its --exec's, after `--`
            started = daemon_argv(args)
            if started is None:
                break
            argv, folder = started
            chdir = folder or chdir
            wrappers.append(name)
            continue
        if name in _SHELL_STRING:
            g = _g(SSH_VALUED) if name == "ssh" else WRAPPERS["watch"]
            i = skip_options(args, g) + (1 if name == "ssh" else 0)
            if name == "watch" and any(a.text in ("-x", "--exec") for a in args):
                wrappers.append(name)
                argv = tuple(args[i:])
                continue
            if args[i:]:
                codes.append((name, join_words(args[i:]), ()))
            return Peeled(argv, tuple(wrappers), privileged, tuple(codes), chdir=chdir)
        if name in RUNNERS:  # npx rimraf ~, npm exec -- CMD, uv run CMD, pipx run CMD
            run = runner_start(name, args)
            loads += run.loads
            chdir = run.chdir or chdir
            if run.code is not None:  # (npx -c 'CMD': a command line)
                codes.append((f"{name} -c", run.code, ()))
                return Peeled(argv, tuple(wrappers), privileged, tuple(codes), chdir=chdir)
            if run.start is None:
                break  # nothing to run, or a package fetched by its address (its row's)
            wrappers.append(run.name)
            argv = tuple(args[run.start:])
            if run.programs is not None and "/" not in argv[0].text:
                program = run.programs.text.rstrip("/") + "/bin/" + argv[0].text
                argv = (Word(program, argv[0].raw, False, run.programs.tame), *argv[1:])
            continue
        found_g = WRAPPERS.get(name)
        if found_g is None or (found_g.not_with and found_g.not_with & {
                a.text for a in args[:skip_options(args, found_g)]}):
            break
        g = found_g
        if name == "env":
            split = env_split(args, skip_options(args, g))
            if split is not None:  # env -S 'rm -rf /': the string is split into words
                text, after = split
                argv = (*(literal(t) for t in text.split()), *after)
                wrappers.append(name)
                continue
        # flock's -c: among its options or right after the lock file, as flock reads it; a
        # `-c` further on is the command's (`flock /tmp/l python3 -c CODE` had its Python
        # read as shell before the ninth sitting)
        k = next((k for k, a in enumerate(args[:skip_options(args, g) + 1])
                  if _code_option(a.text)), None) if name == "flock" else None
        if k is not None:
            if k + 1 < len(args):
                codes.append(("flock -c", args[k + 1], ()))
            return Peeled(argv, tuple(wrappers), privileged, tuple(codes), chdir=chdir)
        i = skip_options(args, g)
        inner = tuple(args[i:])
        if g.chdir:  # `env -C ~ rm -rf .ssh`, `sudo -D / …`: a relative name is from there
            chdir = chdir_value(args[:i], g.chdir, frozenset(
                o for o in g.chdir if (o[1:] in g.short if len(o) == 2 else o in g.long))
            ) or chdir
        chdir = login_folder(name, args[:i]) or chdir  # `sudo -i CMD`: from the home
        if name == "systemd-run" and any(a.text.startswith(("--on-", "--timer-property"))
                                         for a in args[:i]):
            scheduled = True  # a timer: the command runs later, outside this call
        for label, text in carried_code(name, [a.text for a in args[:i]]):
            codes.append((label, literal(text), ()))  # strace -o '|…'
        if name == "xargs":
            items = _echoed_items(upstream)
            item = items[0] if len(items) == 1 else _items(upstream)
            replace = [a.text for a in args[:i] if a.text.startswith(("-I", "-i",
                                                                       "--replace"))]
            if inner and replace:
                r = replace[0][2:] or "{}"
                if replace[0] in ("-I",):
                    k = [a.text for a in args].index("-I")
                    r = args[k + 1].text if k + 1 < len(args) else "{}"
                inner = tuple(replaced(w, r, item) for w in inner)
            elif inner:
                inner = (*inner, *(items or (item,)))
            else:
                inner = (literal("echo"), *(items or (item,)))
        if name in PRIVILEGED or (name == "nsenter" and _host_target(args)):
            privileged = True
        wrappers.append(name)
        if not inner:
            break
        argv = inner
    if wrappers and argv and argv[0].known and _SHELL_TEXT.search(argv[0].text):
        # `watchexec -e py 'curl … | sh'`, `entr -s 'rm -rf ~'`: a wrapper handed one word
        # that is a command line runs it through a shell (no program has such a name)
        codes.append((f"{wrappers[-1]} command line", argv[0], ()))
    name = _name(argv[0]) if argv else ""
    args = argv[1:]
    subs: tuple[tuple[str, tuple[Word, ...]], ...] = ()
    sub_chdir: Word | None = None
    found_alerts: tuple[tuple[str, str], ...] = ()
    if name in SHELLS:
        found = shell_code(args)
        if found is not None:
            code, positional = found
            codes.append((f"{name} -c", code, positional))
    elif name == "eval" and args:
        codes.append(("eval", join_words(args), ()))
    elif name == "trap" and args and args[0].text not in ("-l", "-p"):
        given = args[1:] if args[0].text == "--" else args  # trap -- 'code' SIGNALS
        if given:  # (on EXIT: read at the script's end, with its variables then)
            on_exit = bool({a.text.upper() for a in given[1:]} & {"EXIT", "0", "SIGEXIT"})
            codes.append(("trap on exit" if on_exit else "trap", given[0], ()))
    elif name == "alias":
        for a in args:
            if "=" in a.text:
                body = a.text.split("=", 1)[1]
                codes.append(("alias", Word(body, a.raw, False, a.tame, a.sources), ()))
    elif name == "find":
        subs = _find_exec(args)
        sub_chdir = execdir_folder(args)
    elif name in ("cmake", "perl", "salt-call") and (
            mode := tool_mode(name, args)) is not None:
        subs = (mode,)
    elif name == "script":
        for k, a in enumerate(args[:-1]):
            if _code_option(a.text):
                codes.append(("script -c", args[k + 1], ()))
    elif name in LANGUAGES or name in PERL_RENAMERS:
        inline, more = inline_codes(name, args)
        codes += inline
        found_alerts += more
    elif name == "parallel":
        words = _parallel_words(args)
        if ":::" in [w.text for w in words]:
            k = [w.text for w in words].index(":::")
            if k == 0:  # `parallel ::: 'CMD' …`: no command, each item is a command line
                codes += [("parallel command", w, ()) for w in words[1:] if w.text != ":::"]
            else:  # `parallel gzip ::: FILE…`: the items are the command's arguments
                subs = (("parallel", tuple(words[:k]) + tuple(words[k + 1:k + 2])),)
        elif words:  # `ls -d /etc/* | parallel rm -rf`: its items come in, as xargs's do
            items = _echoed_items(upstream) or (_items(upstream),)
            subs = (("parallel", _with_items(tuple(words), items)),)
    elif name in ("fd", "fdfind"):
        subs = _fd_exec(args)
        sub_chdir = fd_folder(args)
    if scheduled:
        found_alerts = (*found_alerts, ("schedules", "systemd-run --on-…"))
    return Peeled(argv, tuple(wrappers), privileged, tuple(codes), (*loads, *subs), found_alerts,
                  chdir=chdir, sub_chdir=sub_chdir)


# Programs peeled in one mode only (`start-stop-daemon --start`, `machinectl shell`): in
# another they are read as unknown programs are (`machinectl terminate web` is asked about).
PEELED_ONE_MODE = frozenset({"start-stop-daemon", "machinectl"})
# Every name peel() looks at (anything else is returned as it is).
PEELED = frozenset(WRAPPERS) | _SHELL_STRING | SHELLS | frozenset(LANGUAGES) | PRIVILEGED | {
    "su", "runuser", "sudo", "command", "busybox", "toybox", "eval", "trap", "alias", "find",
    "script", "parallel", "fd", "fdfind", "cmake", "salt-call"} | PERL_RENAMERS | frozenset(
    RUNNERS) | PEELED_ONE_MODE

