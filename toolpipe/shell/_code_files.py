"""The files a one-liner's code reads, writes, copies and deletes, as shell words: where a
path is spelt through the home folder (``Path.home() / ".ssh" / "id_ed25519"``,
``os.homedir() + "/.profile"``, perl's ``"$ENV{HOME}/.bashrc"``, ruby's ``Dir.home``), a
pathlib chain's own operation, a loop variable's folder, and what the code does with what
it read: a program that reads a file and writes another may copy it there, and one that
reads a file and talks to the network may send it (``curl -T``), whatever its library.

Every path that cannot be worked out is ``$TOOLPIPE_DYNAMIC``, which the rules count as
outside the workspace: a guess that fails, fails closed."""

from __future__ import annotations

import re

from toolpipe._text import character
from toolpipe.shell._reflection import _STRING, _call_args

DYNAMIC = "$TOOLPIPE_DYNAMIC"


_JOIN = re.compile(r"[ \t]*(?:\+|\.\.?|)[ \t]*")  # between two literals read as one
# a join to what is not a literal: `+`, Lua's `..`, PHP's and Perl's `.` with a blank beside
# it (not a method's call, `"…".format(x)`)
_JOIN_OPERATOR = re.compile(r"[ \t]*(?:\+|\.\.|[ \t]\.|\.[ \t])[ \t]*")


def literals(args: str) -> tuple[list[str], bool]:
    """String literals of an argument list (literals joined by `+`, `.`, `..` or nothing
    read as one: `'rm' + ' -rf ~'`), and whether anything else is in it. Each literal is
    found whole first, so that quotes of the other kind inside one (`'rm "-rf" "/"'`)
    stay its text (they were once read as literals of their own, joined)."""
    strings: list[str] = []
    rest: list[str] = []
    at = 0
    for m in _STRING.finditer(args):
        if m.start() < at:
            continue  # (inside the expression a literal was joined to)
        text = m.group(0)[1:-1]
        if strings and _JOIN.fullmatch(args, at, m.start()):
            strings[-1] += text
        else:
            rest.append(args[at:m.start()])
            strings.append(text)
        at = m.end()
        joined = _JOIN_OPERATOR.match(args, at)
        if joined is not None and not _STRING.match(args, joined.end()) and (
                args[joined.end():].strip()):
            # a literal joined to an expression (`"rm -rf " . getenv("HOME")`, `"rm -rf " +
            # dir`): one string, its end the home if the expression names it, else unknown
            strings[-1] += "~" if HOME.search(args, joined.end()) else DYNAMIC
            at = len(args)
    rest.append(args[at:])
    dynamic = bool(re.search(r"[A-Za-z_$@]", re.sub(
        r"\b(?:shell|True|False|true|false|TRUE|FALSE|check|capture_output|text|stdout|stderr|"
        r"encoding|utf-?8|subprocess\.\w+|PIPE|DEVNULL|ignore_errors|recursive|force|"
        r"exist_ok|mode|0o\d+|\d+)\b", "", "".join(rest))))
    return [literal_read(s) if "\\" in s else s for s in strings], dynamic


# Ruby's %q{…}, %Q{…}, %{…} and Perl's q{…}, qq{…}: a string between other brackets (or a
# character repeated, `%q|…|`, `q!…!`), read as the quoted literal it is, so that every
# reading of literals reads it (`system %q{rm -rf ~}` was read as a call with no command;
# found by classes-fresh76.txt). Ruby's `%{` and `%(` only: Perl's `%{…}` is a hash.
BRACKETED = (r"\{((?:[^{}]|\{[^{}]*\})*)\}|\(((?:[^()]|\([^()]*\))*)\)"  # (one level nested)
             r"|\[((?:[^\[\]]|\[[^\[\]]*\])*)\]|<([^<>]*)>|([|!/#~^])(.*?)\5")
_QUOTE_OPERATOR = {
    "ruby": re.compile(r"(?<![\w$@%])%[qQ]?(?:" + BRACKETED + ")", re.S),
    "perl": re.compile(r"(?<![\w$@%&>-])qq?\s*(?:" + BRACKETED + ")", re.S),
}


def quote_operators(family: str, code: str) -> str:
    """``code`` with Ruby's and Perl's quote operators written as double-quoted literals
    (see above); other languages' code as it is."""
    operator = _QUOTE_OPERATOR.get(family)
    if operator is None or ("%" not in code and "q" not in code):
        return code

    def literal(m: re.Match[str]) -> str:
        return '"' + bracketed(m).replace("\\", "\\\\").replace('"', '\\"') + '"'
    return operator.sub(literal, code)


