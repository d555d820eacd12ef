"""Where a path lies, seen from the workspace (``ToolContext.cwd``).

Purely lexical: no file is looked at. A target that cannot be resolved (``~``, ``/``, a glob
at the root, an unknown variable, ``..`` climbing out) counts as outside the workspace.
"""

from __future__ import annotations

import functools
import posixpath
import re
from typing import Literal

import attrs

from toolpipe.shell._windows import posix_path
from toolpipe.shell._words import UNKNOWN, Word, dot_parent

Kind = Literal["workspace", "workspace-root", "scratch", "outside", "system", "root",
               "secret", "persistence", "device"]
# How bad it is to destroy or overwrite each kind (the rules pick by this order).
SEVERITY: dict[Kind, int] = {"workspace": 0, "scratch": 0, "workspace-root": 2, "outside": 3,
                             "system": 4, "secret": 4, "persistence": 4, "root": 5,
                             "device": 5}
LABEL: dict[Kind, str] = {
    "workspace": "inside the workspace", "workspace-root": "the whole workspace",
    "scratch": "a scratch location", "outside": "outside the workspace",
    "system": "a system location", "root": "outside the workspace", "secret": "a secret",
    "persistence": "a persistence point", "device": "a device",
}

SYSTEM = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot",
          "/var", "/root", "/sys", "/proc", "/opt", "/srv", "/snap", "/dev", "/run",
          "/System", "/Library", "/Applications", "/private", "/nix", "/home", "/Users",
          "/mnt", "/media", "/lost+found")
SCRATCH = ("/tmp/", "/var/tmp/", "/dev/shm/")
_CAPTURE = re.compile(r"^/dev/(?:video[0-9]*|input/(?:event[0-9]*|by-\S*kbd\S*)|snd/.*|"
                      r"dsp[0-9]*|audio[0-9]*|uinput|hidraw[0-9]*)$")
# (a process's own descriptors by /proc too: /dev/fd is a link to /proc/self/fd)
SAFE_DEVICES = re.compile(r"^/dev/(null|zero|full|random|urandom|stdin|stdout|stderr|tty\w*|"
                          r"pts/\w+|fd/.*|console|ptmx)$|^/proc/(?:self|thread-self)/fd/\d+$")
_SECRET_HOME = ("~/.ssh", "~/.aws", "~/.config/gcloud", "~/.azure", "~/.kube", "~/.gnupg",
                "~/.docker/config.json", "~/.netrc", "~/.pgpass", "~/.npmrc", "~/.pypirc",
                "~/.git-credentials", "~/.config/gh", "~/.password-store",
                "~/.local/share/keyrings", "~/.vault-token", "~/.terraform.d",
                "~/.config/hub", "~/.boto", "~/.s3cfg", "~/.mozilla", "~/.config/chromium",
                "~/.config/google-chrome", "~/.bash_history", "~/.zsh_history",
                "~/.python_history", "~/.mysql_history", "~/.psql_history", "~/.history",
                "~/.lesshst", "~/.viminfo", "~/.local/share/fish/fish_history",
                "~/.config/rclone", "~/.cache/google-chrome", "~/.cache/chromium",
                "~/.config/BraveSoftware", "~/.config/Code/User/globalStorage",
                "~/.local/share/keyrings",
                # macOS: a person's messages, mail, browser data, keychains, privacy grants
                "~/Library/Messages", "~/Library/Mail", "~/Library/Safari", "~/Library/Cookies",
                "~/Library/Keychains", "~/Library/Application Support/com.apple.TCC",
                "~/Library/Application Support/Google/Chrome",
                "~/Library/Application Support/Firefox")
