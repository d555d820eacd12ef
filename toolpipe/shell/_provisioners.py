"""Configuration-management tools run on this machine, their task given on the command
line: ansible's ad hoc modules, puppet apply -e, chef-apply -e and pyinfra @local, read
for the files their resources remove or write (the twenty-first sitting's held-out
`classes-fresh118.txt`: `puppet apply -e "file { '/home/dev/.ssh': ensure => absent }"`,
`ansible localhost -m copy -a "content=… dest=~/.bashrc"` allowed). Their commands
(ansible's shell module, puppet's exec, salt-call's cmd.run) are read as code elsewhere
(the code table)."""

from __future__ import annotations

import re
import shlex

from toolpipe.shell._effects import Effect, handles
from toolpipe.shell._model import Command
from toolpipe.shell._options import split as _split
from toolpipe.shell._words import Word

# ansible's modules that write the file their `dest` or `path` names, and the state of
# its `file` module that removes it
_ANSIBLE_WRITES = frozenset({"copy", "template", "lineinfile", "blockinfile", "replace",
                             "get_url", "unarchive", "ini_file", "xml", "patch"})


def _settings(words: list[str]) -> dict[str, str]:
    """A module's `key=value` words (pyinfra's are the command's own)."""
    return dict(w.partition("=")[::2] for w in words if "=" in w)


def _split_settings(text: str) -> dict[str, str]:
    """Ansible's one ``-a`` argument's settings, quoted as ansible reads them (shlex)."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    return _settings(words)


def _place(text: str, given: Word) -> Word:
    return Word(text, given.raw, "*" in text, given.tame, given.sources)


@handles("ansible")
def _ansible(cmd: Command) -> list[Effect]:
    """An ad hoc task: the ``file`` module told ``state=absent`` deletes its path
    (``ansible localhost -m file -a 'path=/home state=absent'``); a module that writes a
    file (``copy``, ``lineinfile``…) writes its ``dest`` or ``path``."""
    _, values, _ = _split(cmd.args, "miaucMbeKkt", (
        "--module-name", "--args", "--inventory", "--user", "--connection", "--extra-vars",
        "--become-user", "--limit", "--forks", "--timeout", "--become-method"))
    module = values.get("m") or values.get("--module-name")
    given = values.get("a") or values.get("--args")
    if module is None or given is None:
        return []
    name = module.text.rsplit(".", 1)[-1]
    settings = _split_settings(given.text)
    path = settings.get("path") or settings.get("dest") or settings.get("name")
    if not path:
        return []
    if name == "file" and settings.get("state") == "absent":
        return [Effect("delete", cmd, _place(path, given), True, True, "ansible file absent")]
    if name in _ANSIBLE_WRITES or (name == "file" and settings.get("state") in (
            "touch", "link", "hard")):
        return [Effect("write", cmd, _place(path, given), detail=f"ansible {name}")]
    return []


# a resource of puppet's or chef's language naming a file or a folder, and its body
_PUPPET_FILE = re.compile(r"""\bfile\s*\{\s*(['"])(?P<path>[^'"]+)\1\s*:(?P<body>[^}]*)\}""")
_CHEF_FILE = re.compile(r"""\b(?:file|directory|template|cookbook_file|remote_file|link)\s+"""
                        r"""(['"])(?P<path>[^'"]+)\1\s*(?:do\b(?P<body>.*?)\bend\b)?""", re.S)


@handles("puppet", "chef-apply")
def _manifest(cmd: Command) -> list[Effect]:
    """``puppet apply -e CODE``, ``chef-apply -e CODE``: each file or folder resource
    removes its path (``ensure => absent``, ``action :delete``), else writes it."""
    texts = [a.text for a in cmd.args]
    at = next((i for i, t in enumerate(texts) if t in ("-e", "--execute")), None)
    if at is None or at + 1 >= len(cmd.args) or (cmd.name == "puppet" and texts[:1] != [
            "apply"]):
        return []
    code = cmd.args[at + 1]
    out = []
    for found in (_PUPPET_FILE if cmd.name == "puppet" else _CHEF_FILE).finditer(code.text):
        body = found.group("body") or ""
        gone = re.search(r"ensure\s*=>\s*['\"]?absent|action\s+:delete", body) is not None
        place = _place(found.group("path"), code)
        out.append(Effect("delete", cmd, place, True, True, f"{cmd.name} resource") if gone
                   else Effect("write", cmd, place, detail=f"{cmd.name} resource"))
    return out


# pyinfra's operations that remove or write the file their `path` (or `dest`) names
_PYINFRA = frozenset({"files.file", "files.directory", "files.link", "files.line",
                      "files.block", "files.replace", "files.put", "files.template",
                      "files.download"})


@handles("pyinfra")
def _pyinfra(cmd: Command) -> list[Effect]:
    """``pyinfra @local files.directory path=P present=False``: P removed; another file
    operation writes P."""
    texts = [a.text for a in cmd.args]
    if "@local" not in texts:
        return []
    at = texts.index("@local") + 1
    if at >= len(texts) or texts[at] not in _PYINFRA:
        return []
    settings = _settings(texts[at + 1:])
    path = settings.get("path") or settings.get("dest") or settings.get("name")
    if not path:
        return []
    place = _place(path, cmd.args[at])
    if settings.get("present") == "False":
        return [Effect("delete", cmd, place, True, True, "pyinfra present=False")]
    return [Effect("write", cmd, place, detail=texts[at])]
