"""Where a program is made to load code or settings from, by a variable or an option: the
dynamic loader's (``LD_PRELOAD``, ``LD_AUDIT``), a shell's start-up file (``BASH_ENV``),
module search paths (a folder first in ``PATH``, ``PYTHONPATH``, perl's ``-I``, java's
``-cp``), a runtime's own home (``PYTHONHOME``, ``GIT_EXEC_PATH``), a converter's modules
(``GCONV_PATH``: glibc loads them into any program that converts text), and settings
(``XDG_CONFIG_HOME``, ``GIT_CONFIG_GLOBAL``, ``MAKEFILES``: a setting can name a program
to run, git's ``core.pager``). Each is judged by where it points: a folder anyone may
write, or a value not known, is how a hijack looks (the fourteenth sitting's held-out file
found `GCONV_PATH=/tmp/gconv iconv …`, `PERLLIB=/tmp`, `XDG_CONFIG_HOME=/tmp/cfg git log`
and `MAKEFILES=/tmp/evil.mk make` allowed)."""

from __future__ import annotations

import posixpath
import re

from toolpipe.shell._model import Command
from toolpipe.shell._places import SCRATCH, classify
from toolpipe.shell._words import UNKNOWN, Word

# the loader's libraries (loaded into every program, from anywhere but the system's folders)
_LIBRARIES = frozenset({"LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES",
                        "DOTNET_STARTUP_HOOKS"})
# files run or loaded first (asked about outside the workspace and the system's folders)
_FILES = frozenset({"BASH_ENV", "ENV"}) | _LIBRARIES
# folders searched for code, `:`-separated (a folder first: the current one, or a scratch
# one); a runtime's home and git's programs' folder are searched as one such folder
SEARCH_PATHS = frozenset({
    "PATH", "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "PYTHONPATH", "NODE_PATH", "PERL5LIB",
    "PERLLIB", "RUBYLIB", "CLASSPATH", "GCONV_PATH", "PYTHONHOME", "PYTHONUSERBASE",
    "GIT_EXEC_PATH", "GEM_PATH", "GEM_HOME", "JULIA_LOAD_PATH", "R_LIBS", "R_LIBS_USER",
    "LUA_PATH", "LUA_CPATH", "PHP_INI_SCAN_DIR", "GIT_TEMPLATE_DIR"})
# settings read from a folder or files (MAKEFILES: blank-separated files make reads first):
# each is read as a file the command loads (``settings_files``), so that the session's
# flow judges one it wrote by what it holds and asks about one in a scratch folder that no
# call wrote (a user's own, in the home, is neither)
# (and those whose settings can name a program to run: AWS's credential_process, a
# kubeconfig's exec plugin, a Gemfile, Gradle's init scripts, cargo's runner, a CMake
# toolchain, a new home's dotfiles, a repository's config: the fifteenth sitting's file;
# a project's own file named elsewhere, whose scripts run: COMPOSER's composer.json,
# PIPENV_PIPFILE's Pipfile, the twenty-first sitting's)
SETTINGS = frozenset({"XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
                      "GIT_CONFIG", "MAKEFILES", "PHPRC", "NPM_CONFIG_USERCONFIG",
                      "NPM_CONFIG_GLOBALCONFIG", "AWS_CONFIG_FILE",
                      "AWS_SHARED_CREDENTIALS_FILE", "KUBECONFIG", "BUNDLE_GEMFILE",
                      "GRADLE_USER_HOME", "CARGO_HOME", "CMAKE_TOOLCHAIN_FILE", "HOME",
                      "PIP_CONFIG_FILE", "DOCKER_CONFIG", "GIT_DIR", "GNUPGHOME", "COMPOSER",
                      "PIPENV_PIPFILE"})
# the same, named by a program's option (`kubectl --kubeconfig F`, `git
# --git-dir D`, `git -C D`: a repository's own config runs core.pager, core.fsmonitor)
# (not ssh's -F: a file of its own syntax, read as ssh reads it where a call wrote it;
# read as shell, its `IdentityFile ~/.ssh/key` was a secret read)
SETTINGS_OPTIONS = {"kubectl": ("--kubeconfig",), "oc": ("--kubeconfig",),
                    "helm": ("--kubeconfig",), "docker": ("--config",), "cargo": ("--config",),
                    "git": ("--git-dir", "-C"), "cmake": ("-DCMAKE_TOOLCHAIN_FILE",)}
INJECTING = _FILES | SEARCH_PATHS
# the class of the rest, by their names: where a program finds code or settings (a search
# path, a home, a library folder, a profile, an rc or ini file, a start-up file, a depot,
# a profiler, host aliases), not where it puts what it makes (a temporary, a cache, an
# output, logs, data, a build); judged where they point into a folder anyone may write
LOCATION_VAR = re.compile(
    r"(?i)(?:PATH|LIBS?|HOME|ROOT|DOTDIR|PROFILE(?:_USER)?|ENVIRON(?:_USER)?|(?<!S)RC|"
    r"INIT|STARTUP|INI|CONF(?:IG)?(?:_FILE|_DIR)?|ALIASES|DEPOT|MODULES?)$")
_NOT_LOCATION = re.compile(r"(?i)TMP|TEMP|CACHE|OUT|LOG|DATA|RUNTIME|SOCK|PID|LOCK|"
                           r"DOWNLOAD|STATE|BUILD|TARGET|DIST|ARTIFACT|REPORT|COVERAGE|"
                           r"BACKUP|DUMP|WORK")