_SECRET_NAMES = re.compile(
    r"(^|/)(\.env(\.[\w.-]+)?|id_(rsa|dsa|ecdsa|ed25519)(_sk)?|\.?netrc|\.pgpass|"
    r"credentials(\.json)?|\.git-credentials|shadow|gshadow|master\.key|\.htpasswd|"
    r"[\w.{}-]+\.(pem|key|p12|pfx|keystore|jks|kdbx|ovpn)|\.bash_history|\.zsh_history|"
    r"wallet\.dat|Cookies|Login Data|logins\.json|key[34]\.db|cookies\.sqlite|"
    r"[\w.-]+\.nmconnection|"
    # tools' login files wherever they are (a project's .npmrc stays a project file: npm
    # reads its settings, the rules follow them) and the key files clouds hand out (a
    # service account's, an OAuth client's)
    r"\.pypirc|\.dockercfg|\.vault-token|\.s3cfg|\.boto|token\.json|"
    r"[\w.-]*service[-_]?account[\w.-]*\.json|client[-_]secrets?[\w.-]*\.json|"
    r"secrets?\.(?:ya?ml|json|toml|env))$")
# A tool's own files in the home folder, where it keeps its login (hosts.yml, config.toml,
# settings.xml, cli.yml, auth.json…): the class, not a list of tools. A file named for a
# credential anywhere under the home folder; a configuration file in a tool's folder
# (``~/.TOOL/``, ``~/.config/TOOL/``, ``~/.local/share/TOOL/``, at most two levels down);
# a tool's own file at the top (``~/.my.cnf``, ``~/.databrickscfg``, ``~/.sentryclirc``).
# Tools whose configuration holds no login (editors, shells, terminals) are left out.
_CREDENTIAL_WORD = re.compile(
    r"(?i)(?:^|[._-])(?:creds?|credentials?|tokens?|secrets?|passwords?|passwd|auth|"
    r"authinfo|authtoken|cookies?|keyrings?|keychains?|keystores?|wallets?|api[_-]?keys?|"
    r"private[_-]?keys?|keys?|identit(?:y|ies))"  # (age's and sops' keys.txt, identity)
    r"(?:$|[._-])|authority$|_history$")
_TOOL_DIR = re.compile(r"^~/(?:\.config|\.local/share|\.local/state)/([^/]+)/(.+)$"
                       r"|^~/(?!\.config/|\.local/)(\.[^/]+)/(.+)$"
                       r"|^~/\.config/(([^/.]+)[^/]*)$")
_CONFIG_NAME = re.compile(r"(?i)^(?:config|settings|profiles?|hosts|accounts?|connections?|"
                          r"sessions?|[^/]*\.session|"
                          r"[^/]*\.(?:conf|config|cfg|cnf|ini|toml|ya?ml|json|xml|properties|env))$")
_TOP_CONFIG = re.compile(r"^~/\.[\w.-]+(?:rc|cfg|\.conf|\.cnf|rc\.ya?ml|rc\.json)$")
_NO_LOGIN = frozenset({
    "nvim", "vim", ".vim", "emacs", ".emacs.d", "helix", "micro", "nano", "kak", "zed",
    "fish", "zsh", "bash", "starship", "tmux", ".tmux", "zellij", "alacritty", "kitty",
    "wezterm", "foot", "ghostty", "i3", "sway", "hypr", "waybar", "htop", "btop", "bat",
    "lazygit", "delta", "fontconfig", "gtk-2.0", "gtk-3.0", "gtk-4.0", "dunst", "rofi",
    "picom", "polybar", "mpv", "ranger", "yazi", "lf", "nnn", "Code", "VSCodium", ".vscode",
    ".vscode-server", "git", "direnv", "ruff", "black", "flake8", "pycodestyle", "mypy",
    "yamllint", "prettier", "eslint", ".rustup", "rustup", "neofetch", "fastfetch",
    ".cargo",  # (its logins are in credentials.toml, named for them)
    "autostart", "systemd", "applications", "mimeapps", "user-dirs", "Trash", "recently-used",
})
_NO_LOGIN_TOP = frozenset({
    "~/.nanorc", "~/.screenrc", "~/.tmux.conf", "~/.editorconfig", "~/.gemrc", "~/.irbrc",
    "~/.pryrc", "~/.psqlrc", "~/.sqliterc", "~/.lynxrc", "~/.inputrc", "~/.vimrc",
    "~/.gvimrc", "~/.exrc", "~/.wezterm.lua", "~/.Xresources", "~/.xinitrc", "~/.npmrc.d",
    "~/.prettierrc", "~/.eslintrc", "~/.pylintrc", "~/.mdlrc", "~/.ackrc", "~/.ripgreprc",
    "~/.shellcheckrc", "~/.mongoshrc", "~/.tigrc", "~/.wgetrc.sample",
})


