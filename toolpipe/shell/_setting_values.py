"""What a tool's settings give the programs it runs, beyond command lines (``_texts``
reads those): the environment a launch profile sets (``DOTNET_STARTUP_HOOKS``, R's
.Renviron), a toolchain's or runtime's folder (rust-toolchain.toml's ``path``, Gradle's
``org.gradle.java.home``), the distribution a build wrapper downloads and runs (Gradle's
and Maven's ``distributionUrl``), and the options an options file gives its program
(``.proverc``, ``.bazelrc``, ``.mvn/maven.config``), the folders a tool loads code from
(pytest's ``pythonpath`` and ``testpaths``), and a dependency a manifest takes
from a folder (Go's ``replace``, Cargo's ``path``, npm's ``file:``). Each is read as what
the same thing said in the shell amounts to, so that the wing judges it as it judges
that."""

from __future__ import annotations

import posixpath
import re
import shlex

from toolpipe.shell._helpers import code_place, https_host
from toolpipe.shell._places import SCRATCH, classify
from toolpipe.shell._words import shell_word

# a variable's name as an environment spells it (a launch profile's, an .Renviron line's)
_VARIABLE = re.compile(r"[A-Z][A-Z0-9_]{1,127}")
# a key naming a toolchain's or a runtime's home, whose programs the tool runs
_TOOLCHAIN_KEY = re.compile(r"(?i)(?:(?:^|[._-])(?:java[._-]?home|jdk[._-]?home|go[._-]?root|"
                            r"dotnet[._-]?root|sdk[._-]?paths?|toolchain[._-]?path)|"
                            r"interpreter[._-]?path)$")
# the distribution a build wrapper fetches and runs (gradlew, mvnw), and the hosts of the
# build tools' own (a wrapper pointed at any other is a download run, as `curl … | sh`)
_DISTRIBUTION_KEY = re.compile(r"(?i)(?:^|[._-])(?:distribution|wrapper)Url$")
_OWN_DISTRIBUTIONS = frozenset({"services.gradle.org", "downloads.gradle.org",
                                "downloads.gradle-dn.com", "repo.maven.apache.org",
                                "repo1.maven.org"})


def setting_loads(key: str, value: str, toolchain_table: bool = False) -> list[str]:
    """A setting (``key``, ``value``) as the shell's line it amounts to when it has a
    program load or fetch code: ``source PLACE`` for code in a place it should not come
    from (judged as sourcing it is: asked about in a folder anyone may write), ``curl URL |
    sh`` for a wrapper's distribution from a host not the tool's own. ``toolchain_table``:
    the key is in rust-toolchain.toml's ``[toolchain]``, where ``path`` is the toolchain's
    folder."""
    value = value.strip().strip("\"'")
    if _DISTRIBUTION_KEY.search(key):
        url = value.replace("\\:", ":")  # (a .properties file escapes its colons)
        if "://" in url and https_host(url) not in _OWN_DISTRIBUTIONS:
            return [f"curl -fsSL {shell_word(url)} | sh"]
        return []
    if _VARIABLE.fullmatch(key):
        place = code_place(key, value)
        return [f"source {shell_word(place)}"] if place else []
    if _TOOLCHAIN_KEY.search(key) or (toolchain_table and key == "path"):
        if _anyones(value):
            return [f"source {shell_word(value)}"]
    if _SEARCH_KEY.search(key):  # each folder of the list (`["/tmp/x", "src"]`, `/tmp/x src`)
        return [f"source {shell_word(p)}" for p in _ITEM.findall(value)[:64] if _anyones(p)]
    return []


def _anyones(path: str) -> bool:
    """A folder anyone may write (``/tmp/x``, ``/dev/shm``): code loaded from there is
    not the project's."""
    return path.startswith("/") and classify(path).kind in ("scratch", "device")


# a key naming folders a tool loads code from (pytest's `pythonpath` and `testpaths`, a
# runner's module or library path, a class path, a plugin folder): the code there is run
_SEARCH_KEY = re.compile(r"(?i)(?:^|[._-])(?:python_?paths?|testpaths|test_?(?:dirs?|roots?)|"
                         r"module_?(?:paths?|dirs?|directories)|(?:class|lib|node|ruby|perl5?)"
                         r"_?paths?|rubylib|perl5?lib|plugin_?(?:paths?|dirs?|directories)|"
                         r"roots|rootdir|sys_?path)$")
_ITEM = re.compile(r"[^\s\[\]\"',:;]+")


# files a program reads by their name, whose text is its options, and how each is read
# (see ``read_as``): prove's, RSpec's, sbt's, Maven's, ripgrep's, ack's words; Bazel's
# lines each start with the command they apply to (`build --run_under=…`)
NAMED_OPTION_FILES = {
    ".proverc": ("prove", "words"), ".rspec": ("rspec", "words"), ".sbtopts": ("sbt", "words"),
    ".jvmopts": ("java", "words"), "maven.config": ("mvn", "words"),
    "jvm.config": ("java", "words"), ".ripgreprc": ("rg", "words"), ".ackrc": ("ack", "words"),
    ".bazelrc": ("bazel", "bazel"), "bazel.rc": ("bazel", "bazel")}
