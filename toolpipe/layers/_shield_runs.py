"""What a call runs of the files the session wrote: a script executed or fed to a shell, a
Makefile under make, a package.json under npm, a git hook under the git command that fires
it, a file a build tool, an editor or an interpreter is told to load, a program put on the
PATH, and any written file of commands that a program not known to load nothing may load
(the session's data flow, ``_shield_flow``, judges each by what it holds)."""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterable

from toolpipe.layers._shield_fetched import downloaded_under
from toolpipe.layers._shield_flow import FileFact, SessionFacts
from toolpipe.layers._shield_guarded import ci_file
from toolpipe.layers._shield_handed import CLIENTS, client_files
from toolpipe.layers._shield_held import reads_index
from toolpipe.layers._shield_hooks import PACKAGE_HOOKS, git_hook, holds_package_hooks
from toolpipe.layers._shield_projects import (
    LOADS_NOTHING,
    PROJECT_FILES,
    PROJECT_FOLDER,
    PROJECT_RUNNERS,
    SOURCE_FILES,
    env_files,
    env_variables,
    installs,
    key,
    runs_project,
)
from toolpipe.layers._shield_unpacked import ARCHIVES, PULLERS
from toolpipe.shell import (
    CODE_PROGRAMS,
    DOWNLOADERS,
    OPTION_FILES,
    SHELLS,
    Command,
    Script,
    classify,
    effects,
    git_form,
    modelled,
    option_values,
)

_SHELL_READERS = SHELLS | {"busybox"}


_NOTEBOOK_RUNNERS = frozenset({"jupyter", "papermill", "quarto", "jupytext", "nbclient"})
_HOOKED = frozenset({"commit", "merge", "push", "checkout", "switch", "rebase", "am", "pull",
                     "cherry-pick", "revert", "clone", "worktree"})
_HOOKS_SETTINGS = frozenset({"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml",
                             "lefthook-local.yml", ".lefthook-local.yml", ".overcommit.yml",
                             ".pre-commit-config.yaml", ".simple-git-hooks.json",
                             ".simple-git-hooks.js", ".huskyrc", ".huskyrc.json"})
_ORCHESTRATORS = frozenset({"kubectl", "oc", "microk8s.kubectl", "k3s",
                            "podman", "minikube"})
_APPLIES = frozenset({"apply", "create", "replace", "play", "run"})
_PACKAGE_INSTALLERS = frozenset({"apt", "apt-get", "dpkg", "gdebi", "dnf", "yum", "zypper",
                                 "rpm", "pacman", "snap", "flatpak", "installer", "pkg",
                                 "apk", "msiexec", "code", "codium", "cursor"})
_PACKAGE_FILES = (".deb", ".rpm", ".pkg.tar.zst", ".pkg.tar.xz", ".snap", ".flatpak",
                  ".flatpakref", ".pkg", ".apk", ".msi", ".vsix")
_NPM = frozenset({"npm", "yarn", "pnpm", "bun"})
_NPM_RUNS = frozenset({"run", "run-script", "test", "start", "install", "i", "ci", "publish",
                       "pack", "prepare", "restart", "stop", "exec", "t", "rebuild"})


_NPM_FOLDER = ("--prefix", "-C", "--cwd", "--dir")
# what yarn, pnpm and bun do without running a script (any other word names one: `yarn build`)
_NPM_QUIET = frozenset({"add", "remove", "info", "list", "ls", "why", "config", "cache",
                        "outdated", "audit", "init", "login", "logout", "whoami", "view",
                        "search", "version", "help", "upgrade-interactive", "dlx", "create"})


def _npm_runs(name: str, texts: list[str]) -> bool:
    """Does this npm, pnpm, yarn or bun command run the project's package.json scripts?"""
    valued = {i + 1 for i, t in enumerate(texts) if t in _NPM_FOLDER}
    sub = next((t for i, t in enumerate(texts) if not t.startswith("-") and i not in valued),
               None)
    return sub is None or sub in _NPM_RUNS or (name != "npm" and sub not in _NPM_QUIET)


_SCRIPTS = {**dict.fromkeys(("awk", "gawk", "mawk", "nawk", "busybox-awk"), "awk"),
            "sed": "sed", "gsed": "sed", "ansible-playbook": "playbook"}
_SSH_CLIENTS = frozenset({"ssh", "scp", "sftp", "sshfs", "autossh", "mosh"})
_INCLUDE = re.compile(r"(?m)^[ \t]*(?:-?include|sinclude)[ \t]+([^$\n#]+?)[ \t]*$")