def bracketed(m: re.Match[str]) -> str:
    """The text between the brackets (or the repeated character) ``BRACKETED`` matched."""
    return next(g for g in (m.group(1), m.group(2), m.group(3), m.group(4), m.group(6))
                if g is not None)


_ESCAPE = re.compile(
    r"\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|([0-7]{1,3})|(.))", re.S)
# what each simple escape stands for; `\\$` and `\\@` the sigil they keep out of perl's,
# ruby's and PHP's interpolation (`system("rm -rf \\$d")` hands the shell `rm -rf $d`;
# Python hands `\\$d` on: read as the variable, the stricter reading). Any other escape
# keeps its backslash, for the shell to read.
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
           "\\": "\\", "'": "'", '"': '"', "`": "`", "$": "$", "@": "@", "\n": ""}


def literal_read(literal: str) -> str:
    """A literal's escapes read (`\\n`, `\\x41`, `\\u00e9`, `\\101`, `\\$`), its other text
    as it is (the codec `unicode_escape` read it as Latin-1 and warned at `\\/`)."""
    def one(m: re.Match[str]) -> str:
        hex2, hex4, hex8, octal, char = m.groups()
        if hex2 or hex4 or hex8:
            return character(int(hex2 or hex4 or hex8, 16))
        if octal:
            return chr(int(octal, 8))
        return _SIMPLE.get(char, "\\" + char)
    return _ESCAPE.sub(one, literal)


def top_comma(args: str) -> tuple[str, str, str]:
    """``args`` split at its first comma outside brackets and strings."""
    depth, i = 0, 0
    while i < len(args):
        m = _STRING.match(args, i)
        if m:
            i = m.end()
            continue
        if args[i] in "([{":
            depth += 1
        elif args[i] in ")]}":
            depth -= 1
        elif args[i] == "," and depth == 0:
            return args[:i], ",", args[i + 1:]
        i += 1
    return args, "", ""

# The home folder however a language spells it: os.homedir(), Path.home(), expanduser,
# Dir.home, getenv("HOME"), ENV["HOME"], $ENV{HOME}, process.env.HOME, Deno.env.get("HOME")
HOME = re.compile(r"""NSHomeDirectory|homedir|home_dir|[Hh]omeDirectory|user_home|"""
                  r"""Path\.home\(|expanduser|user\.home|getenv\(\s*["']HOME|Dir\.home\b|"""
                  r"""env\.get\(\s*["']HOME|(?:ENV|environ)\[\s*["']HOME|\$ENV\{\s*["']?HOME|"""
                  r"""\benv\.HOME\b|Getenv\(\s*"HOME|\$_SERVER\[\s*["']HOME|["']~/?["']|"""
                  r"""path\.expand\(|\$env\(HOME\)""")
# the home written inside a string: perl's "$ENV{HOME}/…", ruby's "#{Dir.home}/…", a
# template's `${os.homedir()}/…`, an f-string's "{Path.home()}/…"
_IN_STRING = re.compile(r"""\$ENV\{\s*["']?HOME["']?\s*\}|\$env\(HOME\)|[#$]?\{([^{}\n]{1,80})\}""")
_HOME_NAMES = frozenset({"HOME", "~", "USERPROFILE"})


def home_interpolated(text: str) -> str:
    """``text`` with each interpolation of the home folder read as ``~``."""
    if "{" not in text and "$env(" not in text:
        return text
    return _IN_STRING.sub(lambda m: "~" if m.group(1) is None or HOME.search(
        m.group(1)) or re.search(r"\bHOME\b", m.group(1)) else m.group(0), text)


def quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def target(expression: str) -> str:
    """The file an expression names: a literal (several joined: ``Path("a") / "b"``); a
    literal under the home whatever expands it; a path under the home folder however it is
    reached, its literals joined (``os.path.join(os.environ["HOME"], ".ssh", "id")``);
    anything else is not known."""
    strings, dynamic = literals(_JOINERS.sub("", expression))
    strings = [home_interpolated(s) for s in strings]
    if strings and not dynamic:  # (several: a join, `Path("a") / "b"`)
        return quote("/".join([strings[0].rstrip("/")] + [s.strip("/") for s in strings[1:]])
                     if len(strings) > 1 else strings[0])
    tilde = next((s for s in strings if s.startswith("~/") and s.strip("~/")), None)
    if tilde is not None:  # a literal under the home, whatever expands it (expand_path…)
        return quote(tilde)
    if HOME.search(expression):
        parts = [s for s in strings if s not in _HOME_NAMES]
        if parts and parts[0].startswith("~"):
            return quote(parts[0])
        joined = "/".join(p.strip("/") for p in parts if p.strip("/"))
        return quote("~/" + joined if joined else "~")
    return DYNAMIC


