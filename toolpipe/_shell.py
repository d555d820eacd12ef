"""A small POSIX-shell lexer: words (knowing whether they were quoted) and operators.

It is not a shell. It is exact enough to tell ``echo '| sh'`` (a quoted word) from
``curl x | sh`` (a pipe into a shell), ``2>&1`` from ``2> file``, and to find the commands
of ``$(…)``, backticks and ``<(…)``. Unbalanced quotes never raise: the rest of the text
becomes one quoted word.
"""

from __future__ import annotations

import attrs

# Longest first: the lexer takes the longest operator at each position.
OPERATORS = (
    "&>>", "<<<", "&&", "||", ";;", ">>", ">&", "&>", ">|", "<<", "<&", "<(", ">(", "$(",
    "|&", "|", "&", ";", "<", ">", "(", ")", "`", "\n",
)
CONTROL = frozenset({"&&", "||", ";;", "|", "|&", "&", ";", "(", ")", "`", "$(", "<(", ">(",
                     "\n"})
PIPES = frozenset({"|", "|&"})
REDIRECTS = frozenset({">", ">>", ">&", "&>", "&>>", ">|", "<", "<<", "<<<", "<&"})
_OP_START = frozenset(op[0] for op in OPERATORS)


@attrs.frozen
class Token:
    text: str
    op: bool = False
    quoted: bool = False  # any part of the word was quoted or escaped
    has_substitution: bool = False  # a "$(…)" or backtick inside double quotes


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    buf: list[str] = []
    quoted = False
    subst = False
    in_word = False
    i, n = 0, len(text)

    def flush() -> None:
        nonlocal buf, quoted, subst, in_word
        if in_word:
            tokens.append(Token("".join(buf), False, quoted, subst))
        buf, quoted, subst, in_word = [], False, False, False

    while i < n:
        c = text[i]
        if c == "\\":
            if i + 1 < n and text[i + 1] == "\n":
                i += 2
                continue
            buf.append(text[i + 1] if i + 1 < n else "")
            quoted = in_word = True
            i += 2
            continue
        if c == "'":
            end = text.find("'", i + 1)
            end = n if end < 0 else end
            buf.append(text[i + 1 : end])
            quoted = in_word = True
            i = end + 1
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    buf.append(text[j + 1] if text[j + 1] in '"\\$`\n' else text[j : j + 2])
                    j += 2
                    continue
                if text[j] == "`" or text.startswith("$(", j):
                    subst = True
                buf.append(text[j])
                j += 1
            quoted = in_word = True
            i = j + 1
            continue
        if c in " \t\r":
            flush()
            i += 1
            continue
        if c == "#" and not in_word:
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c in _OP_START or c == "$":
            op = next((o for o in OPERATORS if text.startswith(o, i)), None)
            if op is not None:
                # "2>", "1>>", "2>&": a bare fd number written against a redirection
                if op[0] in "<>" and in_word and not quoted and "".join(buf).isdigit():
                    fd = "".join(buf)
                    buf, in_word = [], False
                    tokens.append(Token(fd + op, True))
                else:
                    flush()
                    tokens.append(Token(op, True))
                i += len(op)
                continue
        buf.append(c)
        in_word = True
        i += 1
    flush()
    return tokens


def is_redirect(token: Token) -> bool:
    return token.op and token.text.lstrip("0123456789") in REDIRECTS


@attrs.frozen
class Command:
    """A simple command: its words (redirections removed), and what it is joined by."""

    words: tuple[str, ...]
    redirects: tuple[tuple[str, str], ...] = ()  # (operator, target)
    piped_from: bool = False  # its stdin is the previous command's stdout
    substitution: bool = False  # it runs inside $(…), `…` or <(…)/>(…)

    @property
    def name(self) -> str:
        return self.words[0] if self.words else ""


def commands(text: str) -> list[Command]:
    """The simple commands of a command line, in order."""
    out: list[Command] = []
    words: list[str] = []
    redirects: list[tuple[str, str]] = []
    piped = False
    depth = 0  # nesting of substitutions
    tokens = tokenize(text)
    i = 0

    def end(next_piped: bool) -> None:
        nonlocal words, redirects, piped
        if words or redirects:
            out.append(Command(tuple(words), tuple(redirects), piped, depth > 0))
        words, redirects, piped = [], [], next_piped

    while i < len(tokens):
        tok = tokens[i]
        if tok.op and is_redirect(tok):
            target = tokens[i + 1].text if i + 1 < len(tokens) and not tokens[i + 1].op else ""
            redirects.append((tok.text, target))
            i += 2 if target else 1
            continue
        if tok.op:
            if tok.text in ("$(", "<(", ">("):
                end(False)
                depth += 1
            elif tok.text == ")":
                end(False)
                depth = max(0, depth - 1)
            elif tok.text == "`":
                end(False)
                depth = 1 - depth if depth <= 1 else depth - 1
            else:
                end(tok.text in PIPES)
            i += 1
            continue
        words.append(tok.text)
        if tok.has_substitution:
            inner = _substitutions(tok.text)
            for script in inner:
                out.extend(attrs.evolve(c, substitution=True) for c in commands(script))
        i += 1
    end(False)
    return out


def _substitutions(word: str) -> list[str]:
    """The scripts of ``$(…)`` and backticks inside a double-quoted word."""
    scripts: list[str] = []
    i = 0
    while i < len(word):
        if word.startswith("$(", i):
            depth, j = 1, i + 2
            while j < len(word) and depth:
                depth += {"(": 1, ")": -1}.get(word[j], 0)
                j += 1
            scripts.append(word[i + 2 : j - 1])
            i = j
        elif word[i] == "`":
            j = word.find("`", i + 1)
            j = len(word) if j < 0 else j
            scripts.append(word[i + 1 : j])
            i = j + 1
        else:
            i += 1
    return scripts
