"""Build runners pointed at another folder or build file, by an option (``make -C DIR``,
``cargo --manifest-path F``) or an operand (``dotnet clean ~/App/App.csproj``, ``msbuild
F``): what they run there is that folder's (a Makefile, build.ninja, MSBuild's targets,
Package.swift) and was never read. Inside the workspace it is the project's own; outside
it, or not known, it is asked about."""

from __future__ import annotations

from toolpipe.shell import (
    PROJECT_ENVIRONMENTS,
    PROJECT_OPTIONS,
    RUNNER_FOLDERS,
    Command,
    Word,
    classify,
)

# the options that point a runner at a folder or a build file: the walk's (a project in a
# scratch folder, ``PROJECT_OPTIONS``; a project environment's, ``RUNNER_FOLDERS``) and
# these, which name a build file or its folder
_OWN_PLACES = {"make": ("-f", "--file", "--makefile"), "gmake": ("-f", "--file", "--makefile"),
               "ninja": ("-C", "-f"), "meson": ("-C",), "scons": ("-C", "-f"),
               "swift": ("--package-path",), "xcodebuild": ("-project", "-workspace"),
               "cmake": ("-B", "--build"), "bundle": ("--gemfile",)}
_BUILD_PLACE = {program: tuple(sorted({*PROJECT_OPTIONS.get(program, ()),
                                       *RUNNER_FOLDERS.get(program, ()),
                                       *_OWN_PLACES.get(program, ())}))
                for program in {*PROJECT_OPTIONS, *RUNNER_FOLDERS, *_OWN_PLACES}}
# flags that point a runner at the user's own file (`just --global-justfile`: ~/.justfile
# or ~/.config/just/justfile; `task --global`: ~/Taskfile.yml), read as their folder
_HOME_FLAGS = {"just": frozenset({"--global-justfile", "-g"}),
               "task": frozenset({"--global", "-g"})}
# runners given their project as an operand (after these subcommands: any for None)
_BUILD_OPERAND: dict[str, frozenset[str] | None] = {
    "dotnet": frozenset({"build", "clean", "run", "test", "publish", "pack", "restore",
                         "msbuild"}),
    "msbuild": None, "xbuild": None}
# dotnet's options that take the next word as their value
_VALUED = frozenset({"-c", "--configuration", "-f", "--framework", "-o", "--output", "-r",
                     "--runtime", "-v", "--verbosity", "-a", "--arch", "--os", "-s",
                     "--source", "-l", "--logger", "--settings", "--filter"})


_OUTSIDE = frozenset({"outside", "root", "system", "secret", "persistence"})


def _values(cmd: Command) -> list[Word]:
    """The folders and build files ``cmd`` is pointed at."""
    options = _BUILD_PLACE.get(cmd.name, ())
    args = cmd.args
    out: list[Word] = []
    for i, a in enumerate(args):
        t = a.text
        if t in options and i + 1 < len(args):
            out.append(args[i + 1])
        elif t.startswith("--") and "=" in t and t.split("=", 1)[0] in options:
            out.append(Word(t.split("=", 1)[1], a.raw, a.glob, a.tame, a.sources))
        elif t[:2] in options and len(t) > 2 and not t.startswith("--"):
            out.append(Word(t[2:], a.raw, a.glob, a.tame, a.sources))  # make -C~, -Cdir
    if _HOME_FLAGS.get(cmd.name, frozenset()) & {a.text for a in args}:
        out.append(Word("~", "~"))
    if cmd.name in _BUILD_OPERAND:
        subs = _BUILD_OPERAND[cmd.name]
        rest = args[1:] if subs is not None and args and args[0].text in subs else (
            args if subs is None else ())
        skip = False
        for a in rest:  # the first operand, not an option's value, before `--`
            if a.text == "--":
                break
            if skip:
                skip = False
                continue
            if a.text.startswith("-") or a.text[:3] in ("/p:", "/t:", "/m:", "/v:"):
                skip = a.text in _VALUED
                continue
            out.append(a)
            break
    return out


def foreign_build(cmd: Command, workspace: str) -> list[tuple[float, str]]:
    """A build runner pointed at a folder or build file outside the workspace, or a
    project environment run in a folder outside it (peeled off: `uv --directory D run
    pytest` is pytest, run in D, a wrapper uv)."""
    if PROJECT_ENVIRONMENTS & {*cmd.wrappers} and (cmd.cwd is None or classify(
            Word("."), cmd.cwd, workspace).kind in _OUTSIDE):
        return [(0.6, f"runs the build of a folder outside the workspace: "
                      f"{cmd.cwd or 'a folder not known'} ({cmd.located()})")]
    if not cmd.args or (cmd.name not in _BUILD_PLACE and cmd.name not in _BUILD_OPERAND):
        return []
    for value in _values(cmd):
        place = classify(value, cmd.cwd, workspace)
        if place.kind in _OUTSIDE or not value.known:
            return [(0.6, f"runs the build of a folder outside the workspace: {value.shown} "
                          f"({cmd.located()})")]
    return []
