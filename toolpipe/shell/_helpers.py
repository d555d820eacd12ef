"""Readings of text that another program runs for this one: a program's name given in a
variable, an option or a setting (``GIT_PROXY_COMMAND``, ``--pager=…``, ``make CC=…``,
``-Dexec.executable=sh``, git's ``ext::`` addresses), a command language on a program's
input (``tclsh <<< …``), and the probe that reads a string as a command line."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from toolpipe.shell._code_rows import MAX_INPUT_LINES, carried_code
from toolpipe.shell._functions import _Functions
from toolpipe.shell._loaders import loaded_from, scratch_location
from toolpipe.shell._loads import PERL_MODULE
from toolpipe.shell._model import Command
from toolpipe.shell._oneliners import TCL, shell_strings
from toolpipe.shell._places import classify
from toolpipe.shell._printed import fed_input
from toolpipe.shell._wipes import drops, wipes
from toolpipe.shell._words import UNKNOWN, Word

_QUOTED = re.compile(r'"([^"]+)"|\'([^\']+)\'')
_SHELLISH = re.compile(r"[\s;|&]")
MAX_CANDIDATES = 6
# Known programs whose input is a command language the wing does not read: judged line by
# line as an unknown program's arguments are
_COMMAND_INPUT = frozenset({"tclsh", "wish", "expect", "jimsh", "ed", "red", "ex", "m4"})
# Names of a variable, an option (`--pager=…`) or a setting (`make CC=…`, `-DX_LAUNCHER=…`,
# `cargo --config target.….runner=…`) whose value is a program another runs for it: the
# class, not a list (`FZF_DEFAULT_COMMAND`, `RUSTC_WRAPPER`, `--compress-program`,
# `CMAKE_C_COMPILER`, a target's `…_LINKER`), and the build tools' own names (`CC`, `RUSTC`)
_PROGRAM_KEY = re.compile(
    r"(?i)(?:^|[._-])(?:command|cmd|run|program|prog|pager|editor|visual|shell|wrapper|launcher|"
    r"runner|executable|askpass|helper|rsh|exec|sshcommand|proxycommand|localcommand|"
    r"rsync-path|upload-pack|receive-pack|compiler|linker)$|"
    r"^(?:CC|CXX|CPP|LD|AR|AS|FC|MAKE|RUSTC|RUSTDOC|JAVACMD|PYTHON|NODE|PKG_CONFIG|STRIP|"
    r"RANLIB|NM|OBJCOPY|CMAKE|NINJA)$")
_SETTING = re.compile(r"(?:--?|-[DP])?(?P<name>[A-Za-z_][\w.-]*)=(?P<value>.+)", re.DOTALL)
# Variables of a runtime's options (JAVA_TOOL_OPTIONS, NODE_OPTIONS, RUBYOPT, GOFLAGS…) and
# the options in them that load code: a file from a scratch or outside place is a hijack
_OPTIONS_VAR = re.compile(r"(?i)(?:_OPTIONS|_OPTS|OPTS?|FLAGS)$")
_LOADS = re.compile(
    r"(?:-javaagent:|-agentpath:|-Xbootclasspath/[ap]:|--require[= ]\s*|(?<!\S)-r\s*"
    r"|--import[= ]\s*|--(?:experimental-)?loader[= ]\s*|(?<!\S)-[MI]\s*|-toolexec="
    r"|(?<!\S)-exec=|-fplugin=|-load[= ]\s*|-C\s*linker=)(?P<p>[^\s,;=:]+)")
# (and perl's -M/-m with more than a module and its imports: `-Mstrict;system(…)`)
_INLINE_CODE = re.compile(r"(?<!\S)(?:-e|-E|--eval)(?:[\s=]|$)|(?<!\S)-d:\S"
                          rf"|(?<!\S)-[mM](?!{PERL_MODULE}(?:\s|$))")
# the debuggers PYTHONBREAKPOINT names (anything else is a callable breakpoint() calls)
_DEBUGGERS = frozenset({"pdb", "ipdb", "pudb", "web_pdb", "remote_pdb", "debugpy", "IPython",
                        "wdb", "pdbpp", "bpdb"})
_HOOK_VAR = re.compile(r"(?i)(?:STARTUP_HOOKS?|_HOOKS?|_PLUGINS?)$")
# a package index or proxy a variable names (PIP_INDEX_URL, NPM_CONFIG_REGISTRY, GOPROXY…),
# and the switches that turn TLS or a checksum database off
INDEX_VAR = re.compile(r"(?i)(?:^|_)(?:INDEX_URL|INDEX|REGISTRY|MIRROR)$|^GOPROXY$")
_CHECKS_OFF = re.compile(r"(?i)^(?:NODE_TLS_REJECT_UNAUTHORIZED=0|GIT_SSL_NO_VERIFY=(?:1|true)"
                         r"|PYTHONHTTPSVERIFY=0|GOINSECURE=.+|GONOSUMDB=.+|GONOSUMCHECK=.+|GOSUMDB=off"
                         r"|GOFLAGS=.*-insecure.*|PIP_TRUSTED_HOST=.+|CURL_CA_BUNDLE="
                         r"|REQUESTS_CA_BUNDLE=|SSL_CERT_FILE=/dev/null)$")
# the secret scanners a repository's commit hooks run (pre-commit's SKIP=… names them)
_SCANNERS = re.compile(r"(?i)(?:^|,)(?:gitleaks|detect-secrets|trufflehog|ggshield|talisman|"
                       r"git-secrets|secretlint|detect-private-key|detect-aws-credentials|"
                       r"ripsecrets)(?:,|$)")
# variables that choose whom every later program trusts, or whom its traffic goes through
_TRUST_VAR = frozenset({"REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR",
                        "NODE_EXTRA_CA_CERTS", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO", "PIP_CERT",
                        "AWS_CA_BUNDLE", "NPM_CONFIG_CAFILE"})
_PROXY_VAR = frozenset({"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "FTP_PROXY", "http_proxy",
                        "https_proxy", "all_proxy", "ftp_proxy"})
_SYSTEM_CERTS = ("/etc/ssl/", "/etc/pki/", "/usr/", "/opt/homebrew/", "/etc/ca-certificates")
_LOCAL = re.compile(r"^(?:[a-z0-9+]+://)?(?:[^@/]*@)?(?:localhost|127\.[\d.]+|\[::1\]|::1)(?:[:/]|$)")
# a tool's own setting that stands for one of those variables: `git config http.proxy X`,
# `npm config set https-proxy X`, `pip config set global.trusted-host X`, `go env -w K=V`
TOOL_SETTINGS = {
    ("git", "http.proxy"): "HTTPS_PROXY", ("git", "https.proxy"): "HTTPS_PROXY",
    ("git", "http.sslcainfo"): "GIT_SSL_CAINFO", ("git", "http.sslverify"): "GIT_SSL_VERIFY",
    ("git", "commit.gpgsign"): "GIT_COMMIT_GPGSIGN", ("git", "tag.gpgsign"): "GIT_TAG_GPGSIGN",
    ("npm", "proxy"): "HTTPS_PROXY", ("npm", "https-proxy"): "HTTPS_PROXY",
    ("npm", "registry"): "NPM_CONFIG_REGISTRY", ("npm", "cafile"): "NPM_CONFIG_CAFILE",
    ("npm", "strict-ssl"): "NPM_STRICT_SSL", ("pnpm", "registry"): "NPM_CONFIG_REGISTRY",
    ("yarn", "npmregistryserver"): "NPM_CONFIG_REGISTRY", ("yarn", "httpsproxy"): "HTTPS_PROXY",
    ("pnpm", "strict-ssl"): "NPM_STRICT_SSL", ("yarn", "strict-ssl"): "NPM_STRICT_SSL",
    ("yarn", "enablestrictssl"): "NPM_STRICT_SSL", ("conda", "ssl_verify"): "CONDA_SSL_VERIFY",
    ("composer", "secure-http"): "COMPOSER_SECURE_HTTP",
    ("composer", "disable-tls"): "COMPOSER_DISABLE_TLS",
    ("pip", "global.index-url"): "PIP_INDEX_URL", ("pip", "global.trusted-host"):
        "PIP_TRUSTED_HOST", ("pip", "global.cert"): "PIP_CERT", ("pip", "global.proxy"):
        "HTTPS_PROXY",
}
# the ecosystems' own package indexes (a source elsewhere is judged as one given by hand)
PACKAGE_INDEXES = frozenset({
    "pypi.org", "files.pythonhosted.org", "registry.npmjs.org", "registry.yarnpkg.com",
    "crates.io", "index.crates.io", "static.crates.io", "rubygems.org", "packagist.org",
    "repo.packagist.org", "proxy.golang.org"})
_HTTPS_HOST = re.compile(r"^(?:sparse\+)?https://([^/:\s]+)(?:[/:]|$)")


def https_host(url: str) -> str | None:
    """The host of an https address, lower-cased (cargo's `sparse+https://` too); None
    for any other address (plain http, another scheme: no host is vouched for)."""
    found = _HTTPS_HOST.match(url)
    return found.group(1).lower() if found is not None else None


# an index that is not one of them, nor on this machine
ELSEWHERE = re.compile(r"^[a-z+]+://(?!(?:[^@/]*@)?(?:" + "|".join(
    re.escape(h) for h in sorted(PACKAGE_INDEXES)) + r"|localhost|127\.[\d.]+|\[::1\])(?:[:/,]|$))")
_PLAIN_HTTP = re.compile(r"^http://(?!(?:localhost|127\.0\.0\.1|\[::1\])(?:[:/]|$))")
_VERIFY_SWITCHES = frozenset({"GIT_SSL_VERIFY", "NPM_STRICT_SSL", "CONDA_SSL_VERIFY",
                              "COMPOSER_SECURE_HTTP"})
# (and git's signing of what it makes, set off for every repository: names of no variable,
# the settings' own, `git config --global commit.gpgsign false`)
_SIGNING_SWITCHES = frozenset({"GIT_COMMIT_GPGSIGN", "GIT_TAG_GPGSIGN"})
_PROMPT_VAR = frozenset({"PS0", "PS1", "PS2", "PS3", "PS4"})
_SUBSTITUTION = re.compile(r"\$\(([^()]*)\)|`([^`]*)`")
# where a program named by a path is the system's own (a helper there is no signal)
SYSTEM_BIN = ("/usr/", "/bin/", "/sbin/", "/lib/", "/opt/homebrew/", "/nix/store/")


def candidates(text: str) -> list[str]:
    """The pieces of one argument that may be a command line: all of it, the value after
    ``=``, the text after a leading ``:``/``!``/``|``, and each quoted part."""
    if not _SHELLISH.search(text):
        return []
    out = [text]
    if "=" in text:
        out.append(text.split("=", 1)[1])
    stripped = text.lstrip(":!|+ \\")
    if stripped != text:
        out.append(stripped)
    out += [m.group(1) or m.group(2) for m in _QUOTED.finditer(text)]
    seen: list[str] = []
    for c in out:
        if c and c not in seen and _SHELLISH.search(c.strip()):
            seen.append(c)
    return seen[:MAX_CANDIDATES]



def runtime_loads(name: str, text: str, cwd: str | None) -> str | None:
    """The file a runtime's options (``-javaagent:/tmp/a.jar`` in $JAVA_TOOL_OPTIONS) or a
    startup hook (``DOTNET_STARTUP_HOOKS``) has it load from outside the workspace, a
    folder anyone may write or a secret's place; else None."""
    if not (_OPTIONS_VAR.search(name) or _HOOK_VAR.search(name)):
        return None
    paths = [m.group("p") for m in _LOADS.finditer(text)] if _OPTIONS_VAR.search(
        name) else [p for p in re.split(r"[;:,\s]+", text) if p]
    for path in paths:
        if path.startswith(("/", "~", ".")) or UNKNOWN in path:
            if UNKNOWN in path or classify(path, cwd).kind in (
                    "scratch", "outside", "device", "secret"):
                return path
    return None


def code_place(name: str, text: str) -> str | None:
    """Where a variable a settings file gives the program a tool runs (.NET's launch
    profile's ``environmentVariables``, R's .Renviron) has it load code from: a runtime's
    options or startup hook, a library preloaded, a location in a folder anyone may write
    (as the same variable exported is judged); else None."""
    word = Word(text, text)
    return runtime_loads(name, text, None) or loaded_from(name, word, None) or (
        scratch_location(name, word, None))


_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=")  # (a line's assignments come before its program)


class _Helpers(_Functions):
    """Mixed into the walk of ``_grammar`` (through ``_carried``)."""

    def nested(self, text: str, where: tuple[str, ...], positional: Sequence[Word] = (),
               zero: Word | None = None) -> None:
        raise NotImplementedError  # the walk's

    def helper(self, code: str, where: tuple[str, ...], via: str) -> None:
        """Code another program runs for this one (a pager, a wrapper, a proxy command):
        read as a command line; a program named by a path of its own (``./x.sh``,
        ``/tmp/w``) is asked about whatever the file holds: the indirection is the signal,
        and what the file does is not known here."""
        self.nested(code, where)
        first = next((w.strip("'\"") for w in code.split() if not _ASSIGNMENT.match(w)), "")
        if "/" in first and UNKNOWN not in first and not first.startswith(SYSTEM_BIN):
            self.out.problem("dynamic-code", f"runs {first}, a program named by its path, "
                             f"for another ({via})", where)

    def settings(self, cmd: Command, where: tuple[str, ...]) -> None:
        """Options and settings whose value is a program (``--pager=…``, ``make CC=…``,
        ``-Dexec.executable=sh -Dexec.args=…``): the value is a command line."""
        given: dict[str, str] = {}
        git = cmd.name == "git"
        for a in cmd.argv[1:]:
            text = a.text
            if git and text.startswith("ext::"):
                # git's ext transport runs its address: `ext::sh -c rm% -rf% ~` (% escapes)
                argv = [w.replace("\0", " ") for w in
                        text[5:].replace("%%", "%").replace("% ", "\0").split()]
                self.helper(shlex.join(argv), (*where, "git ext::"), "git ext::")
            if "=" in text and a.known:
                m = _SETTING.fullmatch(text)
                if m is not None:
                    given[m.group("name")] = m.group("value")
        if not given:
            return
        for key, value in given.items():
            if not _PROGRAM_KEY.search(key):
                continue
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]  # a TOML or Java string: runner="…"
            head = key[:-len(key.rpartition(".")[2])] if "." in key else ""
            args = given.get(head + "args") or given.get(head + "arguments")
            if args is not None:  # a program and its arguments given apart
                value = f"{value} {args}"
            self.helper(value.lstrip("!|"), (*where, f"{cmd.name} {key}="),
                        f"{cmd.name} {key}=")

    def tool_facts(self, cmd: Command, where: tuple[str, ...]) -> None:
        """A tool's own settings that stand for variables (`git config http.proxy X`), and
        ``enable -f FILE``: a shared object loaded into the shell as a builtin, a binary
        the wing cannot read (from the system's folders, a package's)."""
        if cmd.name != "enable":
            for var, setting in tool_settings(cmd.name, cmd.args):
                self.runtime_variable(var, setting)
            return
        k = next((i for i, a in enumerate(cmd.args) if a.text == "-f"), None)
        if k is None:
            return
        lib = cmd.args[k + 1] if k + 1 < len(cmd.args) else Word("", "")
        if not lib.known or classify(lib, self.cwd).kind != "system":
            self.out.problem("dynamic-code", f"loads a shared object into the shell "
                             f"({lib.shown})", where, lib.sources)

    def runtime_variable(self, name: str, value: Word) -> None:
        """Variables that make a runtime load code or trust what it fetches, by their
        class: a runtime's options loading a file from outside (``-javaagent:/tmp/a.jar``),
        a startup hook, git's settings given in the environment (``GIT_CONFIG_KEY_0``,
        ``GIT_CONFIG_PARAMETERS``), an exported function (``BASH_FUNC_ls%%``), a prompt
        that runs a command (``PS4='$(…)'``), a package index over plain HTTP, TLS or
        checksum checks turned off."""
        text = value.text
        label = (*self.where, f"${name}")
        path = runtime_loads(name, text, self.cwd)
        if path is not None:
            self.out.problem("dynamic-code", f"makes a runtime load code from {path} "
                             f"(${name})", self.where, value.sources)
        if name == "PYTHONBREAKPOINT" and text not in ("", "0") and text.split(".")[
                0] not in _DEBUGGERS:  # (`os.system`: breakpoint("rm -rf ~") runs it)
            self.out.problem("dynamic-code", f"makes python's breakpoint() call {text} "
                             f"(${name})", self.where, value.sources)
        if _INLINE_CODE.search(text) and _OPTIONS_VAR.search(name) and not name.upper(
                ).endswith("FLAGS"):
            # a runtime's options that evaluate code given inline (PERL5OPT='-e …',
            # NODE_OPTIONS='--eval …'): code no reading of the wing's follows
            self.out.problem("dynamic-code", f"makes a runtime run code given inline "
                             f"(${name})", self.where, value.sources)
        if not value.known:
            pass  # (what follows reads a value the script set)
        elif name.startswith("GIT_CONFIG_KEY_"):
            self.out.git_keys[name[len("GIT_CONFIG_KEY_"):]] = text
        elif name.startswith("GIT_CONFIG_VALUE_") or name == "GIT_CONFIG_PARAMETERS":
            pairs = [f"{self.out.git_keys.get(name[len('GIT_CONFIG_VALUE_'):], '')}={text}"] \
                if name != "GIT_CONFIG_PARAMETERS" else _words(text)
            for code_label, code in carried_code("git", [w for p in pairs for w in ("-c", p)]):
                self.helper(code, (*label, code_label), f"${name}")
        elif name.startswith("BASH_FUNC_") and "{" in text:
            self.nested(text[text.index("{"):], label)  # an exported function's body
        elif name in _PROMPT_VAR:
            for m in _SUBSTITUTION.finditer(text):  # run each time the prompt is shown
                self.nested(m.group(1) or m.group(2) or "", label)
        if name == "DOCKER_HOST" and value.known and text.startswith("tcp://") and (
                not text.startswith(("tcp://localhost", "tcp://127.0.0.1"))):
            self.out.problem("dynamic-code", f"drives a container daemon over a network "
                             f"socket ({text}: root on that host)", self.where, value.sources)
        if name == "SSH_AUTH_SOCK" and (("/tmp/" in value.raw or "agent." in value.raw) if
                                        UNKNOWN in text else classify(value, self.cwd).kind in (
                                            "scratch", "outside")):  # another session's agent
            self.out.problem("dynamic-code", f"uses an ssh agent's socket it found, and the "
                             f"keys in it ({value.shown})", self.where, value.sources)
        if value.known and name in _TRUST_VAR and text and not text.startswith(_SYSTEM_CERTS):
            self.out.problem("dynamic-code", f"makes every program after it trust the "
                             f"certificates in {text} (${name})", self.where, value.sources)
        if value.known and name in _PROXY_VAR and text and not _LOCAL.match(text):
            self.out.problem("dynamic-code", f"sends the traffic of every program after it "
                             f"through {text} (${name})", self.where, value.sources)
        if value.known and ((name in _VERIFY_SWITCHES and text.lower() in (
                "false", "0", "no", "off")) or (name == "COMPOSER_DISABLE_TLS" and (
                text.lower() in ("true", "1", "yes", "on")))):
            self.out.problem("dynamic-code", f"turns TLS checks off ({name}={text})",
                             self.where, value.sources)
        if value.known and name in _SIGNING_SWITCHES and text.lower() in ("false", "0", "no",
                                                                          "off"):
            self.out.problem("dynamic-code", f"turns signing off ({name}={text})", self.where,
                             value.sources)
        if value.known and name == "SKIP" and _SCANNERS.search(text):
            # pre-commit's SKIP naming a secret scanner: the commit goes out unscanned
            self.out.problem("dynamic-code", f"skips the commit hooks' secret scanners "
                             f"({name}={text})", self.where, value.sources)
        if value.known and ((INDEX_VAR.search(name) and _PLAIN_HTTP.match(text))
                            or _CHECKS_OFF.match(f"{name}={text}")):
            self.out.problem("dynamic-code", f"fetches code it cannot trust: {name}={text}",
                             self.where, value.sources)
        elif value.known and INDEX_VAR.search(name) and ELSEWHERE.match(text):
            # (as `pip config set global.index-url …` and `--index-url …` are asked)
            self.out.problem("dynamic-code", f"points package installs at another source: "
                             f"{text} (${name})", self.where, value.sources)

    def probed_input(self, cmd: Command, where: tuple[str, ...]) -> None:
        """Data on a program's input, for a program the wing does not know or one whose
        input is a command language it does not read (Tcl, expect): each line is judged
        as an unknown program's arguments are (``tclsh <<< 'exec rm -rf ~'``), an
        ``echo`` or ``printf`` piped to it too (``echo 'file delete …' | tclsh``)."""
        for _, data in fed_input(cmd):
            if not data.known:
                continue
            label = f"input of {cmd.name}"
            for line in data.text.splitlines()[:MAX_INPUT_LINES]:
                if wipes(line) or any(drops(s) for s in line.split(";")):  # (`… <<< "DROP …"`)
                    self.out.problem("destroys", f"{cmd.name}: handed on its input code that "
                                     "empties a table, a collection or a database", where)
                for text in candidates(line.strip().lstrip("!")):
                    self.probe(text, (*where, label))
                if "(" in line or "delete" in line:  # (Tcl's `file delete`: its own reading)
                    for text in shell_strings(cmd.name if cmd.name in TCL else "", line):
                        self.nested(text, (*where, f"code in the {label}"))

    def probe(self, text: str, where: tuple[str, ...]) -> None:
        """Read a string that may be a command line, for what it would do: prose that does
        not parse, or a word in command position, is not in itself a risk here."""
        before = len(self.out.problems)
        self.nested(text, where)
        self.out.problems[before:] = [p for p in self.out.problems[before:]
                                      if p.kind not in ("unparsed", "dynamic-command")]


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def tool_settings(name: str, args: Sequence[Word]) -> list[tuple[str, Word]]:
    """The variables a tool's own settings stand for (see ``TOOL_SETTINGS``): `go env -w
    K=V …` are variables themselves, and so are git's `-c K=V` for the run they are
    given to."""
    texts = [a.text for a in args]
    tool = "pip" if name == "pip3" else name
    if tool == "go":
        if texts[:2] != ["env", "-w"]:
            return []
        return [(k, Word(v, v)) for k, _, v in (t.partition("=") for t in texts[2:]) if v]
    if tool == "git":  # `git -c http.proxy=URL push`: one run's settings, the same
        given = [texts[i + 1].partition("=") for i, t in enumerate(texts[:-1]) if t == "-c"]
        found = [(TOOL_SETTINGS.get(("git", k.lower())), v) for k, _, v in given
                 if not k.lower().endswith(".gpgsign")]  # (one commit unsigned: as asked)
        if any(var for var, _ in found):
            return [(var, Word(v, v)) for var, v in found if var]
    words = [t for t in texts if not t.startswith("-")]
    if tool in ("git", "conda", "composer") and words[:1] == ["config"] and len(words) >= 3:
        key, value = words[1].lower(), words[2]
    elif words[:2] == ["config", "set"] and len(words) >= 4:
        key, value = words[2].lower(), words[3]
    elif words[:2] == ["config", "set"] and len(words) == 3 and "=" in words[2]:
        key, _, value = words[2].partition("=")
    else:
        return []
    var = TOOL_SETTINGS.get((tool, key.lower()))
    return [(var, Word(value, value))] if var else []
