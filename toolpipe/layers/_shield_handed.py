"""Files handed by name to a program that acts on what they hold: a SQL or database script
to its client (``psql -f reset.sql``, ``mysql app < clean.sql``, ``mongosh wipe.js``), a
manifest to an orchestrator (``kubectl apply -f pod.yaml``), a playbook to Ansible, a
requirements file to pip. Each file's text, as the command line the shell wing judges:
the client given the same text inline (``psql -c '…'``), the container a manifest asks for
as ``docker run`` would be given it, a playbook's tasks as Ansible's one-off commands, a
requirements file's package sources as pip's options. The session's data flow
(``_shield_flow``) knows what each file holds; ``_shield_runs`` finds which run."""

from __future__ import annotations

import re
import shlex

from toolpipe.shell import PACKAGE_INDEXES, TRANSFER_CLIENTS, https_host, option_values

# A database client: the options that name a script file, whether a file operand with one
# of these endings is a script (mongosh's `wipe.js`), and the option that takes the same
# text inline (AS_INPUT: on its input). Any client also reads a script on its standard
# input (`mysql app < x.sql`).
AS_INPUT = "<<<"  # the text given on the program's input, as a here-string
CLIENTS: dict[str, tuple[frozenset[str], tuple[str, ...], str]] = {
    "psql": (frozenset({"-f", "--file"}), (), "-c"),
    "mysql": (frozenset(), (), "-e"), "mariadb": (frozenset(), (), "-e"),
    "sqlite3": (frozenset({"-init"}), (), ":memory:"),
    "duckdb": (frozenset({"-init", "-f"}), (), "-c"),
    "sqlcmd": (frozenset({"-i"}), (), "-Q"),
    "clickhouse-client": (frozenset({"--queries-file"}), (), "-q"),
    "cockroach": (frozenset({"--file", "-f"}), (), "-e"),
    "cqlsh": (frozenset({"-f", "--file"}), (), "-e"),
    "snowsql": (frozenset({"-f", "--filename"}), (), "-q"),
    "mongosh": (frozenset({"-f", "--file"}), (".js", ".mongodb"), "--eval"),
    "mongo": (frozenset(), (".js",), "--eval"),
    "redis-cli": (frozenset(), (), ""),  # one command per line, as words
    # transfer clients: a batch file's lines read as the client's input is (`!CMD` runs a
    # local command): `sftp -b b.txt host`, `lftp -f s.lftp`, `ftp -n host < cmds`
    **{name: (frozenset({"sftp": {"-b"}, "lftp": {"-f"}}.get(name, ())), (), AS_INPUT)
       for name in sorted(TRANSFER_CLIENTS)},
}


def client_files(name: str, texts: list[str]) -> list[str]:
    """The script files a database client is told to run (by option or operand)."""
    row = CLIENTS.get(name)
    if row is None:
        return []
    options, endings, _ = row
    named = [v for option in sorted(options) for v in option_values(texts, option)]
    named += [t for t in texts if endings and t.endswith(endings) and not t.startswith("-")]
    # sqlite3's and duckdb's `.read FILE`, given as an argument
    named += [m.group(1) for t in texts for m in _READ.finditer(t)]
    # (`sftp -b -`, `psql -f /dev/stdin`: its input, read as such where it can be)
    return [n for n in named if n not in ("-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0")]


_READ = re.compile(r"(?:^|;|\n)\s*\.read\s+(\S+)")


def client_code(name: str, content: str) -> str:
    """A client script's text as the same client given it inline."""
    # (a program of the code table that is no client: its input, as a here-string)
    inline = CLIENTS[name][2] if name in CLIENTS else AS_INPUT
    if name == "redis-cli":
        return "\n".join(f"redis-cli {line}" for line in content.splitlines() if line.strip())
    # (a script that starts with a comment, `-- reset`, is no option of the client)
    text = "\n" + content if content.startswith("-") else content
    return f"{name} {inline} {shlex.quote(text)}"


# What a container's spec gives it of the host, as `docker run`'s options would: a compose
# file's services (`privileged: true`, `pid: host`, `- /:/host`) and a pod's manifest
# (`hostPID: true`, `hostPath: {path: /}`, capabilities added), read alike
_HOST_SWITCHES = (
    (re.compile(r"(?m)^\s*(?:-\s*)?privileged:\s*['\"]?true"), "--privileged"),
    (re.compile(r"(?m)^\s*(?:-\s*)?allowPrivilegeEscalation:\s*['\"]?true"), "--privileged"),
    (re.compile(r"(?m)^\s*(?:pid:\s*['\"]?host|(?:-\s*)?hostPID:\s*['\"]?true)"), "--pid=host"),
    (re.compile(r"(?m)^\s*(?:ipc:\s*['\"]?host|(?:-\s*)?hostIPC:\s*['\"]?true)"), "--ipc=host"),
    (re.compile(r"(?m)^\s*(?:network_mode:\s*['\"]?host|(?:-\s*)?hostNetwork:\s*['\"]?true)"),
     "--net=host"),
    (re.compile(r"(?m)^\s*userns_mode:\s*['\"]?host"), "--userns=host"),
    (re.compile(r"(?i)\b(?:SYS_ADMIN|SYS_PTRACE|SYS_MODULE|['\"\[\s-]ALL['\"\],\s])"),
     "--cap-add=SYS_ADMIN"),
)
# a compose file's bind mount (`- /:/host`, `~/.ssh:/root/.ssh`), a pod's hostPath
_BIND = re.compile(r"""(?<![\w.:/-])((?:/|~)[^\s:"',\]]*):[^\s"',\]]+""")
_HOST_PATH = re.compile(r"(?m)^\s*(?:-\s*)?hostPath:\s*(?:\n\s+[\w]+:.*)*?\n\s+path:\s*['\"]?"
                        r"([^\s'\"#]+)|hostPath:\s*\{[^}]*\bpath:\s*['\"]?([^\s'\",}]+)")


