"""Load tests/data/secrets/{corpus,holdout}.txt: labelled secret lines and hard negatives.

The files hold templates; the values are drawn here from a seeded generator, so the same
file always gives the same lines and no secret-shaped literal is committed.
"""

from __future__ import annotations

import base64
import pathlib
import random
import re
import string
from typing import NamedTuple

from hypothesis import strategies as st

DATA = pathlib.Path(__file__).parent / "data" / "secrets"
ALPHABETS = {
    "b62": string.ascii_letters + string.digits,
    "b64": string.ascii_letters + string.digits + "+/",
    "url": string.ascii_letters + string.digits + "_-",
    "hex": "0123456789abcdef",
    "HEX": "0123456789ABCDEF",
    "up": string.ascii_uppercase + string.digits,
    "low": string.ascii_lowercase,
    "alpha": string.ascii_letters,
    "dig": string.digits,
}
WORDS = ["alpha", "bravo", "delta", "kilo", "lima", "oscar", "tango", "zulu"]
_PLACE = re.compile(r"\{(b62|b64|url|hex|HEX|up|low|alpha|dig):(\d+)\}|\{word\}|\{b64of:([^}]*)\}")
_RANDOM = re.compile(r"\{(b62|b64|url|hex|HEX|up|low|alpha|dig):\d+\}|\{word\}")
_MARK = re.compile(r"⟦(.*?)⟧", re.S)
NEGATIVE_COPIES = 6  # a negative template with placeholders is drawn this many times
LINE_COPIES = 3


class Line(NamedTuple):
    label: str  # the kind for a secret line, the family for a negative
    text: str
    secrets: tuple[str, ...]  # empty for a negative
    source: str  # file:line of the template


def _fill(template: str, rng: random.Random) -> str:
    def one(m: re.Match[str]) -> str:
        if m.group(3) is not None:
            return base64.b64encode(m.group(3).encode()).decode().rstrip("=")
        if m.group(1) is None:
            return rng.choice(WORDS)
        alphabet = ALPHABETS[m.group(1)]
        token = "".join(rng.choice(alphabet) for _ in range(int(m.group(2))))
        if m.group(1) in ("b62", "b64", "url") and int(m.group(2)) >= 16:
            # a drawn token has the digit, upper and lower case letter a real one has
            token = rng.choice(string.digits) + rng.choice(string.ascii_uppercase) + \
                rng.choice(string.ascii_lowercase) + token[3:]
        return token
    return _PLACE.sub(one, template)


def _unescape(text: str) -> str:
    """``\\n`` a line break, ``\\\\n`` the two characters, ``\\\\\\n`` a backslash that ends its
    line (a command continued on the next: before 2026-12-05 this read as the two
    characters after a backslash, so the continuation lines of classes-fresh15.txt
    were none); ``\\e[`` a terminal's escape (colours, since classes-fresh52.txt)."""
    text = text.replace("\\\\\\n", "\\\n").replace("\\e[", "\x1b[")
    return text.replace("\\\\n", "\0").replace("\\n", "\n").replace("\0", "\\n")


def load(name: str = "corpus.txt") -> list[Line]:
    path = DATA / name
    section = ""
    shapes: list[tuple[str, str, str]] = []
    contexts: list[str] = []
    out: list[Line] = []
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        where = f"{name}:{number}"
        if not raw.strip() or raw.startswith("#"):
            continue
        if raw.startswith("[") and raw.endswith("]"):
            section = raw[1:-1]
            continue
        if section == "contexts":
            contexts.append(raw)
            continue
        label, _, body = raw.partition("\t")
        if not body:
            raise ValueError(f"{where}: expected label<TAB>text")
        if section == "shapes":
            shapes.append((label, body, where))
        elif section == "lines":
            for copy in range(LINE_COPIES if _RANDOM.search(body) else 1):
                filled = _unescape(_fill(body, random.Random(f"{where}#{copy}")))
                secrets = tuple(_MARK.findall(filled))
                out.append(Line(label, _MARK.sub(r"\1", filled), secrets, where))
        elif section == "negatives":
            for copy in range(NEGATIVE_COPIES if _RANDOM.search(body) else 1):
                filled = _unescape(_fill(body, random.Random(f"{where}#{copy}")))
                out.append(Line(label, filled, (), where))
        else:
            raise ValueError(f"{where}: line outside a section")
    for index, (kind, shape, where) in enumerate(shapes):
        for context in contexts[index % 3::3]:
            secret = _unescape(_fill(shape, random.Random(f"{where}/{context}")))
            out.append(Line(kind, context.replace("{s}", secret), (secret,), where))
    return out


