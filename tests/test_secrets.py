"""The secrets wing judged on its corpus, its laws, and inputs built to make it slow."""

from __future__ import annotations

import collections
import functools
import pathlib
import re
import time
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from benchmarks.secrets import adversarial
from interpreters.simulated import SimulatedInterpreter
from tests.secrets_corpus import DATA, Line, leaked, load
from toolpipe import (
    AssistantMessage,
    ConfigError,
    DispatchContext,
    DispatchResult,
    RedactingMiddleware,
    SecretPatternSet,
    TextContent,
    ToolCall,
    ToolPipeline,
    ToolRegistry,
    ToolResultsMessage,
    UserMessage,
    redact_messages,
)
from toolpipe.config import load_pipeline
from toolpipe.secrets import KINDS

S = SecretPatternSet.default_common()
CORPUS = load("corpus.txt")
HOLDOUT = load("holdout.txt")
CLASSES = load("classes.txt")  # one kind per class of context or shape (issue 27)
# classes-fresh*.txt: held out, each written before its rules (what it holds: its header);
# the first six never tuned on, the later ones fixed by class after their first run (a
# file added is read here by its name alone)
FRESH_SETS = [load(path.name) for path in sorted(
    DATA.glob("classes-fresh*.txt"),
    key=lambda path: int(path.stem.removeprefix("classes-fresh") or 1))]
EVERY = CORPUS + HOLDOUT + CLASSES + [line for lines in FRESH_SETS for line in lines]
DOC = (pathlib.Path(__file__).parent.parent / "docs" / "layers" / "redaction.md").read_text()
NEGATIVE_FAMILIES = {"lockfile", "hash", "uuid", "base64_image", "minified", "public_key",
                     "identifier", "k8s_name"}


def score(lines: list[Line], patterns: SecretPatternSet
          ) -> tuple[float, float, dict[str, list[int]]]:
    per: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    caught = positives = changed = negatives = 0
    for line in lines:
        out = patterns.redact(line.text)
        row = per[line.label]
        row[0] += 1
        if line.secrets:
            positives += 1
            ok = not any(leaked(secret, out) for secret in line.secrets)
            caught += ok
            row[1] += ok
        else:
            negatives += 1
            changed += out != line.text
            row[1] += out != line.text
    return caught / positives, changed / negatives, per


def test_the_corpus_is_as_large_and_as_varied_as_asked():
    positives = [line for line in CORPUS if line.secrets]
    negatives = [line for line in CORPUS if not line.secrets]
    assert len(positives) >= 500 and len({line.label for line in positives}) >= 25
    assert len(negatives) >= 500
    assert NEGATIVE_FAMILIES <= {line.label for line in negatives}
    assert len({line.text for line in CORPUS}) == len(CORPUS)  # no line twice
    kinds = {line.label for line in CORPUS + CLASSES if line.secrets}
    assert len(kinds) >= 80, len(kinds)


def test_the_untuned_file_still_generalises():
    """classes-fresh*.txt are never tuned on: the bar is lower than the tuned files', and
    its figures are reported as they are (docs/layers/redaction.md)."""
    assert len(FRESH_SETS) >= 28
    for lines in FRESH_SETS:
        recall, changed, _ = score(lines, S)
        assert recall >= 0.95 and changed <= 0.05, (recall, changed)


@pytest.mark.parametrize("lines", [CORPUS, HOLDOUT, CLASSES],
                         ids=["corpus", "holdout", "classes"])
def test_recall_and_over_redaction(lines):
    recall, changed, per = score(lines, S)
    assert recall >= 0.99 and changed <= 0.01, (recall, changed)
    for label, (n, good) in per.items():
        kind_of_secret = any(line.label == label and line.secrets for line in lines)
        if kind_of_secret:
            assert good / n >= 0.9, (label, good, n)
        else:
            assert good / n <= 0.05, (label, good, n)