def _tool_secret(home: str) -> bool:
    """Does this ``~``-relative path look like where a tool keeps a login (above)?"""
    if _TOP_CONFIG.match(home):
        return home not in _NO_LOGIN_TOP
    m = _TOOL_DIR.match(home)
    if m is None:
        return False
    tool, inner = (m.group(1), m.group(2)) if m.group(1) else (
        (m.group(3), m.group(4)) if m.group(3) else (m.group(6), m.group(5)))
    if tool in _NO_LOGIN or tool.lstrip(".") in _NO_LOGIN:
        return False
    parts = inner.split("/")
    return len(parts) <= 2 and _CONFIG_NAME.match(parts[-1]) is not None


_PROC_ENVIRON = re.compile(r"/proc/(?:\d+|self|\*|[^/]*\x00[^/]*)/environ"
                           # another process's command line (passwords given as arguments)
                           r"|/proc/(?:\d+|\*|\[0-9\]\*|[^/]*\x00[^/]*)/cmdline")
# places of the system that hold secrets (a container's mounted secrets, Wi-Fi keys)
_SYSTEM_SECRETS = ("/etc/ssl/private", "/etc/ssh/ssh_host_", "/var/run/secrets", "/run/secrets",
                   "/etc/NetworkManager/system-connections", "/etc/wpa_supplicant")
# another process's memory and its map (where to read it)
_PROC_MEMORY = re.compile(r"/proc/(?:(?:\d+|\*|[^/]*\x00[^/]*)/(?:mem|maps|smaps)|kcore)"
                          r"|/dev/k?mem")  # (and the kernel's: its image, the memory itself)
_PUBLIC_CERTS = ("/etc/ssl/certs/", "/usr/share/ca-certificates/", "/etc/pki/ca-trust/",
                 "/usr/local/share/ca-certificates/", "/etc/ca-certificates/")
# Names next to secrets that hold none: public keys, known hosts, templates of .env files.
_NOT_SECRET = re.compile(r"(\.pub|/known_hosts(\.old)?|\.env\.(example|sample|template|"
                         r"dist|defaults|tmpl|schema|ci)|\.(crt|cert|csr)"
                         # a certificate or a public key, by its name (cert.pem, public.pem)
                         r"|(^|[/_.-])(cert|certificate|fullchain|chain|ca|ca-bundle|public|"
                         r"pubkey|public[_-]key)\.pem)$")
_PERSISTENCE = re.compile(
    r"^(~|/root|/home/[^/]+)/(\.(bash|zsh)rc|\.bash_profile|\.bash_login|\.bash_logout|"
    # (.bash_aliases: sourced by Debian's .bashrc; environment.d: systemd's user session)
    r"\.bash_aliases|\.config/environment\.d/.*|"
    r"\.profile|\.zprofile|\.zshenv|\.zlogin|\.kshrc|\.cshrc|\.tcshrc|\.inputrc|"
    r"\.config/fish/config\.fish|\.config/fish/conf\.d/.*|\.ssh/authorized_keys2?|"
    r"\.ssh/rc|\.ssh/config|\.config/autostart/.*|\.config/systemd/.*|\.local/share/systemd"
    r"/.*|\.xinitrc|\.xprofile|\.xsession|\.gitconfig|\.config/git/config|\.vimrc|"
    r"\.pam_environment|Library/LaunchAgents/.*"
    # (code loaded without being named: an editor's or a shell's plugins and start-up files,
    # the user's site of Python modules, and the folders on the user's PATH)
    r"|\.vim/(?:pack|plugin|autoload|ftplugin|after)/.*|\.config/nvim/.*|\.local/share/nvim/"
    r"site/.*|\.emacs|\.emacs\.d/.*|\.oh-my-zsh/custom/.*|\.zshrc\.d/.*|\.local/lib/python"
    r"[^/]*/site-packages/.*|\.local/bin/.*|bin/.*|\.cargo/bin/.*|go/bin/.*)$"
    r"|^/etc/(profile|profile\.d/.*|bash\.bashrc|bashrc|zsh/.*|zshrc|zprofile|environment|"
    r"sudoers|sudoers\.d/.*|cron\w*(/.*)?|crontab|anacrontab|systemd/.*|init\.d/.*|rc\.local|"
    r"rc\d\.d/.*|ld\.so\.preload|ld\.so\.conf(\.d/.*)?|passwd|group|shadow|gshadow|"
    r"pam\.d/.*|security/.*|ssh/sshd_config(\.d/.*)?|update-motd\.d/.*|xdg/autostart/.*|"
    r"modules-load\.d/.*|udev/rules\.d/.*|apt/apt\.conf\.d/.*|hosts)$"
    r"|^/var/spool/cron(/.*)?$|^/(usr/)?lib/systemd/.*$|^/Library/Launch\w+/.*$")