def leaked(secret: str, output: str) -> bool:
    """True when any 12 characters of the secret (all of it when shorter) survive."""
    if len(secret) <= 12:
        return secret in output
    return any(secret[i:i + 12] in output for i in range(0, len(secret) - 11, 4)) or \
        secret[-12:] in output


def drawn(seed: int, n: int) -> str:
    """A token drawn from ``seed``: `7Qx`, then ``n`` letters and digits (a law's value
    where the law draws the seed, so that hypothesis shrinks it)."""
    rng = random.Random(seed)
    return "7Qx" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


@st.composite
def tokens(draw: st.DrawFn, min_size: int = 11, max_size: int = 24) -> str:
    """A token as a generator draws one (random letters and digits), after `7Qx`: the
    grids' values (a seed, then a length, drawn so that hypothesis shrinks them)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    size = draw(st.integers(min_size, max_size))
    return "7Qx" + "".join(rng.choice(string.ascii_letters + string.digits)
                           for _ in range(size))


def place_rates(places: dict, every: int, secrets_at_least: int, alikes_at_least: int
                ) -> dict[str, tuple[float, float]]:
    """For each place (a function putting a line somewhere output puts one): the share of
    the one-line secrets the plain text hides that leak there, and of the one-line
    look-alikes it leaves that change there, over every ``every``-th line of the corpus's
    and the classes' file (the sweeps' places, as laws)."""
    from toolpipe.secrets import SecretPatternSet

    patterns = SecretPatternSet()
    lines = [line for name in ("corpus.txt", "classes.txt") for line in load(name)[::every]
             if "\n" not in line.text]
    secrets = [line for line in lines if line.secrets and not any(
        leaked(s, patterns.redact(line.text)) for s in line.secrets)]
    alikes = [line.text for line in lines if not line.secrets
              and patterns.redact(line.text) == line.text]
    assert len(secrets) > secrets_at_least and len(alikes) > alikes_at_least
    return {name: (sum(any(leaked(s, patterns.redact(place(line.text))) for s in line.secrets)
                       for line in secrets) / len(secrets),
                   sum(patterns.redact(place(t)) != place(t) for t in alikes) / len(alikes))
            for name, place in places.items()}


def rules_rebuilt(monkeypatch, lists: bool = False) -> None:
    """The scanner's rules rebuilt from the modules as a test has patched them: the flag
    rules of the shell wing's credential table (and with ``lists`` the list-of-words
    rules), each in the table's order, the rest as they are (a law's reading taken away)."""
    import importlib

    from toolpipe.shell import CREDENTIALS

    contexts = importlib.import_module("toolpipe.secrets._contexts")
    argv = importlib.import_module("toolpipe.secrets._argv")
    scan = importlib.import_module("toolpipe.secrets._scan")
    rules = importlib.import_module("toolpipe.secrets._rules")
    flags = iter([contexts._flag_rule(row) for row in CREDENTIALS])
    listed = iter([argv._list_rule(row) for row in CREDENTIALS if not (
        row.percent or row.comma or row.colon) and any(" " not in p for p in row.programs)])
    shape = argv._list_rule(CREDENTIALS[0]).shape
    broken = tuple(next(flags) if r.check == "flags" else next(listed) if lists and (
        r.shape == shape and r.check == "url_password") else r for r in rules.RULES)
    monkeypatch.setattr(scan, "_TRIGGERS", scan.Triggers(broken + rules.PUBLIC))