def test_the_corpus_test_can_fail():
    """The bar is not decoration: a guard without its detectors misses secrets, and one
    that redacts everything redacts the look-alikes."""
    recall, _, _ = score(CORPUS, S.without_builtin())
    assert recall < 0.98
    _, changed, _ = score(CORPUS, SecretPatternSet.empty().with_pattern("all", r"\S{6,}"))
    assert changed > 0.01


def test_labels_are_the_documented_kinds():
    seen = set()
    for line in EVERY:
        seen |= {kind for kind, _ in S.find(line.text)}
    assert seen <= set(KINDS)
    for kind in KINDS:
        assert f"`{kind}`" in DOC, kind


def test_redacting_twice_changes_nothing_on_the_corpus():
    for line in EVERY:
        once = S.redact(line.text)
        assert S.redact(once) == once, line.source


@functools.cache
def secret_lines() -> list[Line]:
    """The lines whose secrets are caught on their own (the corpus test counts the rest):
    worked out when first drawn, not by every test worker as it collects (0.4 s each)."""
    return [line for line in CORPUS if line.secrets and not any(
        leaked(secret, S.redact(line.text)) for secret in line.secrets)]


@settings(max_examples=150)
@given(st.lists(st.deferred(lambda: st.sampled_from(secret_lines())), min_size=1, max_size=5),
       st.sampled_from(["\n", " ", "; ", "\t", " | ", ", "]),
       st.sampled_from(["", "héllo wörld ", "日本語 ", "\ud800 ", "x" * 40 + " "]))
# two htpasswd commands on one line: the second's -n is not the first's (found by CI)
@example([line for line in CORPUS if line.text.startswith(("htpasswd -b .", "htpasswd -bn"))],
         " ", "")
# a YAML block's line longer than its rule's bound, ending in fullwidth letters: the cut
# fell inside a character, and the rest of the line was left unread (found by CI)
@example([next(line for line in CORPUS if line.source == f"corpus.txt:{n}")
          for n in (218, 97, 97, 194, 231)], " ", "")
# a kubectl secret's literals read to the command's end hid an sshpass -p after them on
# the same line: each rule of several secrets keeps its own region (found by the suite)
@example([next(line for line in CORPUS if line.source == f"corpus.txt:{n}")
          for n in (30, 213)], " ", "")
# two credential rows on one command line (sshpass's, read to the command's end, then
# redis-cli's): each row its own region (found by the suite, 2026-12-05)
@example([next(line for line in CORPUS if line.source == f"corpus.txt:{n}")
          for n in (213, 214)], " ", "")
def test_no_secret_survives_in_company(lines, separator, prefix):
    """Secrets side by side, after non-ASCII text (offsets are the text's, not the
    bytes'): none survives, and the text around them is kept."""
    text = prefix + separator.join(line.text for line in lines)
    out = S.redact(text)
    assert out.startswith(prefix.rstrip())
    for line in lines:
        for secret in line.secrets:
            assert not leaked(secret, out), (line.source, secret)


def test_a_span_bounded_inside_a_character_takes_the_whole_character():
    # the block rule reads at most 4,096 bytes of the line: its end falls in a "ｐ" (since
    # the eighth sitting the key's own rule reads a YAML block under any key too, and takes
    # the whole word: the span still never splits a character)
    text = "password: |\n  " + "a" * 4095 + "ｐａｓｓ tail"
    out = S.redact(text)
    assert out.startswith("password: |\n  [REDACTED:password]") and "a" * 8 not in out
    assert out.endswith(" tail") and "\ufffd" not in out
    [(lo, hi, _)] = S.spans(text)  # (offsets in characters: the word whole, "ｐａｓｓ" in it)
    assert text[lo:hi].endswith("ｐａｓｓ") and text[hi:] == " tail"


def test_offsets_are_in_characters():
    token = "ghp_" + "a1B2c3D4e5" * 4
    text = "日本 ✓ " + token + " fin"
    [(lo, hi, kind)] = S.spans(text)
    assert text[lo:hi] == token and kind == "github_pat"
    assert S.redact(text) == "日本 ✓ [REDACTED:github_pat] fin"


