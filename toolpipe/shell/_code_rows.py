"""What a program's ``[[code]]`` row finds: the shell code in its options and arguments
(``carried_code``) and on its input (``input_code``), each with a label naming where."""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Sequence

from toolpipe.shell._table import CODE, option_values

# A row's group named for a language: the code is that language's, given to its one-liner
# (`vim -c 'lua os.execute(…)'` is read as `lua -e 'os.execute(…)'`)
_IN_LANGUAGE = {"in_lua": "lua -e", "in_python": "python3 -c", "in_perl": "perl -e",
                "in_ruby": "ruby -e"}


# awk's string made by concatenation (`system("rm -rf " ENVIRON["HOME"])`): its literals as
# written, a variable of the environment as the shell's, any other value (a field, a
# variable of awk's) as a value no one knows
_AWK_PIECE = re.compile(r'"((?:[^"\\]|\\.)*)"|ENVIRON\[\s*"(\w+)"\s*\]|(\$?\w+(?:\[[^\]]*\])?)')


_CODE_GROUPS = ("code", "code2", "awk_string", *_IN_LANGUAGE)


def _awk_string(text: str) -> str:
    out = []
    for literal, variable, value in _AWK_PIECE.findall(text):
        out.append(literal.replace('\\"', '"') if not (variable or value) else
                   f"${{{variable}}}" if variable else "${awk_value}")
    return "".join(out)


def _code_of(m: re.Match[str]) -> str:
    groups = m.groupdict()
    if groups.get("awk_string"):
        return _awk_string(groups["awk_string"])
    for group, runner in _IN_LANGUAGE.items():
        if groups.get(group):
            return f"{runner} {shlex.quote(groups[group])}"
    # (`code2`: a second spelling of the code in the same pattern, where a group's name
    # may stand once: gdb's `shell CMD` and `call system("CMD")`)
    return groups.get("code") or groups.get("code2") or m.group(0)


def carried_code(name: str, args: Sequence[str]) -> list[tuple[str, str]]:
    """(label, code) for each piece of shell code the row of ``name`` finds in ``args``."""
    row = CODE.get(name)
    if row is None:
        return []
    found: list[tuple[str, str]] = []
    start = 0
    if row.after:
        start = next((i + 1 for i, a in enumerate(args) if a in row.after), len(args))
    own = args[:max(start - 1, 0)] if row.options_before_after and start < len(args) else args
    for opt in row.options:
        for value in option_values(own, opt.option):
            m = opt.value.match(value)
            if m is not None:
                found.append((f"{name} {opt.option}", _code_of(m)))
    if row.shell_after:
        at = next((i + 1 for i, a in enumerate(args) if a in row.shell_after), len(args))
        if at < len(args):
            found.append((f"{name} {args[at - 1]}", " ".join(args[at:])))
    if row.value_after is not None:
        found += [(f"{name} {a}", value) for a, value in itertools.pairwise(args)
                  if row.value_after.fullmatch(a)]
    if row.arguments:
        for a in args[start:]:
            for p in row.arguments:
                for m in p.finditer(a):
                    if any(m.groupdict().get(g) for g in _CODE_GROUPS):
                        found.append((f"{name} argument", _code_of(m)))
                if len(found) > 16:
                    return found
    if row.operands == "code":
        for a in args[start:]:
            if a and not a.startswith("-") and a not in row.after:
                found.append((f"{name} command", a))
    elif row.operands == "argv" and start < len(args):
        # `kubectl exec pod -- rm -rf /data`: the words after are one command line, read
        # as such (options and a container name first are read as an unknown program's)
        found.append((f"{name} command line", " ".join(shlex.quote(a) for a in args[start:])))
    return found


MAX_INPUT_LINES = 200
_ANY = "(?P<code>.+)"


def input_code(name: str, text: str) -> list[tuple[str, str]]:
    """(label, code) for each line of a program's input that its row reads as a command
    (``psql <<< '\\! rm -rf /'``, ``ed <<< '!rm -rf /'``): what a program runs from its
    options or arguments, it runs from its input too. An option that takes any value as
    code (``ssh -S``) says nothing about the input, and is left out."""
    row = CODE.get(name)
    if row is None:
        return []
    # an option's value is matched from its start, an argument's pattern anywhere (as the
    # arguments are read)
    # (a value that is code from its first character, as `git -x`'s, says nothing either)
    patterns = [o.value.match for o in row.options
                if o.value.pattern != _ANY and not o.value.pattern.startswith("(?P<code>")]
    patterns += [p.search for p in row.arguments]
    found: list[tuple[str, str]] = []
    for line in text.splitlines()[:MAX_INPUT_LINES]:
        for find in patterns:
            m = find(line)
            if m is not None:
                found.append((f"{name}'s input", _code_of(m)))
                break
    return found