# what joins a path's parts or wraps it, leaving its literals as they are
_JOINERS = re.compile(r"(?:os\.path\.join|path\.join|path\.resolve|File\.join|File\.expand_path|"
                      r"(?:pathlib\.)?(?:Pure|Posix)?Path|\.joinpath)\s*\(|"
                      r"\.(?:expanduser|resolve|absolute)\(\)")


# A pathlib chain and its operation: Path("x").write_text(…), (Path.home() / ".ssh" /
# "authorized_keys").write_text(…), Path("~/.bashrc").expanduser().open("a"),
# Path.home().joinpath(".ssh", "id").read_bytes()
PATHLIB = re.compile(
    r"""(?P<base>(?:pathlib\.)?Path\.home\(\)|(?:pathlib\.)?(?:Pure)?Path\((?P<args>[^()]*)\))"""
    r"""(?P<parts>(?:\s*/\s*(?:["'][^"'\n]*["']|\w+))*)\s*\)?(?:\.expanduser\(\))?"""
    r"""(?:\.joinpath\((?P<join>[^()]*)\))?\.(?P<op>write_text|write_bytes|touch|open|"""
    r"""read_text|read_bytes|unlink|rmdir|chmod)\(""")
# a mode that writes, given as an argument (open(f, "a"), open(f, mode="w+"), .open("wb"))
MODE_WRITES = re.compile(r"""\s*(?:mode\s*=\s*)?[rb]?["'](?=[rwaxbt+]{1,4}["'])[rbt]*[wax+]""")


def pathlib_ops(code: str) -> list[tuple[str, str]]:
    """(operation, file) for each pathlib chain: "read", "write", "rm" or "chmod"."""
    out = []
    for m in PATHLIB.finditer(code):
        expression = " ".join(g for g in (m.group("base"), m.group("parts"), m.group("join"))
                              if g)
        path = target(expression)
        op = m.group("op")
        if op == "open":
            op = "write" if MODE_WRITES.match(_call_args(code, m.end())) else "read"
        out.append(({"write_text": "write", "write_bytes": "write", "touch": "write",
                     "read_text": "read", "read_bytes": "read", "unlink": "rm",
                     "rmdir": "rm"}.get(op, op), path))
    return out


def receiver_folder(code: str, at: int) -> str:
    """What a method call without arguments ending at ``at`` acts on (``.unlink(``): a
    pathlib chain's file (``Path("x").unlink()``), a loop variable's folder (``for p in
    Path(".").rglob("*.pyc")``: what "." holds), else not known."""
    before = code[:at]
    chain = _CHAIN_END.search(before)
    if chain is not None:
        return target(chain.group(1))
    m = re.search(r"(\w+)\s*\.\s*\w+\s*\($", before)
    if m is None:
        return DYNAMIC
    bound = re.search(rf"\bfor\s+{re.escape(m.group(1))}\s+in\s+([^\n;]{{1,200}})", code)
    found = _LOOPED.match(bound.group(1)) if bound is not None else None
    if found is None:
        return DYNAMIC
    folder = target(found.group("folder"))
    if folder == DYNAMIC:
        return folder
    return quote(folder[1:-1].rstrip("/") + "/" + (found.group("glob") or "*"))


# a path chain just before a method's name: Path("x").unlink(, (Path.home() / "a").rmdir(,
# Ruby's Pathname.new(Dir.home).join(".ssh").rmtree
_NESTED = r"""\((?:[^()]|\([^()]*\))*\)"""  # a call's brackets, one call inside
_CHAIN_END = re.compile(
    r"""((?:pathlib\.)?(?:Path\.home\(\)|(?:Pure)?Path""" + _NESTED
    + r""")(?:\s*/\s*["'][^"'\n]*["'])*|Pathname\.new""" + _NESTED
    + r"""(?:\.join\([^()]*\))*)\s*\)?\s*\.\s*\w+\s*\($""")
# what a loop walks: a folder's listing or glob (Path(".").rglob("*.pyc"), os.listdir("d"))
_LOOPED = re.compile(
    r"""(?P<folder>(?:pathlib\.)?(?:Path\.home\(\)|(?:Pure)?Path\([^()]*\)|os\.listdir\([^()]*\)|"""
    r"""glob\.glob\([^()]*\))(?:\s*/\s*["'][^"'\n]*["'])*)"""
    r"""(?:\.r?glob\(\s*["'](?P<glob>[^"']*)["']\s*\)|\.iterdir\(\))?""")