# --- linear time, and failing closed ---------------------------------------------------------


ADVERSARIAL = functools.cache(adversarial)
NAMES = ["BEGIN lines without END", "`password=` repeated", "`password= x` repeated",
         "`token: ` repeated", '`"password": "` repeated', "`ghp_` repeated",
         "`AKIA` repeated", "`sk-` repeated", "`eyJ.` repeated", "`a://b:` repeated",
         "`Bearer ` repeated", "`Basic ` repeated", "`<password>` repeated",
         "digits`:AA` repeated", "`\\n` escapes repeated",
         "`\\\\n` (an escaped backslash) repeated", "table rows under a password header",
         "`.login(a, ` repeated", "`.atlasv1.` repeated", "`rootpw x` lines",
         "`password=abcdefgh` lines (18 bytes)", "table rows of a password column (22 bytes)",
         "`Authorization: Token` lines", "`GH_PAT=` lines", "`mnemonic:` lines of words",
         "`echo x | sudo -S` lines", "`echo echo … | --password-stdin`",
         "here-strings to `--password-stdin`", "`password=` lines, a label every 4 KB",
         "`\\u0070assword=` lines", "`\\u0070` escapes repeated",
         "HTML rows of a password cell", "password fields repeated",
         "XML entries named for a password", "GraphQL operations with variables",
         '`.password("…")` calls', "credential names given a wrapped literal",
         "Terraform variables named for a token", "`net user` lines",
         "`with password` in prose", "YAML tags before a password",
         '`" -> "` changes', "`expect`/`send` pairs", "`ConvertTo-SecureString` lines",
         "`getConnection(…)` calls", "`-file <(echo …)` substitutions",
         "credential flags repeated on one line", "`stats auth u:pw` lines",
         "relay credential lines", "`pre-shared-key ascii-text` lines",
         "`<auth-user-pass>` blocks", "cookie objects", "`VENDOR_KEY=` lines",
         "`password is` sentences", "`CURLOPT_USERPWD` options",
         "token commands and what they print", "`-u a -p b` lines", "`-U a%b` lines",
         "vaults fed a here-string", "secret store reads and what they print",
         "CI commands that set a credential", "passwords in other languages' prose",
         "markdown labels", "`user = \"u:pw\"` settings", "address, user and password lines",
         "`{PLAIN}` passwords", "netsh keys", "SQL INSERTs with a password column",
         "CSV headers with a password column", "PHP serialized passwords",
         "answer files' <Value>", "heredocs under a password", "typed declarations",
         "tuples of a password", "cookie headers", "look-alike letters in keys",
         "zero-width characters in keys", "padded report labels",
         "COPY rows under a password column", "cookie jar lines",
         '`{"value": …}` objects', '`{"value": …, "name": …}` objects',
         "values said before their label", "typed declarations of other languages",
         "addresses without a scheme", "meta tags",
         "columns aligned under a password header", "psql tables of a password column",
         "`KEY,value` rows", "values cut by a width", "percent-encoded pairs",
         "percent-encoded separators", "`TOKEN=$(echo …)` lines", "logged `rootpw` lines",
         "words before `enable secret` lines", "JSON logs of quoted passwords",
         "JSON logs of quoted words", "HTML of quoted passwords",
         "HTML entities of ordinary text", "SQL strings holding a password line",
         "shell-quoted strings of words", "lines percent-encoded whole",
         "encoded words in a query", "JSON logs of escaped text not ASCII",
         "JSON in JSON of sentences", "percent-encoded query lines",
         "one line of table cells", "lines in tags", "one line of quoted words",
         "echoed lines of words", "indented CRLF lines with trailing blanks",
         "one base64 run", "40-char base64 words", "one letter"]


def test_the_adversarial_names_are_the_benchmarks():
    assert sorted(NAMES) == sorted(ADVERSARIAL())


