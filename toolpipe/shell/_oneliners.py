"""One-liners of other languages (``python -c``, ``perl -e``, ``node -e``, ``ruby -e``,
``php -r``, ``awk``): the shell commands they spawn, and their file and socket operations
read as the shell commands they amount to (``shutil.rmtree("/")`` is ``rm -rf /``).

This is a scan for well-known calls, not a parser of five languages: a call whose argument
is not a plain string literal becomes an unknown word (``$TOOLPIPE_DYNAMIC``), which the
rules count as outside the workspace.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolpipe.shell._code_files import (
    BRACKETED,
    DYNAMIC,
    HOME,
    MODE_WRITES,
    bare_tree_deletes,
    bracketed,
    copied,
    copies,
    downloaded_to,
    fetched_code,
    home_interpolated,
    home_mentions,
    literal_read,
    literals,
    loaded_files,
    pathlib_ops,
    quote_operators,
    r_writes,
    receiver_folder,
    target,
    tcl_deletes,
    top_comma,
)
from toolpipe.shell._code_files import quote as _quote
from toolpipe.shell._reflection import _call_args, computed_names, looked_up
from toolpipe.shell._wipes import wipes
from toolpipe.shell._words import Word

# The flag that introduces code, by interpreter ("" : the first operand is the program).
LANGUAGES = {"python": "-c", "python2": "-c", "python3": "-c", "pypy": "-c", "pypy3": "-c",
             "perl": "-e", "ruby": "-e", "node": "-e", "nodejs": "-e", "bun": "-e",
             "deno": "eval", "php": "-r", "lua": "-e", "awk": "", "gawk": "", "mawk": "",
             "nawk": "", "busybox-awk": "", "rscript": "-e", "tclsh": "",
             "emacs": "--eval", "mongosh": "--eval", "mongo": "--eval"}
# (keys lower-case: a command's name is compared lower-cased, `Rscript` is `rscript`)
# Tcl's readers (Jim Tcl's `jimsh` too: found by the twelfth sitting's law, `jimsh <<<
# 'file delete -force $env(HOME)'` allowed)
TCL = frozenset({"tclsh", "wish", "expect", "jimsh"})

_SPAWN = re.compile(
    r"(?:os\.system|os\.popen|subprocess\.\w+|commands\.getoutput|pty\.spawn|os\.exec\w*|"
    r"os\.spawn\w*|\bsystem2?|\bexec|\bexecSync|\bexecFileSync|\bspawnSync|\bspawn|"
    r"\bshell_exec|\bpassthru|\bpopen|\bproc_open|IO\.popen|Open3\.\w+|\bqx|\bexecFile|"
    r"child_process\.\w+|Deno\.run|new\s+Deno\.Command|os\.execute|io\.popen|"
    # Elixir's and Erlang's, Scala's (sbt), Fabric's and Tilt's `local("…")`
    r"System\.cmd|System\.shell|:os\.cmd|\bProcess|\blocal|os\.posix_spawnp?|"
    r"create_subprocess_\w+|"
    # Rake's and fastlane's `sh("…")`, Snakemake's `shell("…")` (their DSLs' spawns)
    r"(?<![\w.])sh|(?<![\w.])shell|"
    # invoke's and fabric's context, by the names their docs give it: c.run("…"); the
    # mongo shells' runProgram and runMongoProgram
    r"\b(?:c|ctx|context|conn|connection|cxn)\.(?:run|sudo|local)|\brun(?:Mongo)?Program)"
    r"\s*[({]")
_BACKTICK = re.compile(r"`((?:[^`\\]|\\.)*)`", re.S)  # (an escaped backquote inside: `\``)
# (a literal first, then all the statement holds: `exec "rm", "-rf", $ENV{HOME}`)
_BARE_CALL = re.compile(r"""\b(?:system|exec|spawn|sh)[ \t]+((?=["'])[^;\n]+)""")
# (ruby's %x(…) and perl's qx{…}: a quote operator's brackets, as _code_files reads them)
_PERCENT_X = re.compile(r"(?:%x|\bqx)\s*(?:" + BRACKETED + ")", re.S)
# perl's pipe opens, either way: open(F, "|-", "sh"), open(my $fh, "-|", "rm -rf ~"),
# open(F, "| sh"), open(F, "rm -rf ~ |")
_PIPE_OPEN = re.compile(r"""\bopen\s*\(?\s*[^,;]{1,64},\s*(?:(["'])(?:\|-|-\|)\1\s*,\s*(["'])"""
                        r"""(?P<cmd>[^"'\n]+)\2|(["'])\|\s*(?P<cmd2>[^"'\n]+)\4"""
                        r"""|(["'])(?P<cmd3>[^"'\n]+?)\s*\|\s*\6)""")
_SCALA_RUN = re.compile(r"""(["'])([^"'\n]{1,512})\1\s*\.\s*!{1,2}(?![=\w])""")
_DELETE = {
    "rm -rf": re.compile(r"(?:shutil\.rmtree|rmtree|FileUtils\.rm_rf|FileUtils\.rm_r|"
                         r"FileUtils\.remove_dir|fs\.rmSync|fs\.rm|rmSync|rimraf|"
                         r"fs\.rmdirSync|Deno\.removeSync|Deno\.remove|remove_tree|rmtree|removeItem|"
                         # other languages' tree deletions: Elixir, Go, Rust, .NET, Java
                         r"\brm_rf!?|os\.RemoveAll|remove_dir_all|Directory\.Delete|"
                         r"FileUtils\.deleteDirectory|deleteRecursively)\s*\("),
    "rm": re.compile(r"(?:os\.remove|os\.unlink|os\.rmdir|\.unlink|\bunlink|\brmdir|"
                     r"File\.delete|File\.unlink|FileUtils\.rm|fs\.unlinkSync|fs\.unlink|"
                     r"Path\([^)]*\)\.unlink|os\.removedirs|"
                     # Go, Rust, Java, .NET, R, Julia, Elixir, Lua
                     r"os\.Remove|remove_file|Files\.delete(?:IfExists)?|File\.Delete|"
                     r"file\.remove|\bfile_delete|\brm!?|File\.rm!?)\s*\("),
}
# a deletion asked for in the call's own arguments: unlink(x, recursive=TRUE) (R),
# rm(x; recursive=true) (Julia), fs.rm(x, {recursive: true}) (node)
_RECURSIVE = re.compile(r"(?i)\brecursive\s*[:=]\s*(?:true|t)\b")
# a deletion passed by name, as a callback: array_map("unlink", glob("/etc/*")) (PHP),
# map(os.remove, glob(…)), files.forEach(fs.unlinkSync), each(&File.method(:delete))
_DELETE_BY_NAME = re.compile(
    r"""["']?(?:unlink|rmdir|os\.remove|os\.unlink|shutil\.rmtree|fs\.unlinkSync|"""
    r"""fs\.rmSync|fs\.unlink|File\.delete|FileUtils\.rm_rf|FileUtils\.rm)["']?\s*[,)]"""
    r"""|File\.method\(\s*:(?:delete|unlink)\s*\)""")
# Any call named for removal or deletion given the home folder, however a language spells
# it (NSHomeDirectory(), os.homedir(), Path.home(), user_home, homedir(), "~")
_REMOVE_CALL = re.compile(r"\b\w*(?:[Rr]emove|[Dd]elete|[Ee]rase|[Pp]urge|[Ww]ipe|rm_?r?f?)\w*"
                          r"!?\s*\(")
_LISP_DELETE = re.compile(r'\(\s*(delete-directory|delete-file|f-delete)\s+"([^"]*)"(\s+t\b)?')
_PATHISH = re.compile(r"""["']((?:~|/|\.{1,2}/)[^"']*|(?![a-z]+://)[^"'\s/]+/[^"']*)["']""")
# writes, however the module is reached (`require('fs').appendFileSync(…)`)
_WRITE = re.compile(r"(?:\bopen|\bfopen|File\.open|File\.write|IO\.write|\bwriteFileSync|"

                    r"\bwriteFile|\bappendFileSync|\bappendFile|\bcreateWriteStream|"
                    r"file_put_contents|Deno\.writeTextFile(?:Sync)?|Deno\.writeFile(?:Sync)?|"
                    r"Bun\.write|io\.open|File\.append)\s*\(")
_WRITE_MODE = re.compile(r"""^\s*["'][^"']*["']\s*,\s*["'][wax+]|^\s*["'][>|+]""")
_PERL_OPEN = re.compile(r"""\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*(?:(["'])\s*(?:\+?>>?|\+<)"""
                        r"""\s*(?P<p2>[^"'\s<>+][^"']*?)\s*\1|(["'])(?:\+?>>?|\+<)\3\s*,\s*"""
                        r"""(["'])(?P<p3>[^"']+)\4)""")
_PERL_READ = re.compile(r"""\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*(?:(["'])<?\s*(?P<p>[^"'|>+<\s]"""
                        r"""[^"'|]*?)\s*\1\s*[)\s;]|(["'])<\3\s*,\s*(["'])(?P<q>[^"']+)\4)""")
_AWK_WRITE = re.compile(r'\bprintf?\b[^;{}\n]*?>>?\s*"(?P<p2>[^"]+)"')
_AWKS = frozenset({"awk", "gawk", "mawk", "nawk", "busybox-awk"})
_CHMOD = re.compile(r"(?:os\.chmod|fs\.chmodSync|File\.chmod|\bchmod)\s*\(")
_SOCKET = re.compile(r"socket\.socket|\bsocket\s*\(|create_connection|IO::Socket|TCPSocket|"
                     r"net\.Socket|net\.connect|createConnection|fsockopen|/dev/tcp/|\bsocat\b|"
                     r"Socket::INET|stream_socket_client|new\s+Socket")
_SHELLISH = re.compile(r"dup2|pty\.spawn|/bin/(?:ba|z|da)?sh\b|\bexec\s*\(|subprocess|"
                       r"spawn\(|popen|\bsystem\s*\(|\bsh\b.*-i|cmd\.exe|proc_open")
_FORK = re.compile(r"\bfork\b[^;]*\bwhile\b|\bwhile\b[^;]*\bfork\b|while\s*\(?\s*(?:1|true|"
                   r"True)\s*\)?\s*:?\s*\{?\s*os\.fork|for\s*\(\s*;;\s*\)\s*\{?\s*fork|"
                   r"\bloop\s*(?:do|\{)[^}]*\bfork\b")
# an allocation of ten gigabytes and more in one call (`bytearray(10**12)`, `[0] * 10**11`,
# `Buffer.alloc(1e12)`, `np.zeros(10**11)`, `'x'.repeat(1e10)`)
_HUGE_ALLOCATION = re.compile(
    r"(?:bytearray|bytes|alloc(?:Unsafe)?|Array|malloc|calloc|zeros|ones|empty|full|repeat"
    r"|\[\s*0\s*\]\s*\*|['\"][^'\"\n]{0,4}['\"]\s*\*)\s*\(?\s*(?:10\s*\*\*\s*(?:1[0-9]|[2-9][0-9])"
    r"|1e\+?(?:1[0-9]|[2-9][0-9])|2\s*\*\*\s*(?:3[4-9]|[4-9][0-9])|[0-9_]{11,})")


# perl and ruby call without brackets: unlink "/etc/passwd", unlink glob "/etc/*",
# system "rm -rf /", sh "…" (rake's)
_BARE = re.compile(r"""\b(unlink|rmdir|rmtree|remove_tree|system|exec|sh)\s+(?:glob\s*\(?\s*)?("""
                   r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|qq?\{[^}]*\})"""
                   r"""(?:\s*,\s*(?:"[^"]*"|'[^']*'))*)""")
_QW = re.compile(r"\b(?:system|exec)\s*\(?\s*qw\s*(?:\(([^)]*)\)|\{([^}]*)\}|\[([^\]]*)\]"
                 r"|/([^/]*)/|<([^>]*)>)")
# (node's reads however the module is reached: `require('fs').readFileSync(…)`)
_READ = re.compile(r"(?:\bopen|\bfopen|File\.read|IO\.read|File\.open|\breadFileSync|"
                   r"\breadFile|file_get_contents|Deno\.readTextFile|Deno\.readFile|Bun\.file|"
                   r"\breadLines|\breadRDS|\bread\.csv|"
                   r"io\.open)\s*\(")
# Calls that talk to the network: the one-liner counts as a downloader (curl) for the rules.
_NETWORK = re.compile(r"urllib\.request|urllib2|urlopen|\brequests\.\w+\s*\(|\bhttpx\b|aiohttp|"
                      r"http\.client|httplib|\bfetch\s*\(|Net::HTTP|LWP::|HTTP::Tiny|HTTParty|"
                      r"Faraday|curl_exec|curl_init|https?\.(?:request|get)\b|\baxios\b|"
                      r"open-uri|URI\.open|stream_context_create|XMLHttpRequest|WebSocket|"
                      r"smtplib|ftplib|paramiko|httr::|curl::|RCurl|download\.file|"
                      r"Downloads\.|Invoke-(?:WebRequest|RestMethod)|\biwr\b|\birm\b|"
                      r"(?:\bopen|fopen|file_get_contents)\s*\(\s*"
                      r"[\"']https?://")


def code_flag(name: str, args: Sequence[Word]) -> Word | None:
    """The code a one-liner runs: the word after ``-c``/``-e``/``-r`` (also ``-ne``,
    ``-pe``…), or the program operand of awk."""
    flag = LANGUAGES.get(name)
    if flag is None:
        return None
    if flag == "":
        i = 0
        while i < len(args):
            t = args[i].text
            if t in ("-f", "--file"):
                return None
            if t in ("-F", "-v", "--assign", "--field-separator"):
                i += 2
                continue
            if not t.startswith("-"):
                return args[i]
            i += 1
        return None
    for i, a in enumerate(args[:-1]):
        t = a.text
        if t == flag or t in ("--eval", "--command", "-E", "-p", "--print") or (
            flag in ("-e", "-c") and t.startswith("-") and not t.startswith("--")
            and t.endswith(flag[1]) and t[1:].isalpha()
        ):
            return args[i + 1]
        if not t.startswith("-") and name not in ("deno",):
            return None  # a script file: its code is not on the command line
    return None


def _literal_target(first: str) -> str:
    """A deletion's first argument: its literal (quoted), else not known."""
    strings, dynamic = literals(first)
    return _quote(home_interpolated(strings[0])) if strings and not dynamic else DYNAMIC


def _command_line(strings: list[str], dynamic: bool) -> str:
    """What a call's literals run: one literal is a command line; several are an argument
    list, each one word (`['sh', '-c', 'rm -rf ~']` runs `rm -rf ~`)."""
    words = strings if len(strings) == 1 else [_word(t) for t in strings]
    return " ".join(words) + (f" {DYNAMIC}" if dynamic else "")


def _word(text: str) -> str:
    """An argument of a list as one shell word (a bare `~` kept bare: read as the home, as
    an expanding caller would, the stricter reading)."""
    return text if re.fullmatch(r"~[\w./-]*", text) else _quote(text)


# Calls that run code of the one-liner's own language, by language family: a literal is
# read as more of the same; anything else (``exec(b64decode(…))``) is code it cannot read.
_EVAL = {
    "python": re.compile(r"\b(?:exec|eval|compile)\s*\("),
    "node": re.compile(r"\beval\s*\(|\bnew\s+Function\s*\(|\bvm\.run\w*\s*\("),
    "ruby": re.compile(r"\b(?:eval|instance_eval|class_eval|module_eval)\s*\("),
    "perl": re.compile(r"\beval\s*\("),
    "php": re.compile(r"\beval\s*\("),
}
# perl's and ruby's eval without brackets: `eval pack("H*", …)`, `eval $code` (not perl's
# `eval { … }`, which catches errors)
_BARE_EVAL = re.compile(r"\beval\s+(?![{(\s])([^;]*)")
_FAMILY = {"python": "python", "python2": "python", "python3": "python", "pypy": "python",
           "pypy3": "python", "node": "node", "nodejs": "node", "bun": "node", "deno": "node",
           "ruby": "ruby", "perl": "perl", "php": "php", "mongosh": "node", "mongo": "node"}
_LITERAL_FIRST = re.compile(r"""\s*(?:\[\s*|\(\s*)?[rRbBuU]?["'`]""")


def _evaluated(name: str, args: str, depth: int) -> list[str]:
    """What an eval of ``args`` runs: its literals read as more of the same language, or
    code it cannot read (``exec(b64decode(…))``, ``eval $code``)."""
    strings, dynamic = literals(args)
    if dynamic or not strings or depth >= 3:
        return [DYNAMIC]
    return [t for text in strings for t in shell_strings(name, text, depth + 1)]


_TIOCSTI = re.compile(r"\b(?:0x5412|21522)\b")
_QUOTED = re.compile(r""""((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'""")


def shell_strings(name: str, code: str, depth: int = 0) -> list[str]:
    """Shell text equivalent to what a one-liner spawns, deletes, writes and re-modes."""
    out: list[str] = []
    family = _FAMILY.get(name, "")
    code = looked_up(family, code)  # `__import__('os').system(…)` is `os.system(…)`
    code = quote_operators(family, code)  # ruby's %q{…}, perl's q{…}: literals
    evaluates = _EVAL.get(family)
    evals = {m.start() for m in evaluates.finditer(code)} if evaluates else set()
    for m in _SPAWN.finditer(code):
        if m.start() in evals:
            continue  # python's exec(): the language's own code, read below
        args = _call_args(code, m.end())
        strings, dynamic = literals(args)
        if strings or dynamic:
            if len(strings) > 2 and strings[0].rsplit("/", 1)[-1] == strings[1]:
                strings = strings[1:]  # execv's and posix_spawn's path, then argv[0]
            out.append(_command_line(strings, dynamic))
        if dynamic and not _LITERAL_FIRST.match(args):
            out.append(DYNAMIC)  # system(pack("H*", …)): the command itself is computed
    if "TIOCSTI" in code or _TIOCSTI.search(code):  # characters pushed into the terminal's
        # input (the request by name or by number, 0x5412): typed, and run
        typed = [a or b for a, b in _QUOTED.findall(code)]  # by the shell reading it
        out += [literal_read(t).replace("\r", "\n") for t in typed] or [DYNAMIC]
    if evaluates is not None:
        for m in evaluates.finditer(code):
            out += _evaluated(name, _call_args(code, m.end()), depth)
    if family in ("perl", "ruby"):
        for m in _BARE_EVAL.finditer(code):
            out += _evaluated(name, m.group(1), depth)
    if family and computed_names(family, code):
        out.append(DYNAMIC)
    out += fetched_code(code, family)  # source("https://…"), import("https://…"), …
    out += loaded_files(code)  # runpy.run_path("/tmp/x.py"), require("/tmp/x.js"), …
    if name in ("perl", "ruby", "php"):
        out += [literal_read(m.group(1)) for m in _BACKTICK.finditer(code)]
    if family in ("perl", "ruby"):  # `system "…"`, `exec "/bin/sh", "-c", "…"`: no brackets
        for m in _BARE_CALL.finditer(code):
            out.append(_command_line(*literals(m.group(1))))
        out += [bracketed(m) for m in _PERCENT_X.finditer(code)]  # ruby's %x(…), perl's qx{…}
        for m in _PIPE_OPEN.finditer(code):  # perl's open(F, "|-", "sh"): what it prints runs
            program = m.group("cmd") or m.group("cmd2") or m.group("cmd3")
            out += [program] + ([DYNAMIC] if program.split()[0].rsplit("/", 1)[-1] in (
                "sh", "bash", "zsh", "dash", "ksh") else [])
    out += [m.group(2) for m in _SCALA_RUN.finditer(code)]  # Scala's `"rm -rf x".!`
    if name in LANGUAGES and LANGUAGES[name] == "":  # awk: print | "cmd", "cmd" | getline
        out += [m.group(1) for m in re.finditer(r'\|\s*"([^"]*)"', code)]
        out += [m.group(1) for m in re.finditer(r'"([^"]*)"\s*\|\s*getline', code)]
    for command, pattern in _DELETE.items():
        for m in pattern.finditer(code):
            args = _call_args(code, m.end())
            first = top_comma(args)[0]
            path = (receiver_folder(code, m.end()) if not first.strip() else
                    target(first) if HOME.search(first) else _literal_target(first))
            out.append(f"{'rm -rf' if _RECURSIVE.search(args) else command} -- {path}")
    for m in _REMOVE_CALL.finditer(code):
        if HOME.search(_call_args(code, m.end())):
            out.append("rm -rf -- ~")
    for m in _LISP_DELETE.finditer(code):  # (delete-directory "~" t): Emacs Lisp
        command = "rm -rf" if m.group(1) != "delete-file" and m.group(3) else "rm"
        out.append(f"{command} -- {_quote(m.group(2))}")
    if _DELETE_BY_NAME.search(code):
        # what it is handed is not in the call: every path the code names, else unknown
        out += [f"rm -rf -- {_quote(p)}" for p in _PATHISH.findall(code)] or [
            f"rm -rf -- {DYNAMIC}"]
    writes: list[str] = []
    reads: list[str] = []
    for m in _WRITE.finditer(code):
        args = _call_args(code, m.end())
        first, _, second = top_comma(args)
        written = m.group(0).lower()
        if _WRITE_MODE.search(args) or MODE_WRITES.match(second) or any(
                w in written for w in ("write", "put", "append")):
            writes.append(target(first))
        else:
            reads.append(target(first))
    for op, path in pathlib_ops(code):  # (Path.home() / ".ssh" / "x").write_text(…)
        if op == "write":
            writes.append(path)
        elif op == "read":
            reads.append(path)
        else:
            out.append(f"{op} -- {path}")
    # perl's open(F, ">x"), open(my $f, '>>', 'x'); awk's print … > "x"
    opens = _PERL_OPEN if name == "perl" else _AWK_WRITE if name in _AWKS else None
    if opens is not None:
        writes += [_quote(home_interpolated(m.group('p2') or m.groupdict().get('p3') or ''))
                   for m in opens.finditer(code)]
    if name in ("rscript", "r"):  # cat(…, file = "~/.bashrc"), writeLines(x, con)
        writes += r_writes(code)
    if name in TCL or not name:  # file delete -force $env(HOME)/.ssh (an unknown
        # program's code, read for what any language we read would do with it)
        out += tcl_deletes(code)
    out += [f"rm -rf -- {p}" for p in bare_tree_deletes(code)]  # Pathname(…).rmtree
    if name == "perl":  # open(my $f, "<", "$ENV{HOME}/.netrc"), open(F, "x.txt")
        reads += [_quote(home_interpolated(m.group("p") or m.group("q")))
                  for m in _PERL_READ.finditer(code)]
    if name == "perl":  # system qw(rm -rf /): a list of words
        out += [next(g for g in m.groups() if g is not None) for m in _QW.finditer(code)]
    if name in ("perl", "ruby"):
        for m in _BARE.finditer(code):
            strings, _ = literals(m.group(2))
            call = m.group(1)
            if call in ("system", "exec", "sh"):  # sh: rake's, in a Rakefile
                out.append(" ".join(strings) if strings else DYNAMIC)
            else:
                command = "rm -rf" if call in ("rmtree", "remove_tree") else "rm"
                out += [f"{command} -- {_quote(home_interpolated(t))}" for t in strings] or [
                    f"{command} -- {DYNAMIC}"]
    for m in _READ.finditer(code):
        args = _call_args(code, m.end())
        if not _WRITE_MODE.search(args) and not _WRITE.match(code, m.start()):
            reads.append(target(top_comma(args)[0]))
    for source, destination in copies(code):  # shutil.copy, fs.copyFileSync, File::Copy
        out.append(f"cp -- {source} {destination}")
    reads += home_mentions(code)
    out += [f": > {w}" for w in dict.fromkeys(writes)]
    out += [f"cat -- {r}" for r in dict.fromkeys(reads) if r != DYNAMIC]
    out += copied(reads, writes)
    if _NETWORK.search(code) or _SOCKET.search(code):  # (a socket sends as a client does)
        out.append(f"curl -- {DYNAMIC}")
    out += downloaded_to(code)  # urlretrieve(URL, FILE): `curl -o FILE URL`
    for m in _CHMOD.finditer(code):
        args = _call_args(code, m.end())
        strings, _ = literals(args)
        mode = re.search(r"0o?([0-7]{3,4})", args)
        if strings:
            out.append(f"chmod {mode.group(1) if mode else '777'} -- {_quote(strings[0])}")
    return out


# what each alert (of a one-liner, or of a wrapper's options) says
ALERT_TEXTS = {"reverse-shell": "connects a socket to a shell",
               "socket": "opens a network socket",
               "fork-bomb": "fork bomb (a loop of forks)",
               "schedules": "schedules a command to run later, outside this call",
               "exhausts": "allocates more memory than a machine has",
               "destroys": "empties a table, a collection or a database from code"}


def alerts(name: str, code: str) -> list[str]:
    """Dangerous shapes with no shell equivalent: a socket wired to a shell, a fork loop, a
    table emptied."""
    found: list[str] = []
    if _SOCKET.search(code):
        if _SHELLISH.search(code):
            found.append("reverse-shell")
        else:
            found.append("socket")
    if _FORK.search(code):
        found.append("fork-bomb")
    if _HUGE_ALLOCATION.search(code):
        found.append("exhausts")
    if wipes(code):
        found.append("destroys")
    return found