# copies, whatever the library: shutil.copy*, fs.copyFileSync, fs.cpSync, FileUtils.cp,
# File::Copy's copy, PHP's copy(), Deno.copyFile, links made to a file
_COPY = re.compile(r"(?:shutil\.copy\w*|\bcopyFileSync|\bcopyFile|\bfs\.cp(?:Sync)?|"
                   r"FileUtils\.(?:cp\w*|copy\w*|install)|File::Copy::copy|\bcopy|"
                   r"Deno\.copyFile(?:Sync)?|os\.(?:sym)?link|\b(?:sym)?linkSync)\s*\(")


def copies(code: str) -> list[tuple[str, str]]:
    """(source, destination) of each copy call."""
    out = []
    for m in _COPY.finditer(code):
        first, _, rest = top_comma(_call_args(code, m.end()))
        out.append((target(first), target(top_comma(rest)[0])))
    return out


def copied(reads: list[str], writes: list[str]) -> list[str]:
    """What a program does with the files it read and the files it wrote: it may have
    copied one into the other (a read of a secret and a send in one program is judged by
    the rules already: a secret read where the network is used)."""
    known = [r for r in dict.fromkeys(reads) if r != DYNAMIC][:8]
    return [f"cp -- {r} {w}" for r in known for w in dict.fromkeys(writes[:8]) if w != r]


# R's writes: the file a call names (`file = …`, `con = …`), else its place among the
# arguments (`writeLines(text, con)`, `saveRDS(x, path)`, `sink(path)`)
_R_WRITE = re.compile(r"\b(cat|write|writeLines|write\.csv|write\.table|saveRDS|sink|writeBin|"
                      r"file\.create|file\.copy)\s*\(")
_NAMED_FILE = re.compile(r"""^\s*(?:file|con|path|to)\s*=\s*(.+?)\s*$""", re.S)


def r_writes(code: str) -> list[str]:
    out = []
    for m in _R_WRITE.finditer(code):
        rest, args = _call_args(code, m.end()), []
        while rest.strip():
            first, _, rest = top_comma(rest)
            args.append(first)
        named = [n.group(1) for a in args if (n := _NAMED_FILE.match(a))]
        place = 0 if m.group(1) in ("sink", "file.create") else 1
        if m.group(1) == "cat" and not named:
            continue  # cat(…) without file = prints
        chosen = named[0] if named else args[place] if len(args) > place else None
        if chosen is not None:
            out.append(target(chosen))
    return out


_TCL_DELETE = re.compile(r"\bfile\s+delete\s+((?:-force\s+|--\s+)*)([^\n;\]]+)")


def tcl_deletes(code: str) -> list[str]:
    """Tcl's `file delete [-force] PATH…` as rm's command lines (its home `$env(HOME)`)."""
    return [f"{'rm -rf' if '-force' in m.group(1) else 'rm'} -- "
            + " ".join(quote(home_interpolated(p)) if not p.startswith("~") else p
                       for p in m.group(2).split())
            for m in _TCL_DELETE.finditer(code)]


_BARE_TREE = re.compile(r"\.(?:rmtree|rm_rf|rm_r|delete)\b(?![\s(]*\()")


def bare_tree_deletes(code: str) -> list[str]:
    """A tree deleted by a method called without brackets on a path chain (Ruby's
    `Pathname.new(Dir.home).join(".ssh").rmtree`): the chain's path."""
    out = []
    for m in _BARE_TREE.finditer(code):
        path = receiver_folder(code[:m.end()] + "(", m.end() + 1)
        if path != DYNAMIC:
            out.append(path)
    return out


_HOME_LITERAL = re.compile(r"""["'](~/[^"'\s]{1,200})["']""")


def home_mentions(code: str) -> list[str]:
    """Paths under the home a program's code names as literals (`"~/.netrc"` handed to a
    download's options, a string built for a command): read, as far as the rules go (a
    secret named where the network is used is a secret sent)."""
    return [quote(m.group(1)) for m in _HOME_LITERAL.finditer(code)]