# Files that decide what runs later without naming a program: Python's start-up files (run
# at every start), and an AI agent's own settings (what it may do without asking, and the
# commands its hooks run: any settings file in an agent's own folder, `.claude/`,
# `.codex/`, `.roo/`…; any agent's or editor's MCP servers, a file named for them wherever
# it is, `mcp.json`, `cline_mcp_settings.json`), in the home folder or a project's
_STARTS = (
    (re.compile(r"(?:^|/)(?:site|dist)-packages/[^/]+\.pth$|(?:^|/)(?:site|user)"
                r"customize\.py$"), "a file Python runs at every start"),
    (re.compile(r"(?:^|/)(?:\.(?:claude|codex|gemini|qwen|cursor|roo|kilocode|windsurf"
                r"|amazonq|kiro|continue|opencode|crush|cline|junie|augment|trae|goose|zed"
                r"|amp|openhands|factory|copilot|codeium|tabnine|cody|void|pearai|warp)/"
                r"(?:[^/]+\.(?:json|jsonc|toml|ya?ml)|hooks/.+)|\.aider\.conf\.ya?ml"
                r"|\.config/(?:toolpipe|opencode|crush|goose|amp)/.+|opencode\.jsonc?"
                r"|[^/]*mcp[^/]*\.(?:json|jsonc|toml|ya?ml)|claude_desktop_config\.json"
                r"|\.claude\.json)$"),
     "an AI agent's own settings (what it may do unasked, the commands its hooks run)"),
    # a repository's hooks and settings, run by git at a later commit, checkout or fetch,
    # the user's own too (core.fsmonitor, a filter, a hook); the folder written whole
    (re.compile(r"(?:^|/)\.git(?:/modules/[^/]+)?(?:/(?:hooks(?:/[^/]+)?|config"
                r"|config\.worktree|info/attributes|\{\}))?/?$"),  # (.git/{}: what unpacks there)
     "a repository's own hooks or settings (git runs them later, for the user too)"),
    # an editor's tasks (VS Code's and its forks': a task may run when the folder opens)
    (re.compile(r"(?:^|/)\.vscode/tasks\.json$"),
     "an editor's tasks file (a task may run as soon as the folder opens)"),
)


def start_file(path: str) -> str | None:
    """What a file is, when writing it changes what runs later (see ``_STARTS``)."""
    return next((what for pattern, what in _STARTS if pattern.search(path)), None)


@attrs.frozen
class Place:
    kind: Kind
    path: str  # as resolved (lexically), for messages
    # a secret by its class only (a tool's settings file, where a login may be): read as a
    # secret, written as any file outside the workspace is
    settings: bool = False

    @property
    def severity(self) -> int:
        return SEVERITY[self.kind]

    @property
    def label(self) -> str:
        return "a tool's settings (where a login may be)" if self.settings else LABEL[self.kind]


def _home_relative(path: str) -> str | None:
    """``~``, ``~/x``, ``/root/x``, ``/home/u/x`` → ``~``-relative text (others: None)."""
    if path == "~" or path.startswith("~/"):
        return path
    if path.startswith("~"):  # ~user
        rest = path.split("/", 1)
        return "~/" + rest[1] if len(rest) > 1 else "~"
    m = re.match(r"^(/root|/home/[^/]+|/Users/[^/]+)(/.*)?$", path)
    if m:
        return "~" + (m.group(2) or "")
    return None


