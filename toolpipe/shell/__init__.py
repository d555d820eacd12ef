"""The shell wing: what a shell command will do, read from its text without running it.

Used by the safety shield (what is risky) and by memoize's write-path extractor (what may
have changed): one reading of the shell for both.

Layout (private modules behind this face):

- ``_grammar``: the walk over the tree-sitter-bash parse, with functions, ``cd`` and
  pipelines, into :class:`Command` facts at every depth of nested code;
- ``_expand``: the walk's words: assignments, ``$var``, ``${a[@]}``, ``$(…)``, redirections;
- ``_functions``: definitions, calls with their arguments, which reading stands;
- ``_parse``: tree-sitter-bash access, the limits of one analysis, the walk's record;
- ``_words``: words after expansion (quotes, ``$'…'``, braces, ``$IFS``, known variables);
- ``_wrappers``: sudo, env, timeout, xargs, package runners (``npx``, ``uv run``…:
  ``_runners``) peeled off, and the code strings commands run;
- ``_items``: what runs on each item of a list (``find -exec``, ``xargs``, ``parallel``,
  ``fd -x``), and what the items are; ``_listings``: the names a listing prints (``ls``,
  ``find``, ``git ls-files``…, through ``sort``, ``head``…), under its root;
- ``_oneliners``: ``python -c``, ``perl -e``, ``node -e``… read for what they spawn and touch;
  ``_inline``: which words of a command line are such code (and perl's rename expression);
- ``_named`` and ``_folders``: a command a wrapper names by an option (``env -S``,
  ``start-stop-daemon --exec``), and the folder a command runs in (``cd``, a wrapper's
  ``-C``, a login's home, ``find -execdir``'s entries' folders);
- ``_effects``: the effect model (deletes, writes, reads, modes, runs, network), with the
  handlers of ``_files`` (rm, cp, dd, chmod…), ``_copiers`` (cpio -p, pax, rename: a
  place by mode or position), ``_unpackers`` (ar, jar, dpkg-deb, python's zipfile and
  tarfile: an archive unpacked where a mode or position says), ``_cleaners`` (tmpwatch,
  tmpreaper: what is old under a folder deleted), ``_fetches`` (a store's, a
  container's or a release's files copied here), ``_editors`` (ed, ex,
  vim with a script, patch), ``_provisioners`` (ansible, puppet, chef, pyinfra run here),
  ``_clients`` (a database client's own commands that write a file, the settings
  editors crudini and augtool),
  ``_git`` and ``_system`` (disks, network, power…);
  ``_sizes``: output without end or past what a disk holds (``yes``, ``head -c 900G
  /dev/zero``, ``dd`` counts);
- ``_places``: each path classified against the workspace;
- ``_writes``: what a command may change, for caches (known files, nothing, or unknown),
  and a program of a new name put on the PATH;
- ``_carried``: code carried in options, variables, misread reserved words, aliases and
  the arguments of programs it does not know (fail closed);
- ``_told``: what such a program is told to do (words that destroy, places it is handed);
- ``_helpers``: programs named for another in variables, options and settings, command
  languages on a program's input, and the probe of a string as a command line;
- ``_languages``: a file's language by its name (``.rb``, a ``Brewfile``, a ``Snakefile``);
- ``_texts``: the commands a file's text holds, whatever its language (for the session's
  data flow: a program that may load a written file is judged by them); ``_configs``: a
  settings file a program is told to read by an option (``tmux -f``, ``curl -K``), read as
  the command lines it amounts to;
- ``_table`` and ``programs.toml``: the program table, as data (wrappers' grammars, code
  options, code variables, inert programs, what cannot be undone off the machine);
- ``_model``: the fact types.
"""

from __future__ import annotations