def container_as_run(content: str) -> str:
    """A compose file's services or a manifest's pods as one ``docker run`` line: the host
    folders they mount, and the host's namespaces and rights they take."""
    flags = [f"-v {shlex.quote(m.group(0))}" for m in _BIND.finditer(content)]
    flags += [f"-v {shlex.quote((m.group(1) or m.group(2)) + ':/host')}"
              for m in _HOST_PATH.finditer(content)]
    flags += [flag for pattern, flag in _HOST_SWITCHES if pattern.search(content)]
    return f"docker run {' '.join(dict.fromkeys(flags))} service" if flags else ""


# Ansible: a task's module and its arguments, read line by line (a task starts at `- `)
_TASK_COMMAND = re.compile(r"(?m)^\s*(?:-\s*)?(?:ansible\.builtin\.)?(?:shell|command|raw|cmd|"
                           r"script):\s*(?![|>]\s*$)(.+?)\s*$")
_TASK_BLOCK = re.compile(r"(?m)^\s*(?:-\s*)?(?:ansible\.builtin\.)?(?:shell|command|raw|cmd):"
                         r"\s*[|>][-+]?\s*\n((?:[ \t]+.*\n?)+)")
_ABSENT = re.compile(r"\bstate:\s*['\"]?absent\b|\bstate=absent\b")
_TASK_PATH = re.compile(r"\b(?:path|dest|name)[:=]\s*['\"]?((?:\{\{[^}]*\}\}|[^\s'\"])+)")
_HOME_LOOKUP = re.compile(r"\{\{\s*(?:lookup\(\s*['\"]env['\"]\s*,\s*['\"]HOME['\"]\s*\)|"
                          r"ansible_(?:env\.HOME|user_dir)|ansible_facts\.env\.HOME)\s*\}\}")
_TEMPLATE = re.compile(r"\{\{[^}]*\}\}")


def playbook_commands(content: str) -> str:
    """A playbook's tasks as the command lines they amount to: `shell:` and `command:`
    lines as they are, and a `file:` task with `state: absent` as `rm -rf PATH` (the home
    folder's lookups spelled `~`, any other template a value not known)."""
    out = [m.group(1).strip("'\"") for m in _TASK_COMMAND.finditer(content)]
    out += [m.group(1) for m in _TASK_BLOCK.finditer(content)]
    for task in re.split(r"(?m)^\s*-\s+(?=\w)", content):
        if _ABSENT.search(task):
            for m in _TASK_PATH.finditer(task):
                path = _TEMPLATE.sub("$UNKNOWN", _HOME_LOOKUP.sub("~", m.group(1)))
                if path.startswith(("/", "~", ".", "$")) or "/" in path:
                    out.append(f"rm -rf {path}")
    return "\n".join(out)


# requirements.txt and constraints files: the package sources given as options in them
_REQUIREMENT_SOURCE = re.compile(
    r"(?m)^\s*(?:--index-url|--extra-index-url|-i|--find-links|-f)(?:\s+|=)(\S+)")
# a requirement that is a folder or a file: `-e PATH`, `PATH`, `NAME @ file:///PATH`
_REQUIREMENT_PATH = re.compile(r"(?m)^[ \t]*(?:(?:-e|--editable)(?:[ \t]+|=))?"
                               r"(?:[\w.\[\],-]+[ \t]*@[ \t]*)?(?:file://)?"
                               r"((?:/|~|\.{1,2}/)[^\s;#]*)")
# and any settings file's: a key naming an index, a registry, a mirror… and its address
_SOURCE = re.compile(r"(?im)^[ \t]*[\"']?[\w@/:.\-]*(?:index|registry|source|mirror|url|"
                     r"repositor|server)[\w.\-]*[\"']?[ \t]*[:=][ \t]*\[?[ \t]*[\"']?"
                     r"((?:https?|git\+https?|sparse\+https?)://[^\s\"',\]]+)")
def _official(url: str) -> bool:
    return https_host(url) in PACKAGE_INDEXES


def sources_as_options(content: str) -> str:
    """Each package source a settings file sets that is not the ecosystem's own, as the
    option that gives it on a command line; and each package a requirements file takes
    from a folder or a file (`-e /tmp/lib`, `lib @ file:///tmp/lib`), as pip given it."""
    urls = _SOURCE.findall(content) + _REQUIREMENT_SOURCE.findall(content)
    # (Cargo's `sparse+http://…` and a `git+https://…` are judged by the address itself)
    return "\n".join([f"pip install --index-url {shlex.quote(_TRANSPORT.sub('', url))} package"
                      for url in urls if not _official(url)] + [
        f"pip install {shlex.quote(p)}" for p in _REQUIREMENT_PATH.findall(content)])


_TRANSPORT = re.compile(r"^(?:sparse|git|registry)\+(?=\w+://)")