def literal_prefix(w: Word) -> str:
    """The word's text up to the first part not known (a value, or a glob's wildcard)."""
    prefix = w.text.split(UNKNOWN, 1)[0]
    if w.glob:
        prefix = prefix[:min((prefix.find(c) for c in "*?[" if c in prefix),
                             default=len(prefix))]
    return prefix


def classify(word: Word | str, cwd: str | None = ".", workspace: str = ".") -> Place:
    """Classify a path word as it would be used from ``cwd`` (relative to the workspace)."""
    w = word if isinstance(word, Word) else Word(word, word)
    if w.text == "~+" or w.text.startswith("~+/"):  # `~+` is the working folder ($PWD)
        w = w._replace(text="." + w.text[2:])
    elif _DRIVE_PATH.match(w.text):  # a Windows drive's path, where WSL mounts it (or what
        # bash leaves of it unquoted: `C:\Users\Public\p.dll` is `C:UsersPublicp.dll`,
        # a path on the drive, never one in the workspace: the eighteenth sitting's file)
        w = w._replace(text=posix_path(w.text))
    return _classify(w, cwd, workspace)


_DRIVE_PATH = re.compile(r"[A-Za-z]:(?:[\\/]|[A-Za-z0-9_$%.])")


@functools.lru_cache(maxsize=4096)
def _classify(w: Word, cwd: str | None, workspace: str) -> Place:
    text = w.text
    prefix = literal_prefix(w)
    unknown_part = UNKNOWN in text or w.glob
    if (w.glob or UNKNOWN in text) and (_PROC_ENVIRON.fullmatch(text) or _PROC_MEMORY.fullmatch(
            text)):  # /proc/*/environ, /proc/$(pgrep x)/mem: another process's secrets
        return Place("secret", w.shown)
    if w.glob:
        parent = dot_parent(text)
        if parent is not None:  # `build/.*`, `.*`: a part that may match `..`
            return _classify(Word(parent, w.shown, False, True, w.sources), cwd, workspace)
        rest = text[len(prefix):]
        if UNKNOWN not in text and "/" not in rest and not re.fullmatch(r"[*?.]+", rest):
            # `*.o`, `build/*.log`: a pattern that names some files in one known directory
            # (`*`, `.*`, `*.*` name them all: the directory itself)
            directory = prefix if prefix.endswith("/") or not prefix else (
                posixpath.dirname(prefix) + "/" if "/" in prefix else "")
            absolute = _absolute(directory + "_", cwd, workspace)
            if absolute is None:
                return Place("outside", w.shown)
            return _place(absolute, False, w.tame, w.shown, workspace)
    if unknown_part and not prefix and (UNKNOWN in text or cwd is None):
        return Place("outside", w.shown)  # nothing known: it may be anything
    if unknown_part and not w.tame and not prefix.endswith("/"):
        # `$x` glued to a name: still under the prefix's directory, at best
        prefix = posixpath.dirname(prefix) + "/" if "/" in prefix else ""
        if not prefix:
            return Place("outside", w.shown)
    absolute = _absolute(prefix, cwd, workspace)
    if absolute is None:
        return Place("outside", w.shown)
    return _place(absolute, unknown_part, w.tame, w.shown, workspace)


def _absolute(prefix: str, cwd: str | None, workspace: str) -> str | None:
    """Lexical resolution: ``@/…`` for paths inside a relative workspace."""
    trailing = prefix.endswith("/")
    if prefix.startswith(("/", "~")):
        path = posixpath.normpath(prefix) if prefix not in ("~",) else "~"
        if prefix.startswith("//"):
            path = "/" + path.lstrip("/")
    else:
        if cwd is None:
            return None
        base = cwd if cwd.startswith(("/", "~")) else posixpath.join("@", cwd)
        path = posixpath.normpath(posixpath.join(base, prefix or "."))
    if workspace.startswith("/"):
        ws = posixpath.normpath(workspace)
        if path == ws or path.startswith(ws.rstrip("/") + "/"):
            path = "@" + path[len(ws):]
    if path.startswith("@/../") or path == "@/..":
        return None if not workspace.startswith("/") else path
    return path + ("/" if trailing and not path.endswith("/") else "")