@pytest.mark.parametrize("name", NAMES)
def test_adversarial_inputs_take_linear_time(name, monkeypatch):
    """1 MB built to be slow (repeated triggers, long base64, random-looking words): read in
    time that grows as the text does, not as its square (the old PEM rule took 30 s on a
    quarter of this; the benchmark reports the real times, at the real budgets). The
    budgets are smaller here, to keep the suite quick: each trigger judged still costs
    what it costs (one that read the whole text again would take seconds), and the C scans
    still cover the whole megabyte."""
    import importlib

    monkeypatch.setattr(importlib.import_module("toolpipe.secrets._scan"), "TRIGGER_BUDGET",
                        1024)
    monkeypatch.setattr(importlib.import_module("toolpipe.secrets._entropy"), "RUN_BUDGET",
                        512)
    text = ADVERSARIAL()[name]
    # (re2 builds its automaton as a text is scanned: a new process's first megabyte of
    # random base64 took 1.2 s of building alone. Half the text first, another text to the
    # memo, builds it.) The whole megabyte is timed against a quarter of it, read just
    # before in the same process: a linear reading takes about 4 times as long, a quadratic
    # one 16 (a bound in seconds failed twice on a machine twice as slow, beside `yes`).
    # (the process's CPU time, not the wall clock's: beside three other workers on two
    # cores, a wall-clock reading took 1.6 s against 0.07 once, a run descheduled)
    # (idempotence is asked of the quarter's output: the whole's, a second megabyte per
    # input, was a tenth of the suite's time)
    S.redact(text[: len(text) // 2] + " warm")
    start = time.process_time()
    part = S.redact(text[: len(text) // 4] + " quarter")
    quarter = time.process_time() - start
    start = time.process_time()
    S.redact(text)
    whole = time.process_time() - start
    assert whole < 8 * quarter + 1.0, (whole, quarter)
    assert S.redact(part) == part


def test_a_text_of_triggers_fails_closed():
    token = "ghp_" + "a1B2c3D4e5" * 4
    text = "token: " * 60_000 + token + " end"
    out = S.redact(text)
    assert "[REDACTED:dense]" in out and token not in out


ORDINARY_SIZE = 1_500_000


def test_ordinary_text_never_reaches_the_budget():
    """1.5 MB of ordinary text that spells the triggers out: the tldr pages, then this
    package's own sources (a fixed size since the tenth sitting: the sources grow with
    every rule, 1.6 MB then, and their whole was a text as long as the package)."""
    root = pathlib.Path(__file__).parent.parent
    text = (root / "tests" / "data" / "tldr-linux-examples.txt").read_text()
    text += "\n".join(p.read_text() for p in sorted((root / "toolpipe").rglob("*.py")))
    text = text[:ORDINARY_SIZE]
    assert len(text) == ORDINARY_SIZE
    assert S.redact(text).count("[REDACTED:dense]") == text.count("[REDACTED:dense]")
    # key=value logs: a word every line has is no trigger (`value=42` once was one)
    logs = "".join(f"2026-12-04T10:00:{i % 60:02d}Z INFO value=42 count={i} status: ok "
                   f"value: {i} name=job-{i} path=/usr/lib/x.py\n" for i in range(60_000))
    assert "[REDACTED:dense]" not in S.redact(logs)


def test_thick_triggers_are_read_as_clusters_after_a_window(monkeypatch):
    """``WINDOW`` triggers within ``WINDOW * SPACING`` bytes with no label between: the
    rest of the text is read as clusters in one C scan each, so a 1 MB text of
    ``password=`` costs 512 judgements, not the budget's 4,864 (235 ms before, at 8,192)."""
    import importlib

    scan = importlib.import_module("toolpipe.secrets._scan")
    values = importlib.import_module("toolpipe.secrets._values")
    judged: list[int] = []
    real = values.CHECKS["key_value"]

    def counted(*args):
        judged.append(1)
        return real(*args)

    monkeypatch.setitem(values.CHECKS, "key_value", counted)
    text = ("password=" * 120_000)[:1_000_000]
    out = S.redact(text)
    assert "[REDACTED:dense]" in out and "password=password" not in out[-1000:]
    assert scan.WINDOW <= len(judged) <= scan.WINDOW + 8


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["password=", "token: x ", "| password |\n|---|\n",
                                 "ghp_" + "a1B2c3D4e5" * 4 + " ", "[REDACTED:token] ",
                                 "plain words here ", "\n"]), min_size=1, max_size=8),
       st.integers(75, 190))
def test_the_window_keeps_redaction_idempotent(units, repeats):
    """Redact∘Redact = Redact around the window: texts of thick triggers, secrets, plain
    words and labels, long enough to fill it (a window of 64 here, an eighth of the real
    one, with texts an eighth as long: the same law, in a suite that stays quick)."""
    import importlib

    scan = importlib.import_module("toolpipe.secrets._scan")
    real, scan.WINDOW = scan.WINDOW, 64
    try:
        text = "".join(units) * repeats
        once = S.redact(text)
        assert S.redact(once) == once
    finally:
        scan.WINDOW = real


def test_triggers_a_line_apart_never_fill_the_window():
    """A secret on every short line of a log (triggers 31 bytes apart) is read one by one:
    every secret is found by its rule, none as dense."""
    lines = "".join(f"job {i:05d} password=Zq{i:05d}xKm9\n" for i in range(3_000))
    out = S.redact(lines)
    assert "[REDACTED:dense]" not in out and out.count("[REDACTED:password]") == 3_000


# --- the layer: echoed inputs, pipeline-file options ----------------------------------------


def echo_registry() -> ToolRegistry:
    registry = ToolRegistry()
    registry.tool("login")(lambda input, context: f"logged in as {input['user']} with "
                                                  f"{input['password']}")
    return registry


def run_login(layer: RedactingMiddleware, **input: str) -> str:
    p = ToolPipeline.builder().with_middleware(layer).with_core(echo_registry()).build()
    return SimulatedInterpreter().run(p.dispatch(DispatchContext("login", input))).text


def test_echoed_inputs_are_redacted_whatever_their_shape():
    plain = run_login(RedactingMiddleware(), user="ada", password="plain words here")
    assert plain == "logged in as ada with plain words here"  # no pattern knows it
    only = run_login(RedactingMiddleware(echoed_inputs=["password"]), user="ada lovelace",
                     password="plain words here")
    assert only == "logged in as ada lovelace with [REDACTED:tool_input]"
    every = run_login(RedactingMiddleware(echoed_inputs=True), user="ada lovelace",
                      password="plain words here")
    assert every == "logged in as [REDACTED:tool_input] with [REDACTED:tool_input]"
    short = run_login(RedactingMiddleware(echoed_inputs=True, min_echo=20), user="ada",
                      password="plain words here")
    assert short == plain


@pytest.mark.parametrize("bad", [{"echoed_inputs": "password"}, {"echoed_inputs": [""]},
                                 {"min_echo": 0}, {"min_echo": True}])
def test_bad_echo_options(bad):
    with pytest.raises(ConfigError):
        RedactingMiddleware(**bad)


def test_pipeline_file_echo_option():
    text = '[[layer]]\nname = "redaction"\nechoed_inputs = ["password"]\n'
    layer = load_pipeline(text, echo_registry()).layers[0]
    assert isinstance(layer, RedactingMiddleware) and layer.echoed_inputs == ("password",)
    every = load_pipeline(text.replace('"password"', '"*"'), echo_registry()).layers[0]
    assert isinstance(every, RedactingMiddleware) and every.echoed_inputs is True
    with pytest.raises(ConfigError, match="echoed_inputs"):
        load_pipeline(text.replace('["password"]', '"password"'), echo_registry())


# --- what goes to the model -----------------------------------------------------------------


def test_redact_messages_scrubs_every_text_and_keeps_the_structure():
    token = "ghp_" + "a1B2c3D4e5" * 4
    messages = [
        UserMessage(f"use {token}"),
        AssistantMessage("ok", [ToolCall("c1", "login", {"password": "hunter22x"})]),
        ToolResultsMessage([DispatchResult("c1", TextContent(f"GITHUB_TOKEN={token}"),
                                           False, 0.0, "login")]),
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": f"the token is {token}", "signature": "s1g"},
            {"type": "text", "text": f"token={token}"},
            {"type": "tool_use", "id": "t1", "name": "Bash",
             "input": {"command": f"curl -H 'Authorization: Bearer {token}' x"}}]},
        {"role": "tool", "tool_call_id": "c9", "content": f'{{"api_key": "{token}"}}'},
    ]
    out = redact_messages(messages)
    assert out[0].text == "use [REDACTED:github_pat]"
    assert out[1].tool_calls[0].input == {"password": "[REDACTED:password]"}
    assert out[2].results[0].text == "GITHUB_TOKEN=[REDACTED:github_pat]"
    blocks = out[3]["content"]
    assert blocks[0] == messages[3]["content"][0]  # signed: untouched
    assert token not in repr(blocks[1:]) and blocks[2]["id"] == "t1"
    assert out[4]["tool_call_id"] == "c9" and token not in out[4]["content"]
    assert token in messages[0].text  # the originals are not changed