# code a call loads from an address (R's source, node's import, PHP's include, Lua's
# dofile, Julia's Pkg.add(url = …), R's install_url; with brackets or without, as PHP's
# `require_once "…"` and Lua's `dofile "…"`): a package run from an address, asked about
# as `deno run URL` and `npx URL` are
# (the name's stem where a word starts, any ending: `devtools::source_url`, `source_gist`,
# `require_once`, `loadfile`; not `download` or `upload`, whose files are data)
_LOADS_URL = re.compile(r"""(?<![A-Za-z0-9])(?:source|import|require|include|load|dofile|"""
                        r"""Pkg\.add|install_url|install_git)[\w.]*"""
                        r"""(?:\s*\(\s*|[ \t]+)(?:url\s*=\s*)?["'](https?://[^"'\s]{1,512})["']""")
# a package fetched from a repository by name and installed (R's install_github)
_FROM_REPOSITORY = re.compile(r"""\binstall_(?:github|gitlab|bitbucket)\s*\(\s*["']"""
                              r"""([\w.-]{1,64}/[\w.-]{1,128})["']""")
# the language's own eval handed as a value (`.then(eval)`, `map(eval, …)`): what it is
# given is code no reading can follow
_EVAL_BY_NAME = re.compile(r"""[(,]\s*(?:eval|Function|exec|execfile)\s*[),]""")
# the language's eval called where an address is named (`eval(parse(text =
# readLines("https://…")))`, `exec(get("https://…"))`): code fetched and run, whichever
# call fetches it
_EVAL_CALL = re.compile(r"""(?<![\w.])(?:eval|evalq|exec|execfile|loadstring|Function|"""
                        r"""instance_eval|class_eval)\s*\(""")
_ADDRESS = re.compile(r"""["']https?://""")


# a library's call that downloads an address into a file it names (python's urlretrieve and
# wget.download, perl's LWP getstore and mirror, R's download.file, Julia's download,
# php's copy): curl's `-o FILE URL`, which the session's flow knows as a download
_DOWNLOAD_TO = re.compile(
    r"""\b(?:urlretrieve|wget\.download|getstore|mirror|download\.file|download|copy)"""
    r"""\s*\(\s*(?:url\s*=\s*)?["'](https?://[^"'\s]{1,512})["']\s*,\s*"""
    r"""(?:(?:out|destfile)\s*=\s*)?["']([^"'\n]{1,256})["']""")


def downloaded_to(code: str) -> list[str]:
    """Shell text for each file a library's call downloads an address into (above)."""
    return [f"curl -o {quote(m.group(2))} {quote(m.group(1))}"
            for m in _DOWNLOAD_TO.finditer(code)]


# code a call loads from a file or a folder it names by an absolute path (python's
# runpy.run_path, SourceFileLoader, spec_from_file_location, site.addsitedir and sys.path;
# ruby's load and require; node's require and import(); perl's do, require and use lib;
# php's include and require; lua's dofile and loadfile; R's source, sys.source, load_all
# and a package installed from a path): the file run, as `. FILE` (one in a scratch
# folder no call wrote is asked about, as `python3 /tmp/x.py` is)
_LOADS_FILE = re.compile(
    r"""(?<![\w.])(?:sys\.path\.(?:append|insert)|use\s+lib|(?:\w+(?:\.|::)){0,4}(?:source|"""
    r"""sys\.source|require(?:_relative|_once)?|include(?:_once)?|load(?:file|_all|_source)?|"""
    r"""dofile|do|import|run_path|execfile|SourceFileLoader|spec_from_file_location|"""
    r"""addsitedir|install_local|install\.packages))(?:\s*\(\s*|[ \t]+)"""
    r"""(?:[^"'()\n]{0,64},\s*|["'][^"'\n]{0,64}["']\s*,\s*)?(?:\w+\s*=\s*)?"""
    r"""["'](/[^"'\n]{1,512})["']""")


def loaded_files(code: str) -> list[str]:
    """Shell text for each file of code a call loads by its absolute path (above)."""
    return [f". {quote(m.group(1))}" for m in _LOADS_FILE.finditer(code)]


def fetched_code(code: str, family: str = "") -> list[str]:
    """Shell text for code a program fetches and runs: a package run from an address or
    fetched from a repository by name, or code that cannot be read. (Ruby's `source URL`
    is no load: a Gemfile's or a Podfile's package index, `source "https://rubygems.org"`.)"""
    out = [f"npx {quote(m.group(1))}" for m in _LOADS_URL.finditer(code)
           if not (family == "ruby" and m.group(0).startswith("source"))]
    out += [f"npx github:{m.group(1)}" for m in _FROM_REPOSITORY.finditer(code)]
    if _EVAL_BY_NAME.search(code) or (_EVAL_CALL.search(code) and _ADDRESS.search(code)):
        out.append(DYNAMIC)
    return out
