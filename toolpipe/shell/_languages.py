"""A file's language by its name: its extension, or the name a tool gives its file of code
(Homebrew's ``Brewfile`` and fastlane's ``Fastfile`` are Ruby, a ``Snakefile`` Python with
its rules' command lines). One table for the two readings of a file: the commands it holds
(``_texts.commands_in``) and what it amounts to when a program runs it
(``layers._shield_projects.language_of``)."""

from __future__ import annotations

import posixpath
import re

LANGUAGE_BY_EXTENSION = {
    **dict.fromkeys((".py", ".pyw", ".bzl", ".star"), "python"),
    **dict.fromkeys((".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"), "node"),
    **dict.fromkeys((".rb", ".rake", ".gemspec", ".podspec"), "ruby"),
    ".pl": "perl", ".pm": "perl", ".php": "php", ".lua": "lua", ".smk": "snakefile",
    # languages the wing does not read: a string among their code that is a command line
    # of a program the wing knows is held as a command (`(.exec rt "rm -rf /home")`)
    **dict.fromkeys((".clj", ".cljs", ".cljc", ".edn", ".boot", ".gradle", ".kts", ".groovy",
                     ".scala", ".sbt", ".kt", ".java", ".jl"), "unread"),
}
# (lower-cased) Ruby's DSLs (Homebrew's bundle, CocoaPods, fastlane, Bundler, Vagrant,
# Rake, Danger…), Snakemake's rules, Python-like build files (SCons, Tilt, Bazel), Jenkins'
LANGUAGE_BY_NAME = {
    **dict.fromkeys(("brewfile", "podfile", "fastfile", "appfile", "gemfile", "vagrantfile",
                     "rakefile", "guardfile", "dangerfile", "berksfile", "capfile",
                     "puppetfile", "thorfile", "matchfile", "pluginfile", "deliverfile",
                     "snapfile", "scanfile", "gymfile"), "ruby"),
    "snakefile": "snakefile", "sconstruct": "python", "sconscript": "python",
    "tiltfile": "python", "build.bazel": "python", "workspace": "python",
    "jenkinsfile": "unread"}
_SHELL_DIRECTIVE = re.compile(r"""(?m)^[ \t]+shell:[ \t]*(?:\n[ \t]+)?(["'])(.+?)\1""")


def language_named(path: str) -> str | None:
    """The language ``path``'s name says it is written in (None: its name does not say)."""
    base = posixpath.basename(path).lower()
    return LANGUAGE_BY_NAME.get(base) or LANGUAGE_BY_EXTENSION.get(posixpath.splitext(base)[1])


def rule_commands(content: str) -> list[str]:
    """A Snakefile's rules' ``shell:`` command lines."""
    return [m.group(2) for m in _SHELL_DIRECTIVE.finditer(content)]