def test_a_recorded_trace_judges_a_value_with_its_key():
    from toolpipe.session import ToolRecord, dumps
    from toolpipe.session._trace import Returned

    record = ToolRecord("login", {"password": "hunter22x", "user": "ada"}, 0.0, 0.1,
                        Returned(TextContent("ok")))
    line = dumps(record, S.redact_value)
    assert "hunter22x" not in line and "[REDACTED:password]" in line and '"ada"' in line


def test_public_zones_never_cover_a_private_member():
    """A JWK's public members are data; its private exponent is still a secret."""
    secret = "X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN5E3EaG6RJoVH-HLLKD9M7dx5oo7GURknchnrRwe"
    jwk = ('{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbf",'
           f'"e":"AQAB","d":"{secret}"}}')
    out = S.redact(jwk)
    assert secret not in out and '"n":"0vx7agoebGcQ' in out


@given(st.binary(min_size=1, max_size=1026))
def test_the_looked_up_entropy_is_shannons(token):
    import importlib
    import math

    entropy = importlib.import_module("toolpipe.secrets._entropy")
    assert math.isclose(entropy._bits(token), entropy.shannon_entropy(token), abs_tol=1e-9)


_DENSE_PIECES = st.sampled_from(["password=", "token: ", "sk-", "AKIA", "ghp_", "x", " ",
                                 "\n", "abc", "Zq1xK9w2", "-" * 70, "key is ", ":5432:db:u:p"])