def _place(path: str, partial: bool, tame: bool, shown: str, workspace: str) -> Place:
    bare = path.rstrip("/") or "/"
    if bare == "@" or path.startswith("@/") or path == "@/":
        inner = bare[2:] if bare.startswith("@/") else ""
        if not inner or inner == ".":
            return Place("workspace-root" if partial or not inner else "workspace", shown)
        if partial and not tame:
            return Place("workspace", shown)
        secret = _SECRET_NAMES.search(inner) and not _NOT_SECRET.search(inner)
        return Place("secret" if secret else "workspace", shown)
    if path.startswith("@"):
        return Place("outside", shown)
    if path.startswith(("/dev/", "/proc/self/fd/", "/proc/thread-self/fd/")):
        if _CAPTURE.match(bare) or _PROC_MEMORY.fullmatch(bare):  # a camera, a microphone,
            # the keyboard's events; the kernel's memory
            return Place("secret", shown)
        if SAFE_DEVICES.match(bare):
            return Place("scratch", shown)
        if path.startswith(("/dev/tcp/", "/dev/udp/")):
            return Place("outside", shown)
        return Place("device", shown) if not partial or bare != "/dev" else Place("root", shown)
    home = _home_relative(bare)
    if home is not None:
        if home == "~":
            return Place("root", shown)
        if _PERSISTENCE.match(home):
            return Place("persistence", shown)
        if (any(home == s or home.startswith(s + "/") for s in _SECRET_HOME) or
                _SECRET_NAMES.search(home)) and not _NOT_SECRET.search(home):
            return Place("secret", shown)
        if any(_CREDENTIAL_WORD.search(part) for part in home.split("/")[1:]) and (
                not _NOT_SECRET.search(home)):
            return Place("secret", shown)  # ~/.supabase/access-token, ~/.codex/auth.json
        if _tool_secret(home) and not _NOT_SECRET.search(home):
            return Place("secret", shown, settings=True)
        if bare.startswith("/root"):
            return Place("system", shown)
        return Place("outside", shown)
    if bare == "/":
        return Place("root", shown)
    if _PROC_ENVIRON.fullmatch(bare):  # another process's environment: its secrets
        return Place("secret", shown)
    if bare in ("/etc/shadow", "/etc/gshadow") or (bare.startswith(_SYSTEM_SECRETS)
                                                   and not bare.endswith(".pub")) or (
            _PROC_MEMORY.fullmatch(bare)):
        return Place("secret", shown)  # (also a container's mounted secrets, Wi-Fi keys)
    if _SECRET_NAMES.search(bare) and not _NOT_SECRET.search(bare) and not bare.startswith(
            _PUBLIC_CERTS):  # /srv/app/.env, /opt/x/id_rsa, /{}.pem (find / -name '*.pem')
        return Place("secret", shown)
    if _PERSISTENCE.match(bare):
        return Place("persistence", shown)
    if any((bare + "/").startswith(s) for s in SCRATCH) and bare not in ("/tmp", "/var/tmp",
                                                                         "/dev/shm"):
        return Place("scratch", shown)
    if any(bare == s for s in SYSTEM):
        return Place("root", shown)
    if bare.startswith("/proc/") and not bare.startswith("/proc/sys"):
        return Place("system", shown)
    if any(bare.startswith(s + "/") for s in SYSTEM):
        return Place("system", shown)
    return Place("outside", shown)


def maybe_secret(text: str) -> bool:
    """Could this word name a secret at all (a path, or a name secrets go by)? A cheap test
    before ``classify`` for words that are mostly options and values."""
    return "/" in text or text.startswith(("~", ".")) or _SECRET_NAMES.search(text) is not None


def holds_secrets(path: str) -> bool:
    """Is this folder above a place that holds secrets (``~``, ``~/.config``, ``/etc``)?
    Reading it recursively reads them too."""
    bare = path.rstrip("/") or "/"
    home = _home_relative(bare) if bare.startswith(("~", "/root", "/home", "/Users")) else None
    if home is not None:
        return any(s == home or s.startswith(home.rstrip("/") + "/") for s in _SECRET_HOME)
    return bare in ("/", "/etc", "/root", "/home", "/Users", "/var", "/var/lib", "/opt") or (
        bare.startswith("/") and any(s.startswith(bare + "/") or s == bare
                                     for s in _SYSTEM_SECRETS))