_MAVEN_FILES = ("maven.config", "jvm.config")  # (only in a project's .mvn folder)


def option_file_commands(path: str, content: str) -> list[str]:
    """A file ``NAMED_OPTION_FILES`` names: the command lines it makes of its program."""
    name = posixpath.basename(path)
    if name not in NAMED_OPTION_FILES or (name in _MAVEN_FILES and "/.mvn/" not in "/" + path):
        return []
    program, reading = NAMED_OPTION_FILES[name]
    return read_as(program, reading, settings_lines(content))


def settings_lines(content: str, limit: int = 4096) -> list[str]:
    """A settings file's lines that say something: stripped, no blank and no comment."""
    lines = (line.strip() for line in content.splitlines()[:limit])
    return [line for line in lines if line and not line.startswith("#")]


_OPTION_LINE = re.compile(r"(-{0,2}[A-Za-z][\w-]*)\s*[=:]?\s*(.*)$")


def read_as(program: str, reading: str, lines: list[str]) -> list[str]:
    """A program's settings lines as its command lines: ``words``, their shell words as its
    arguments; ``options``, each line a long option and its value (curl's and wget's
    `output = "/root/.bashrc"` is `--output /root/.bashrc`); else each line a command of
    the program's own after the prefix ``reading`` (tmux's `run-shell 'CMD'`, screen's,
    Bazel's `build --run_under=…`)."""
    if reading == "words":
        try:
            words = [w for line in lines for w in shlex.split(line)]
        except ValueError:  # (quotes that do not close: as the lines stand)
            return [f"{program} {' '.join(lines)}"]
        return [" ".join([program, *(shell_word(w) for w in words)])] if words else []
    if reading != "options":
        return [f"{reading} {line}" for line in lines]
    words = [program]
    for line in lines:
        m = _OPTION_LINE.match(line)
        if m is None:
            continue
        name, value = m.group(1), m.group(2).strip()
        if not name.startswith("-") or name.startswith("--"):  # (`-o F`: a short one)
            name = "--" + name.lstrip("-")
        if program == "wget":  # (wgetrc's commands: output_document is --output-document)
            name = name.replace("_", "-")
        words.append(name)
        if value:
            if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            words.append(shlex.quote(value))
    return [" ".join(words)]


# A folder anyone may write, as a manifest names a dependency's place in it: after npm's,
# pnpm's and yarn's `file:`, `link:` and `portal:`, Nix's `path:` and a `file://` address,
# Go's `replace … =>` and go.work's `use`, a `path` key (Cargo, Poetry, uv, Bundler, Mix,
# pubspec, SwiftPM, CocoaPods: `path = "…"`, `path: "…"`, `:path => '…'`), deps.edn's
# `:local/root`, Composer's path repository's `url`, Gradle's `includeBuild` and CMake's
# `add_subdirectory`
_PLACE = "(?P<p>(?:" + "|".join(re.escape(f) for f in SCRATCH) + r")[\w.@+/-]*)"
_DEPENDENCY = re.compile(
    r"""(?:(?:file|link|portal|path):(?://)?|git\+file://|=>[ \t]*|^[ \t]*(?:use[ \t]+)?"""
    r"""|\bpath["']?[ \t]*(?:=>|=|:)[ \t]*["']?|:local/root[ \t]+"|"url"[ \t]*:[ \t]*"|"""
    r"""includeBuild[ \t(]*["']|add_subdirectory[ \t]*\([ \t]*)""" + _PLACE, re.M)
# the manifests: where a dependency's place is what such a path names
MANIFESTS = frozenset({
    "go.mod", "go.work", "Cargo.toml", "package.json", "pyproject.toml", "Pipfile",
    "Gemfile", "gems.rb", "composer.json", "mix.exs", "pubspec.yaml", "Package.swift",
    "Podfile", "deps.edn", "settings.gradle", "settings.gradle.kts", "CMakeLists.txt",
    "pnpm-workspace.yaml", "flake.nix", "deno.json", "deno.jsonc", "environment.yml",
    "environment.yaml", "setup.cfg", "Project.toml", "shard.yml", "cabal.project",
    "stack.yaml", "vcpkg.json"})


def dependency_places(path: str, content: str) -> list[str]:
    """``source PLACE`` for each folder anyone may write that a manifest takes a
    dependency from (its code is built or loaded with the project's)."""
    if posixpath.basename(path) not in MANIFESTS or not any(f in content for f in SCRATCH):
        return []
    return [f"source {shell_word(m.group('p').rstrip('/'))}"
            for m in _DEPENDENCY.finditer(content)]


_TOOLCHAIN_PATH = re.compile(r"(?m)^[ \t]*path[ \t]*=[ \t]*[\"']?([^\"'\n]+)")


def file_loads(path: str, content: str) -> list[str]:
    """What a file named ``path`` has its tool load or run beyond the command lines its
    settings hold: an options file's options, a manifest's dependencies in a folder anyone
    may write, rust-toolchain's ``[toolchain] path``."""
    out = option_file_commands(path, content) + dependency_places(path, content)
    if posixpath.basename(path).startswith("rust-toolchain"):
        out += [c for m in _TOOLCHAIN_PATH.finditer(content) for c in setting_loads(
            "path", m.group(1), toolchain_table=True)]
    return out