@settings(max_examples=200)
@given(st.lists(_DENSE_PIECES, max_size=60), st.integers(0, 40))
def test_dense_clusters_are_the_cluster_regex_reading(pieces, pos):
    """Dense mode chains a cluster's first triggers one by one, then hands the rest to the
    cluster regex: the spans are the ones that regex alone gives from each cluster's start
    (the law catches a chain that stops early; see the next test)."""
    import importlib

    scan = importlib.import_module("toolpipe.secrets._scan")
    text = "".join(pieces).encode()
    assert scan.dense_spans(scan._TRIGGERS, text, pos) == _dense_by_regex(scan, text, pos)


def _dense_by_regex(scan, buf, pos):
    from toolpipe.secrets._re2 import ANCHOR_START, UNANCHORED

    triggers, spans, size = scan._TRIGGERS, [], len(buf)
    while pos < size:
        lo = triggers.any.Match(UNANCHORED, buf, pos, size)[0][0]
        if lo < 0:
            break
        hi = triggers.cluster.Match(ANCHOR_START, buf, lo, size)[0][1]
        tail = scan._TOKEN_TAIL.match(buf, hi)
        hi = tail.end() if tail is not None else hi
        spans.append((lo, max(hi, lo + 1), "dense", scan.PROVIDER))
        pos = max(hi, lo + 1)
    return spans