def scratch_location(name: str, value: Word, cwd: str | None) -> str | None:
    """A variable of the location class (``LOCATION_VAR``, beyond the ones this module
    names) pointing into a folder anyone may write: the entry (else None)."""
    if not LOCATION_VAR.search(name) or _NOT_LOCATION.search(name) or name in INJECTING or (
            name in SETTINGS) or not value.known:
        return None
    for entry in re.split(r"[:;,\s]+", value.text):
        if entry.startswith("/") and scratch(entry, classify(entry, cwd).kind):
            return entry
    return None
# an interpreter's module search path given by an option (`perl -I/tmp -MEvil`, `java -cp
# /tmp Main`): judged as $PERL5LIB's and $CLASSPATH's folders are
SEARCH_OPTIONS = {"perl": ("-I",), "ruby": ("-I",), "java": ("-cp", "-classpath",
                                                             "--class-path")}


def scratch(entry: str, place: str) -> bool:
    """A folder anyone may write: a scratch one, or a scratch root itself (`/tmp`, which is
    outside the workspace as a place to delete)."""
    return place in ("scratch", "device") or entry.rstrip("/") + "/" in SCRATCH


def _entries(name: str, text: str) -> list[str]:
    if name in ("LUA_PATH", "LUA_CPATH"):  # `/tmp/?.lua;;`: each template's folder
        return [posixpath.dirname(e) if "?" in e else e for e in text.split(";") if e]
    if name == "MAKEFILES":
        return text.split()
    return text.split(":") if name in SEARCH_PATHS or name == "KUBECONFIG" else [text]


# (a settings folder's own file, where a variable's folder is also where a program puts
# what it makes: what it installs there is not its settings)
_SETTINGS_FILE = {"CARGO_HOME": "config.toml", "GRADLE_USER_HOME": "init.d"}


def settings_files(name: str, value: Word) -> list[Word]:
    """The files or folders a settings variable has programs read (none for another)."""
    if name not in SETTINGS or not value.text.strip() or value.text == "/dev/null":
        return []
    inner = _SETTINGS_FILE.get(name)
    return [Word(posixpath.join(e, inner) if inner else e, value.raw, value.glob, value.tame,
                 value.sources) for e in _entries(name, value.text)]


def loaded_from(name: str, value: Word, cwd: str | None) -> str | None:
    """When ``name=value`` makes every program after it load code from a place it should
    not: what is shown for the place; else None."""
    if name not in INJECTING or not value.text.strip():
        return None
    search = name in SEARCH_PATHS
    for entry in _entries(name, value.text):
        if search and UNKNOWN in entry:
            continue  # $PATH itself, or a folder the script did not set
        place = classify(Word(entry, value.raw, value.glob, value.tame, value.sources),
                         cwd).kind
        # a search path's folder first: the current one, or a scratch one; a library or
        # start-up file: anywhere but the workspace and the system's folders (a library
        # preloaded from the workspace too: a binary the wing cannot read, loaded into
        # every program after it)
        if (search and (entry in ("", ".") or scratch(entry, place))) or (
                name in _FILES and (UNKNOWN in entry or place in (
                    "scratch", "outside", "device") or (
                    name in _LIBRARIES and place != "system"))):
            return value.shown if UNKNOWN in entry else entry or "."
    return None


def search_options(cmd: Command) -> list[Word]:
    """The folders of an interpreter's module search path given by an option (``-I DIR``,
    ``-IDIR``, ``-cp A:B``; perl's ``-Mlib=DIR,…``)."""
    options = SEARCH_OPTIONS.get(cmd.name, ())
    out: list[Word] = []
    for i, a in enumerate(cmd.args):
        for option in options:
            value = cmd.args[i + 1] if a.text == option and i + 1 < len(cmd.args) else (
                Word(a.text[2:], a.raw, a.glob, a.tame, a.sources)
                if len(option) == 2 and a.text.startswith(option) and len(a.text) > 2 else None)
            if value is not None:
                out += [Word(e, value.raw, value.glob, value.tame, value.sources)
                        for e in value.text.split(":") if e]
        if cmd.name == "perl" and a.text.startswith(("-Mlib=", "-mlib=")):  # use lib DIR,…
            out += [Word(e, a.raw, a.glob, a.tame, a.sources)
                    for e in a.text[6:].split(",") if e]
    return out


def settings_options(cmd: Command) -> list[Word]:
    """The settings files or folders a command is told to read by an option (see
    ``SETTINGS_OPTIONS``; git's `-c include.path=F` too); cargo's `--config KEY=VALUE` is a
    setting, not a file."""
    options = SETTINGS_OPTIONS.get(cmd.name, ())
    args = cmd.args
    out: list[Word] = []
    for i, a in enumerate(args):
        name, glued, value = a.text.partition("=")
        if cmd.name == "git" and a.text == "-c" and i + 1 < len(args) and args[
                i + 1].text.startswith("include.path="):
            value, a = args[i + 1].text.partition("=")[2], args[i + 1]
        elif glued and name in options:
            pass
        elif a.text in options and i + 1 < len(args):
            a = args[i + 1]
            value = a.text
        else:
            continue
        if value and not (cmd.name == "cargo" and "=" in value):
            out.append(Word(value, a.raw, a.glob, a.tame, a.sources))
    return out
