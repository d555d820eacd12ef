"""Words of the walk: assignments, expansions, substitutions and redirections read against
what the script set (the half of :class:`~toolpipe.shell._grammar._Walk` that turns nodes into
:class:`~toolpipe.shell._words.Word` values)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from toolpipe.shell._folders import seen_from
from toolpipe.shell._listings import listed_item, lister
from toolpipe.shell._model import Command, Redirect
from toolpipe.shell._parameters import (
    _ELEMENTS,
    _REF,
    _Parameters,
    _referred,
    _value,
    declared,
)
from toolpipe.shell._parse import _GLOB, _PLAIN, _Out, _text, body_text, parse_tree
from toolpipe.shell._printed import _echoed, _unknown_of
from toolpipe.shell._words import (
    IFS,
    UNKNOWN,
    Segment,
    Word,
    ansi_c,
    build,
    literal,
    unescape_double,
)


class _Expansions(_Parameters):
    """What a walk knows (set by ``_Walk.__init__``) and how it reads words."""

    depth: int
    where: tuple[str, ...]
    out: _Out
    env: dict[str, Word]
    positional: tuple[Word, ...]
    cwd: str | None
    functions: dict[str, Any]
    defining: bool

    def statements(self, node: Any, upstream: tuple[Command, ...] = (),
                   redirects: tuple[Redirect, ...] = ()) -> list[Command]:
        raise NotImplementedError

    def sequence(self, node: Any, upstream: tuple[Command, ...],
                 redirects: tuple[Redirect, ...], skip: Any = None) -> list[Command]:
        raise NotImplementedError

    def unparsed(self, node: Any) -> None:
        raise NotImplementedError

    def inner(self, where: tuple[str, ...], env: dict[str, Word],
              positional: Sequence[Word] | None = None, defining: bool | None = None
              ) -> _Expansions:
        raise NotImplementedError

    def redirect(self, node: Any) -> tuple[list[Redirect], list[Any]]:
        fd: int | None = None
        op = ""
        targets: list[Word] = []
        data: Word | None = None
        tails: list[Any] = []
        nested: list[Redirect] = []
        for child in node.children:
            if child.type in ("file_redirect", "herestring_redirect", "heredoc_redirect"):
                # `cat <<'EOF' > FILE`: tree-sitter hangs the line's other redirections on
                # the here-document's node (once dropped: the write to FILE was not seen)
                more, more_tails = self.redirect(child)
                nested += more
                tails += more_tails
            elif child.type == "file_descriptor":
                fd = int(_text(child)) if _text(child).isdigit() else None
            elif not child.is_named:
                op += child.type
            elif child.type == "heredoc_body":
                data = self.heredoc(child)
            elif child.type in ("heredoc_start", "heredoc_end"):
                continue
            elif child.type in ("pipeline", "list", "command", "redirected_statement"):
                tails.append(child)
            elif child.is_error:
                self.unparsed(child)
            else:
                words = self.words(child)
                if node.type == "herestring_redirect":
                    data = _join(words, _text(child))
                else:
                    targets += words
        if node.type in ("heredoc_redirect", "herestring_redirect"):
            return [Redirect(op or "<<", fd, None, data or literal("")), *nested], tails
        return [*([Redirect(op, fd, t) for t in targets] or [Redirect(op, fd, None)]),
                *nested], tails

    def heredoc(self, node: Any) -> Word:
        for child in node.named_children:
            if child.type in ("command_substitution", "expansion", "simple_expansion"):
                self.words(child)
        text = body_text(node)
        segs = [Segment(text, quoted=True)]
        if any(c.type != "heredoc_content" for c in node.named_children):
            segs.append(Segment("", known=False))  # expansions in the body: not all known
        return build(segs, text, split=False)[0]

    def assign(self, node: Any, env: dict[str, Word]) -> None:
        name_node = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name_node is None:
            return
        if name_node.type == "subscript":  # m[$(cmd)]=1: bash expands the index first
            for index in name_node.named_children[1:]:
                self.words(index)
        name = _text(name_node).split("[", 1)[0]
        name = _referred(env, name)  # `declare -n r=x; r=/etc` sets x
        if value is None:
            env[name] = literal("")
            return
        if value.type == "array":
            words = [w for c in value.named_children for w in self.words(c)]
            env[name] = _join(words, _text(value))
            env[name + "[]"] = Word(_ELEMENTS.join(w.text for w in words), _text(value),
                                    False, env[name].tame, env[name].sources)
            return
        words = self.words(value, split=False)
        env[name] = words[0] if words else literal("")
        if _text(node).startswith(name + "+="):
            env[name] = _unknown_of([env[name]])
        self.carrying_variable(name, env[name])

    def carrying_variable(self, name: str, value: Word) -> None:
        """A variable a program runs as code (the walk reads it; see ``_carried``)."""

    def nameref(self, node: Any) -> bool:
        """``declare -n``/``local -n``/``typeset -n``: its variables name other variables."""
        return any(c.type == "word" and _text(c).startswith("-") and "n" in _text(c)
                   for c in node.named_children)

    def declare(self, node: Any) -> None:
        ref = self.nameref(node)
        for child in node.named_children:
            if child.type == "variable_assignment" and ref:  # a nameref: names a variable
                name_node = child.child_by_field_name("name")
                target = child.child_by_field_name("value")
                if name_node is not None:  # (the name given, `local -n r=$1`, expanded)
                    given = self.words(target, split=False) if target is not None else []
                    to = given[0].text if given and given[0].known else (
                        _text(target) if target is not None else "")
                    self.env[_text(name_node)] = (
                        Word(UNKNOWN, _REF + to) if _NAME.fullmatch(to) else _unknown_of([]))
            elif child.type == "variable_assignment":
                self.assign(child, self.env)
            elif child.type == "variable_name":
                self.env.setdefault(_text(child), literal(""))
            else:
                self.words(child)

    def words(self, node: Any, split: bool = True) -> list[Word]:
        kind = node.type
        if kind == "command_name" and node.child_count == 1:
            node = node.child(0)
            kind = node.type
        text = _text(node)
        if text.startswith("~-") and text[2:3] in ("", "/") and "OLDPWD" in self.env:
            text = seen_from(self.env["OLDPWD"], self.cwd).text + text[2:]  # `~-`: $OLDPWD
        if kind == "word" and _PLAIN.fullmatch(text):
            # the common case: nothing to expand, quote or split
            return [Word(text, text, _GLOB.search(text) is not None)]
        sources: list[str] = []
        segs = self.segments(node, False, sources)
        ifs = self.env.get("IFS")
        return build(segs, text, sources, split=split,
                     ifs=ifs.text if ifs is not None and ifs.known else IFS)

    def segments(self, node: Any, quoted: bool, sources: list[str]) -> list[Segment]:
        kind = node.type
        if kind in ("word", "number", "special_variable_name"):
            return _unquoted(_text(node)) if not quoted else [Segment(_text(node), True)]
        if kind == "raw_string":
            text = _text(node)[1:-1]
            if "[" in text:
                self.subscript_code(text)
            return [Segment(text, True)]
        if kind == "ansi_c_string":
            text = ansi_c(_text(node)[2:-1])
            if "[" in text:
                self.subscript_code(text)
            return [Segment(text, True)]
        if kind in ("string", "translated_string"):
            out: list[Segment] = []
            for child in node.children:
                if child.type == "string_content":
                    content = unescape_double(_text(child))
                    if "[" in content:  # "a[\$(cmd)]": the same text once unescaped
                        self.subscript_code(content)
                    out.append(Segment(content, True))
                elif child.is_named:
                    out += self.segments(child, True, sources)
            return out or [Segment("", True)]
        if kind == "concatenation" or kind == "command_name":
            return [s for c in node.children for s in self.segments(c, quoted, sources)]
        if kind == "simple_expansion":
            name = _text(node)[1:]
            if name in self.env:  # $d after d=$(mktemp -d): where its value came from
                sources += self.env[name].sources
            return self.variable(name, quoted)
        if kind == "expansion":
            return self.expansion(node, quoted, sources)
        if kind in ("command_substitution", "process_substitution"):
            return self.substitution(node, quoted, sources)
        if kind == "arithmetic_expansion":
            self.sequence(node, (), ())
            return [Segment("", quoted, known=False, tame=True)]
        if node.is_error:
            self.unparsed(node)
        if not node.is_named:
            return [Segment(_text(node), quoted)] if kind not in ('"', "'") else []
        return _unquoted(_text(node)) if not quoted else [Segment(_text(node), True)]

    def variable(self, name: str, quoted: bool) -> list[Segment]:
        name = _referred(self.env, name)  # `declare -n r=x; "$r"` is x's value
        if name == "0":  # a `bash -c CODE NAME`'s NAME, else the Bash tool's bash
            return _value(self.env["0"], quoted) if "0" in self.env else [Segment("bash",
                                                                                  quoted)]
        if name.isdigit():
            i = int(name)
            if 1 <= i <= len(self.positional):
                return _value(self.positional[i - 1], quoted)
            return [Segment("", quoted, known=False)]
        if name == "@" and self.positional:
            # "$@": one word per argument, each kept whole (an unquoted blank between)
            out: list[Segment] = []
            for i, word in enumerate(self.positional):
                if i:
                    out.append(Segment(" ", False))
                out += _value(word, quoted) or [Segment("", quoted)]
            return out
        if name == "*" and self.positional:
            return _value(_join(list(self.positional), "$*"), quoted)
        if name in self.env:  # ($OLDPWD, which a cd sets, as a path from here)
            return _value(seen_from(self.env[name], self.cwd) if name == "OLDPWD" else (
                self.env[name]), quoted)
        if name == "IFS":
            return [Segment(IFS, quoted)]
        if name == "HOME":
            return [Segment("~", quoted)]
        if name in _THE_SHELL:  # bash's own path, set by bash itself; the login shell's
            return [Segment(_THE_SHELL[name], quoted)]
        if name == "PWD":
            return [Segment(self.cwd or UNKNOWN, quoted, known=self.cwd is not None)]
        return [Segment("", quoted, known=False)]

    def expansion(self, node: Any, quoted: bool, sources: list[str] | None = None
                  ) -> list[Segment]:
        inner = [c for c in node.children if c.type not in ("${", "}")]
        if len(inner) == 1 and inner[0].type in ("variable_name", "special_variable_name"):
            return self.variable(_text(inner[0]), quoted)
        if len(inner) == 2 and inner[0].type == "!" and inner[1].type == "variable_name":
            # ${!y}: the variable y names (y=x; ${!y} is $x), when that is a name
            named = self.env.get(_text(inner[1]))
            if named is not None and named.known and _NAME.fullmatch(named.text):
                return self.variable(named.text, quoted)
            return [Segment("", quoted, known=False)]
        if (len(inner) >= 2 and inner[0].type == "variable_name"
                and inner[1].type in (":-", "-", ":=", "=")):
            # ${a:-default}: the value when the script set one, else the default (what runs
            # unless the environment says otherwise).
            name = _text(inner[0])
            if name in self.env and (self.env[name].text or inner[1].type in ("-", "=")):
                return _value(self.env[name], quoted)
            found: list[str] = []
            default = [s for c in inner[2:] for s in self.segments(c, quoted, found)]
            if default and all(s.known for s in default) and not found and (
                    sources is not None):
                # not set by the script: its default, unless the environment sets it (the
                # rules ask about what it would change: `rm -rf "${BUILD:-./build}"`)
                sources.append(ENVIRONMENT)
                return default
            # a default that is not known itself: the value is not known
            return [Segment("", quoted, known=False)]
        if len(inner) == 1 and inner[0].type == "subscript":
            return self.element(inner[0], quoted)
        if [c.type for c in inner] == ["variable_name", "@", "P"]:
            # ${x@P}: x's value expanded as a prompt is, its $(…) run: read as a string
            value = self.env.get(_text(inner[0]))
            where = (*self.where, "${…@P}")
            if value is not None and value.known:
                self.nested(': "' + value.text.replace('"', '\\"') + '"', where)
                if not any(c in value.text for c in "\\$`!"):  # (a prompt's expansion
                    return [Segment(value.text, quoted)]  # leaves such a value as it is)
            else:
                self.out.problem("dynamic-code", f"runs code it cannot read ({_text(node)})",
                                 where, ())
            return [Segment("", quoted, known=False)]
        if len(inner) >= 2 and (inner[0].type in ("variable_name", "subscript") or (
                _text(inner[0]) in ("@", "*") and inner[1].type == ":")):
            done = self.operated(inner, quoted)
            if done is not None:  # ${f%.txt}, ${c,,}: a value the script set, changed
                return done
        for child in node.named_children:  # ${x/$(cmd)/y}: still walk what runs
            if child.type in ("command_substitution", "process_substitution"):
                self.substitution(child, quoted, [])
        return [Segment("", quoted, known=False)]

    def substitution(self, node: Any, quoted: bool, sources: list[str]) -> list[Segment]:
        before = len(self.out.commands)
        label = "$(…)" if node.type == "command_substitution" else "<(…)"
        if node.type == "command_substitution" and node.child_count and \
                node.child(0).type == "`":  # its first token, not its whole text
            label = "`…`"
        inner = self.inner((*self.where, label), dict(self.env))
        ran: list[Command] = []
        body = _text(node)[1:-1] if label == "`…`" else ""
        if _BACKQUOTE_ESCAPE.search(body):
            # inside backquotes bash reads `\``, `\$` and `\\` as the character, then
            # parses what it got: `\`echo rm\` -rf /` is a substitution in a command
            # (tree-sitter-bash keeps the backslashes, a program named `\`echo`)
            ran += inner.statements(parse_tree(backquoted(body)).root_node)
        else:
            for child in node.named_children:
                ran += inner.statements(child)
        made = self.out.commands[before:]
        echoed = _echoed(ran) or declared(ran, self.env, self.functions)
        if echoed is None or len(made) != 1 or node.type != "process_substitution":
            sources += [c.name for c in made if c.name]  # (what `<(printf …)` feeds, read
            # whole, is what is sourced: no text decoded unseen)
        # (one pipeline, nothing else run inside: `ls -d build/* | sort`)
        listing = lister(ran) if len(made) == len(ran) and len(
            node.named_children) == 1 and node.named_children[0].type in (
            "pipeline", "command") else None
        item = listed_item(listing)
        if node.type == "process_substitution":
            if echoed is not None and len(made) == 1:
                self.out.fed[_text(node)] = echoed
            if item is not None:  # (readarray -t a < <(ls -d build/*): names under it)
                self.out.listed[_text(node)] = item
            return [Segment("/dev/fd/", quoted), Segment("", quoted, known=False, tame=True)]
        if echoed is not None and len(made) == 1:
            return [Segment(echoed, quoted)]
        if len(made) == 1 and len(ran) == 1 and ran[0].name == "pwd" and self.cwd is not None:
            return [Segment(self.cwd, quoted)]
        if item is not None:  # $(ls -d build/*/), $(find dist -name '*.map'): the names,
            # each under the listing's root (`for d in $(…)`), none climbing out of it, or
            # as find's tests leave them (``./{}.map``)
            if item.known:
                return [Segment(item.text, quoted)]
            return [Segment(item.text.split(UNKNOWN, 1)[0], quoted),
                    Segment("", quoted, known=False, tame=True)]
        return [Segment("", quoted, known=False, tame=bool(made) and made[0].name == "mktemp")]


# variables that name a shell: bash sets BASH to its own path (over the environment's), and
# $0 of the Bash tool's `bash -c` is bash; SHELL is the login shell, a shell that reads -c
_THE_SHELL = {"BASH": "/bin/bash", "SHELL": "/bin/sh"}


_BACKQUOTE_ESCAPE = re.compile(r"\\[`$\\]")  # what a backslash escapes inside backquotes


def backquoted(body: str) -> str:
    """A backquoted body as bash parses it: a backslash before a backquote, ``$`` or a
    backslash read as the character it escapes."""
    return _BACKQUOTE_ESCAPE.sub(lambda m: m.group(0)[1:], body)


# the source of a word that is a variable's default: the environment may give another value
ENVIRONMENT = "the environment"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _unquoted(text: str) -> list[Segment]:
    """An unquoted word: escaped characters become quoted ones (``c\\ d`` is one word)."""
    if "\\" not in text:
        return [Segment(text)]
    out: list[Segment] = []
    i = 0
    while i < len(text):
        j = text.find("\\", i)
        if j < 0:
            out.append(Segment(text[i:]))
            break
        if j > i:
            out.append(Segment(text[i:j]))
        if j + 1 < len(text) and text[j + 1] != "\n":
            out.append(Segment(text[j + 1], True))
        i = j + 2
    return out


def _join(words: Sequence[Word], raw: str) -> Word:
    text = " ".join(w.text for w in words)
    return Word(text, raw, False, all(w.tame for w in words),
                tuple(s for w in words for s in w.sources))