def test_the_dense_law_catches_a_chain_that_stops_early(monkeypatch):
    import importlib

    scan = importlib.import_module("toolpipe.secrets._scan")
    monkeypatch.setattr(scan, "GAP", 8)  # a broken chain: gaps of 9 to 64 end a cluster
    text = b"password=" + b" " * 20 + b"token: x"
    assert scan.dense_spans(scan._TRIGGERS, text, 0) != _dense_by_regex(scan, text, 0)


_CLASS = re.compile(rb"(?<!\\)\[(?:\\.|[^\]\\])+\]")


def _non_ascii_classes(pattern: bytes) -> list[bytes]:
    return [m.group(0) for m in _CLASS.finditer(pattern) if any(b > 127 for b in m.group(0))]


def test_no_rule_puts_a_character_beyond_ascii_in_a_class_of_bytes():
    """The rules are compiled over UTF-8 bytes: a class such as `[:：]` or `["«“]` matches
    one byte of the character's encoding, never the character (a guillemet before a
    password made it leak). Such characters go in alternatives."""
    from toolpipe.secrets._rules import PUBLIC, RULES

    found = [(r.kind, _non_ascii_classes(r.regex.pattern) + _non_ascii_classes(
        r.shape.encode())) for r in (*RULES, *PUBLIC)]  # (its trigger's shape too)
    assert [(kind, classes) for kind, classes in found if classes] == []
    # and the check sees the mistake it guards against
    assert _non_ascii_classes('[ \\t]*[:：]?["\'`«“]?'.encode())


def test_a_multipart_field_with_crlf_line_ends_is_redacted():
    """The corpus files cannot hold a carriage return: a form as a browser sends it."""
    body = ('--b\r\nContent-Disposition: form-data; name="password"\r\n'
            'Content-Type: text/plain\r\n\r\nq7Xw2Lm9Vt4R\r\n--b--\r\n')
    out = S.redact(body)
    assert "q7Xw2Lm9Vt4R" not in out and out.endswith("\r\n--b--\r\n")
    logged = "request body: " + body.replace("\r\n", "\\r\\n")  # as a log prints it
    assert "\n" not in logged and "q7Xw2Lm9Vt4R" not in S.redact(logged)


_DISGUISED_UNITS = ["pаssword: Zq1xK9w2mN ", "to\u200bken=Zq1xK9w2mN4 ", "Пароль и логин ",
                    "plain words here ", "\n", "sеcret_key = 'Zq1xK9w2mN5' ",
                    "\u200b", "а", "password: ", "[REDACTED:password] "]


def disguise_law(redact: Callable[[str], str], examples: int = 60) -> None:
    @settings(max_examples=examples, deadline=None, derandomize=True, database=None)
    @given(st.lists(st.sampled_from(_DISGUISED_UNITS), min_size=1, max_size=12),
           st.integers(1, 40))
    def law(units: list[str], repeats: int) -> None:
        """Words in disguise: no disguised credential's value survives, and a second
        redaction changes nothing (the disguise budget counts what a label never holds)."""
        text = "".join(units) * repeats
        once = redact(text)
        assert "Zq1xK9w2mN" not in once, (text[:200], once[:200])
        assert redact(once) == once
    law()


def test_words_in_disguise_are_redacted_and_redaction_stays_idempotent():
    disguise_law(S.redact)


def test_the_disguise_law_catches_a_redactor_that_reads_no_disguise(monkeypatch):
    import toolpipe.secrets as secrets_module

    monkeypatch.setattr(secrets_module, "disguises", lambda text: [])
    with pytest.raises(AssertionError):
        disguise_law(secrets_module.SecretPatternSet().redact, examples=30)


def test_every_rule_compiles():
    """A rule's regex compiles when its trigger is first found (an import costs less):
    each compiles, and a use goes to the compiled pattern's own method after the first."""
    import importlib

    scan = importlib.import_module("toolpipe.secrets._scan")
    for rule in scan._TRIGGERS.rules:
        made = rule.regex.compiled()
        assert rule.regex.match == made.match and rule.regex.pattern == made.pattern