def runs(cmd: Command, workspace: str, facts: SessionFacts, on_path: Iterable[str] = ()
         ) -> list[tuple[str, FileFact, str]]:
    """(file, its fact, how it runs) for each session file this command runs (``on_path``:
    folders the line puts on PATH, where a name is looked up first)."""
    found: list[tuple[str, str]] = []
    for e in effects(cmd):
        if e.kind == "exec" and e.word is not None and e.word.known and e.detail != "project":
            # (a project's folder is no file: its files are judged below, by its runner;
            # an awk or sed script, `awk -f F`, is read as its program's script, a
            # playbook as its tasks)
            found.append((key(e.word.text, cmd.cwd, workspace),
                          _SCRIPTS.get(cmd.name, "file")))
    texts = [a.text for a in cmd.args]
    where = cmd.cwd or "."
    if cmd.name in ("make", "gmake"):
        named = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-f", "--file")]
        into = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-C", "--directory")]
        if into:  # make -C DIR: DIR's Makefile
            where = posixpath.join(where, into[-1])
        for name in named or ["Makefile", "makefile", "GNUmakefile"]:
            makefile = key(name, where, workspace)
            found.append((makefile, "make"))
            # and what it includes (`include rules.mk`, `-include`, `sinclude`), read as
            # make reads it, when the session knows what the makefile holds
            held = facts.files.get(makefile)
            found += [(key(f, where, workspace), "make") for m in _INCLUDE.finditer(
                held.content if held is not None and held.content else "")
                for f in m.group(1).split()]
    elif cmd.name in _NPM and _npm_runs(cmd.name, texts):
        # in the folder --prefix, -C or --cwd names (npm, pnpm, yarn), else here
        into = [v for o in _NPM_FOLDER for v in option_values(texts, o)]
        found.append((key("package.json", posixpath.join(where, into[-1]) if into else where,
                          workspace), "npm"))
        # and its settings, the project's and the user's: a script-shell runs every script
        found += [(key(".npmrc", where, workspace), "settings"), ("~/.npmrc", "settings")]
    elif cmd.name == "git" and set(texts) & _HOOKED:
        found += [(p, "file") for p in facts.special if git_hook(p)]
        # and the hooks frameworks' settings, which their installed hooks read at each
        # commit (lefthook's, overcommit's, pre-commit's, simple-git-hooks', husky 4's)
        found += [(p, "settings") for p in facts.pending
                  if posixpath.basename(p) in _HOOKS_SETTINGS]
        # and a package.json's hook managers' sections (simple-git-hooks', husky 4's…)
        found += [(p, PACKAGE_HOOKS) for p, f in facts.files.items()
                  if posixpath.basename(p) == "package.json" and holds_package_hooks(f.content)]
    if cmd.name == "git":  # every git command reads the repository's settings (fsmonitor…)
        found.append((key(".git/config", where, workspace), "settings"))
        # and a user's: any git settings file the session wrote, wherever (HOME,
        # XDG_CONFIG_HOME or GIT_CONFIG_GLOBAL may point git at it: judged as loaded)
        found += [(p, "settings") for p, f in facts.files.items() if posixpath.basename(p) in (
            ".gitconfig", "gitconfig") or p.endswith(("/git/config", "/.git/config")) or (
            f.commands and f.content and git_form(f.content))]  # (include.path may name any)
        if texts[:1] == ["config"]:  # (GIT_CONFIG_GLOBAL=FILE: read as `git config --file`)
            found += [(key(v, where, workspace), "settings") for v in option_values(
                texts, "--file") + option_values(texts, "-f")]
        if "push" in texts:  # a CI pipeline written this session runs where it is pushed
            found += [(p, "project") for p in sorted(facts.files) if ci_file(p)]
    if cmd.name in _PACKAGE_INSTALLERS:  # apt install ./tool.deb: its scripts run as root
        found += [(key(t, where, workspace), "file") for t in texts
                  if t.endswith(_PACKAGE_FILES) and not t.startswith("-")]
    if cmd.name in _SSH_CLIENTS:  # ssh -F FILE: its ProxyCommand, LocalCommand… run here
        found += [(key(v, where, workspace), "settings") for v in option_values(texts, "-F")]
    if cmd.name in OPTION_FILES:  # tmux -f F, curl -K F: read as the program reads it
        found += [(key(v, where, workspace), f"as {cmd.name}")
                  for o in OPTION_FILES[cmd.name][0] for v in option_values(texts, o)]
    if cmd.name in CLIENTS:  # psql -f reset.sql, mongosh wipe.js
        found += [(key(n, where, workspace), f"client {cmd.name}")
                  for n in client_files(cmd.name, texts)]
    if cmd.name in _ORCHESTRATORS and set(texts) & _APPLIES:
        # kubectl apply -f pod.yaml, podman kube play pod.yaml: the pods it asks for
        named = option_values(texts, "-f") + option_values(texts, "--filename")
        named += [t for t in texts if t.endswith((".yaml", ".yml", ".json"))]
        found += [(key(n, where, workspace), "manifest") for n in dict.fromkeys(named)]
    if cmd.name in ("pip", "pip3", "uv") and installs(cmd.name, texts):
        # pip install -r requirements.txt: the sources its lines give (--index-url …)
        found += [(key(v, where, workspace), "sources")
                  for o in ("-r", "--requirement", "-c", "--constraint")
                  for v in option_values(texts, o)]
    name, run_texts = cmd.name, texts
    if name in ("docker", "podman") and texts[:1] == ["compose"]:
        name, run_texts = f"{name}-compose", texts[1:]  # docker compose up
    env: dict[str, str] = {}
    loaded = env_files(name, run_texts) + [n for w in cmd.wrappers for n in env_files(w, [])]
    for f in (key(n, where, workspace) for n in loaded):  # node, `pipenv run` (its .env)
        found.append((f, "env"))  # --env-file=.env, dotenv run --: its variables, exported
        held = facts.files.get(f)
        env.update(env_variables(held.content) if held is not None and held.content else [])
    project = PROJECT_FILES.get(name)
    if project is not None and runs_project(name, run_texts):
        names, language = project
        if "COMPOSE_FILE" in env:  # (compose reads the files its .env names)
            names = tuple(env["COMPOSE_FILE"].replace(";", ":").split(":"))
        named = [run_texts[i + 1] for i, t in enumerate(run_texts[:-1])
                 if t in ("-f", "--file", "-c", "--config")]
        into = [v for o in PROJECT_FOLDER.get(name, ()) for v in option_values(run_texts, o)]
        found += [(key(n, posixpath.join(where, into[-1]) if into else where, workspace),
                   language) for n in named or names]
    sources = SOURCE_FILES.get(cmd.name)
    if sources is not None and installs(cmd.name, texts):
        # where it installs from, as a settings file an earlier call wrote says, or a
        # package index variable an earlier call exported
        found += [(p, "sources") for p in facts.files if posixpath.basename(p) in sources]
        found += [(p, "settings") for p in facts.files
                  if p.startswith("$") and reads_index(p[1:], cmd.name)]
    if cmd.name in ("pip", "pip3") and texts[:1] == ["install"]:
        # pip install ./pkg.tar.gz, a wheel or a folder: its build code runs
        found += [(key(t, where, workspace), "file") for t in texts[1:]
                  if not t.startswith("-") and ("/" in t or t.endswith(ARCHIVES) or (
                      key(t, where, workspace) in facts.files))]  # (a folder the session made)
    if cmd.name in _NPM and texts[:1] in (["install"], ["i"], ["add"]):
        # npm install ./pkg.tgz, a folder or file:…: its install scripts run (not
        # `@scope/name`, a registry's package)
        found += [(key(t.removeprefix("file:"), where, workspace), "file") for t in texts[1:]
                  if t.startswith(("./", "../", "/", "~", "file:")) or t.endswith(ARCHIVES)]
    if cmd.name in _NOTEBOOK_RUNNERS and (cmd.name == "papermill" or set(texts) & {
            "--execute", "execute", "run", "render"}):
        # a notebook executed: its cells run (`jupyter nbconvert --execute x.ipynb`)
        found += [(key(t, where, workspace), "file") for t in texts
                  if t.endswith((".ipynb", ".qmd", ".Rmd"))]
    if cmd.name in ("at", "batch") and "-f" in texts[:-1]:
        found.append((key(texts[texts.index("-f") + 1], where, workspace), "file"))
    for r in cmd.redirects:  # bash < cmds.txt, python3 < job.py, xargs rm < list.txt
        if r.reads and r.target is not None and r.target.known:
            fed = key(r.target.text, cmd.cwd, workspace)
            if cmd.name in _SHELL_READERS:
                found.append((fed, "file"))
            elif cmd.name.startswith("python"):
                found.append((fed, "python"))
            elif cmd.name in CLIENTS or cmd.name in CODE_PROGRAMS:
                # mysql app < clean.sql, gdb -batch < cmds, ed < script: its commands
                found.append((fed, f"client {cmd.name}"))
            elif cmd.name == "xargs":
                found.append((fed, "xargs " + " ".join(shlex.quote(t) for t in texts)))
    if cmd.name in ("pytest", "py.test", "tox") or (
            cmd.name.startswith("python") and "pytest" in texts):
        found += [(p, "python") for p in facts.special if p.endswith("conftest.py")]
    if cmd.name.startswith("python") and "-m" in texts[:-1]:
        # python -m NAME imports NAME.py (or the package's __main__) from the folder
        module = texts[texts.index("-m") + 1].replace(".", "/")
        found += [(key(f, where, workspace), "python") for f in (
            f"{module}.py", f"{module}/__main__.py")]
    if cmd.name.startswith("python"):
        found += [(p, "python") for p in facts.special
                  if posixpath.basename(p) in ("sitecustomize.py", "usercustomize.py")
                  or p.endswith(".pth")]
    if cmd.name and "/" not in cmd.name and not modelled(cmd.name):
        # a name the shell finds on PATH: a file an earlier call put in a bin folder
        found += [(p, "file") for p in sorted(facts.downloaded | facts.pending)
                  if posixpath.basename(p) == cmd.name and posixpath.dirname(p).endswith("bin")]
    if cmd.name and "/" not in cmd.name:  # a folder the line put on PATH, whatever the name
        found += [(p, "file") for p in (key(posixpath.join(d, cmd.name), where, workspace)
                                        for d in on_path) if p in facts.files]
    if cmd.name not in LOADS_NOTHING and cmd.name not in DOWNLOADERS | PULLERS and (
            cmd.name not in ("git", "patch", "tar", "gtar", "bsdtar", "unzip", "7z", "7za")):
        # a downloaded patch applied to the project: whatever runs the project runs it (not
        # the download feeding it, `curl URL | tar xz`, nor the puller: `oras pull REF`)
        found += [(p, "file") for p, f in facts.files.items() if f.origin == "patched"]
    if facts.pending and (cmd.name not in LOADS_NOTHING or PROJECT_RUNNERS & {*cmd.wrappers}):
        # any other program (or a project's runner: `hatch run test` runs pyproject's
        # `test`) may load a file an earlier call wrote: judged by the commands it holds
        already = {p for p, _ in found}
        found += [(p, "project") for p in sorted(facts.pending) if p not in already]
    out = []
    for path, how in found:
        fact = facts.files.get(path) or downloaded_under(path, facts.files, facts.downloaded)
        if fact is not None:
            out.append((path, fact, how))
    return out