# The handlers of each family of commands register themselves with the effect model.
from toolpipe.shell import _cleaners as _cleaners
from toolpipe.shell import _clients as _clients
from toolpipe.shell import _compressors as _compressors
from toolpipe.shell import _converters as _converters
from toolpipe.shell import _copiers as _copiers
from toolpipe.shell import _editors as _editors
from toolpipe.shell import _fetches as _fetches
from toolpipe.shell import _files as _files
from toolpipe.shell import _git as _git
from toolpipe.shell import _provisioners as _provisioners
from toolpipe.shell import _system as _system
from toolpipe.shell import _unpackers as _unpackers
from toolpipe.shell._carried import (
    modelled as modelled,
)
from toolpipe.shell._configs import (
    OPTION_FILES as OPTION_FILES,
)
from toolpipe.shell._configs import (
    config_commands as config_commands,
)
from toolpipe.shell._effects import (
    CREDENTIAL_HINT as CREDENTIAL_HINT,
)
from toolpipe.shell._effects import (
    DECODERS as DECODERS,
)
from toolpipe.shell._effects import (
    DOWNLOADERS as DOWNLOADERS,
)
from toolpipe.shell._effects import (
    GREPS as GREPS,
)
from toolpipe.shell._effects import (
    NETWORK as NETWORK,
)
from toolpipe.shell._effects import (
    NETWORK_SOURCES as NETWORK_SOURCES,
)
from toolpipe.shell._effects import (
    Effect as Effect,
)
from toolpipe.shell._effects import (
    EffectKind as EffectKind,
)
from toolpipe.shell._effects import (
    effects as effects,
)
from toolpipe.shell._effects import (
    sends as sends,
)
from toolpipe.shell._effects import (
    stdin_code as stdin_code,
)
from toolpipe.shell._expand import ENVIRONMENT as ENVIRONMENT
from toolpipe.shell._fetches import (
    landed as landed,
)
from toolpipe.shell._files import restricting_mode as restricting_mode
from toolpipe.shell._files import setuid_mode as setuid_mode
from toolpipe.shell._folders import in_made_folder as in_made_folder
from toolpipe.shell._git import git_subcommand as git_subcommand
from toolpipe.shell._grammar import analyse as analyse
from toolpipe.shell._helpers import ELSEWHERE as ELSEWHERE
from toolpipe.shell._helpers import INDEX_VAR as INDEX_VAR
from toolpipe.shell._helpers import PACKAGE_INDEXES as PACKAGE_INDEXES
from toolpipe.shell._helpers import https_host as https_host
from toolpipe.shell._languages import language_named as language_named
from toolpipe.shell._languages import rule_commands as rule_commands
from toolpipe.shell._loads import PROJECT_ENVIRONMENTS as PROJECT_ENVIRONMENTS
from toolpipe.shell._loads import PROJECT_OPTIONS as PROJECT_OPTIONS
from toolpipe.shell._model import Command as Command
from toolpipe.shell._model import Problem as Problem
from toolpipe.shell._model import Redirect as Redirect
from toolpipe.shell._model import Script as Script
from toolpipe.shell._options import short_flags as short_flags
from toolpipe.shell._parse import MAX_COMMANDS as MAX_COMMANDS
from toolpipe.shell._places import Place as Place
from toolpipe.shell._places import classify as classify
from toolpipe.shell._places import holds_secrets as holds_secrets
from toolpipe.shell._places import literal_prefix as literal_prefix
from toolpipe.shell._places import start_file as start_file
from toolpipe.shell._printed import plain_output as plain_output
from toolpipe.shell._runners import RUNNER_FOLDERS as RUNNER_FOLDERS
from toolpipe.shell._sed import sed_applied as sed_applied
from toolpipe.shell._sizes import (
    ENDLESS_SOURCES as ENDLESS_SOURCES,
)
from toolpipe.shell._table import CODE_PROGRAMS as CODE_PROGRAMS
from toolpipe.shell._table import CREDENTIALS as CREDENTIALS
from toolpipe.shell._table import IRREVERSIBLE as IRREVERSIBLE
from toolpipe.shell._table import MAX_JOINED as MAX_JOINED
from toolpipe.shell._table import Credential as Credential
from toolpipe.shell._table import irreversible as irreversible
from toolpipe.shell._table import option_values as option_values
from toolpipe.shell._texts import commands_in as commands_in
from toolpipe.shell._texts import echoed as echoed
from toolpipe.shell._texts import edit_inserts as edit_inserts
from toolpipe.shell._texts import edited_commands as edited_commands
from toolpipe.shell._texts import git_form as git_form
from toolpipe.shell._texts import json_strings as json_strings
from toolpipe.shell._transfers import TRANSFER_CLIENTS as TRANSFER_CLIENTS
from toolpipe.shell._words import UNKNOWN as UNKNOWN
from toolpipe.shell._words import Word as Word
from toolpipe.shell._wrappers import SHELLS as SHELLS
from toolpipe.shell._writes import READ_ONLY as READ_ONLY
from toolpipe.shell._writes import new_program as new_program
from toolpipe.shell._writes import shell_writes as shell_writes

__all__ = [
    "CODE_PROGRAMS",
    "CREDENTIALS",
    "CREDENTIAL_HINT",
    "DECODERS",
    "DOWNLOADERS",
    "ELSEWHERE",
    "ENDLESS_SOURCES",
    "ENVIRONMENT",
    "GREPS",
    "INDEX_VAR",
    "IRREVERSIBLE",
    "MAX_COMMANDS",
    "MAX_JOINED",
    "NETWORK",
    "NETWORK_SOURCES",
    "PACKAGE_INDEXES",
    "READ_ONLY",
    "SHELLS",
    "TRANSFER_CLIENTS",
    "UNKNOWN",
    "Command",
    "Credential",
    "Effect",
    "EffectKind",
    "Place",
    "Problem",
    "Redirect",
    "Script",
    "Word",
    "analyse",
    "classify",
    "commands_in",
    "echoed",
    "edit_inserts",
    "edited_commands",
    "effects",
    "git_form",
    "git_subcommand",
    "holds_secrets",
    "https_host",
    "in_made_folder",
    "irreversible",
    "json_strings",
    "language_named",
    "literal_prefix",
    "modelled",
    "new_program",
    "option_values",
    "plain_output",
    "restricting_mode",
    "rule_commands",
    "sed_applied",
    "sends",
    "setuid_mode",
    "shell_writes",
    "start_file",
    "stdin_code",
    "write_targets",
]


def write_targets(command: str, cwd: str = ".") -> list[str] | None:
    """The files ``command`` names as changed (``shell_writes(strict=False)``)."""
    return shell_writes(command, cwd, strict=False)