def unknown_scratch_runs(script: Script, workspace: str, known: Iterable[str]
                         ) -> list[tuple[str, Command, str]]:
    """(file, command, how: an effect's detail, "project" for a project's place) for each
    file in a scratch folder (/tmp, /var/tmp, /dev/shm) that
    the line runs or loads and no call of the session wrote: what it holds is not known
    (understood, or ask; a file the session wrote is judged by what it holds instead, and
    a folder of settings it wrote into, `XDG_CONFIG_HOME=/tmp/c`, by the files it wrote; a
    file under a folder it wrote whole, a clone's, by that folder's fact)."""
    # (what a tool makes under a folder, `{}`, names nothing known: it excuses no file)
    written = {k for k in known if not k.endswith("/{}")}
    folders = {posixpath.dirname(p) for p in written}
    folders |= {f[:i] for f in folders for i in range(1, len(f)) if f[i] == "/"}
    roots = {"/tmp", "/var/tmp", "/dev/shm"}
    folders -= roots | {"/var", "/dev"}  # (a scratch root holds what anyone wrote)
    out = []
    for cmd in script.commands:
        for e in effects(cmd):
            if e.kind != "exec" or e.word is None or not e.word.known:
                continue
            path = key(e.word.text, cmd.cwd, workspace)
            # (by its folder, whatever its name says: `/tmp/x/.env` is a secret's name)
            if path.startswith(("/dev/shm/", "/tmp/", "/var/tmp/")) or path.rstrip(
                    "/") in roots or classify(e.word, cmd.cwd, workspace).kind == "scratch":
                if path not in written | folders and not any(  # (or under a folder written
                        path.startswith(w + "/") for w in written if w not in roots):  # whole)
                    out.append((e.word.text, cmd, e.detail))
    return out
