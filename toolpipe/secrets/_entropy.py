"""The entropy guess: runs of base64/url-safe characters that look random.

A run is at least 32 characters of ``A-Za-z0-9+/_-`` ('=' only as padding at its end,
so ``NAME=value`` splits into NAME and value), not preceded by one. The C scan itself
leaves out the runs that can never pass, so they never cost a Python step: those that
start like an SRI hash (``sha512-…``) and those that are all hex (at most 4 bits a
character; a log of commit ids has thousands). A run is then a secret when it has upper
case, lower case and digits, at least 2^4.5 distinct characters and 4.5 bits of Shannon
entropy a character (both bars lower for a run under 40 characters, by what a shorter
sample of the same randomness shows less: ``_short_slack``), and is not public by
construction (an identifier a system gives its records, ``versionId=``, too): a go.sum
``h1:`` hash, an ETag, a data: URI, an ssh public key or certificate block (zones the
rules pass in), a file's magic bytes in base64, an alphabet, or longer than ``MAX_RUN``
(data, not a credential).
"""

from __future__ import annotations

import binascii
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Callable

from toolpipe.secrets._escapes import GLUED, QUOTE_ENTITIES
from toolpipe.secrets._re2 import (
    SHORT_TEXT,
    UNANCHORED,
    Compiled,
    compile_bytes,
    escape,
    has_run,
    run_table,
)
from toolpipe.secrets._rule import GUESS, Span, b64_plain, base64_of_words, mostly_text

# Runs judged one by one per text before the rest fail closed as [REDACTED:dense]; see
# TRIGGER_BUDGET in _scan (a count, so a second pass stays under it).
RUN_BUDGET = 4_096

_MAGIC = (b"iVBORw0KGgo", b"/9j/", b"R0lGOD", b"UklGR", b"PHN2Zy", b"PD94bWwg", b"JVBERi0",
          b"UEsDB", b"H4sI", b"AAAA", b"T2dnUw", b"SUQz", b"d09GR", b"d09GMg", b"Qk0")
_SRI = (b"sha1-", b"sha256-", b"sha384-", b"sha512-")  # skipped inside the scan
_SKIP_STARTS = (*_SRI, b"sha224-", b"md5-", *_MAGIC)
_HASH_LEADS = (b"h1:", b"W/\"", b"W/\\\"", b"sha256:", b"sha512:", b"sha1:", b"md5:",
               b"base64,")
# A digest's label in any case and spelling: SHA256:, sha-256=, pin-sha256=", sha384-
_HASH_LEAD = re.compile(rb"(?i)(?:^|[^A-Za-z0-9])(?:pin-)?(?:sha|md|blake2[bs]?)[-_]?"
                        rb"(?:1|5|224|256|384|512)?[:=\-]?[\"']?$")
# an identifier a system gives a record of its own (an object's version, a request, a trace,
# an upload), random by construction and public: S3's `versionId=3HL4kq…`, `RequestId: …`
_ID_LEAD = re.compile(rb"(?i)(?:version|request|trace|span|upload|correlation|execution"
                      rb"|revision|message|event)[_\-]?id[\"']?[ \t]*[:=][ \t]*[\"']?\Z")
_UPPER = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = frozenset(b"abcdefghijklmnopqrstuvwxyz")
_DIGIT = frozenset(b"0123456789")
MAX_RUN = 1024  # longer runs are data (images, archives, bundles), not credentials
_RUNS: dict[int, Compiled] = {}


# A run: base64/url-safe characters, '=' only as padding at its end (so NAME=value splits
# into NAME and value). Two things are decided inside the C scan, so that the runs which
# can never pass never cost a Python step: it does not start like an SRI hash
# (sha512-…), and it is not all hex (hex carries at most 4 bits per character, below any
# threshold over 4; a log of commit ids or checksums has thousands of such runs).
_RUN_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+_-/")
_HEX = frozenset(b"0123456789abcdefABCDEF")
_BOUNDARY = frozenset(range(256)) - _RUN_CHARS - {ord("=")}


def _class(chars: frozenset[int] | set[int]) -> bytes:
    return b"[" + b"".join(escape(bytes([c])) for c in sorted(chars)) + b"]"


_ATOM = _class(_RUN_CHARS)
_NOT_HEX = _class(_RUN_CHARS - _HEX)


def _atoms(at_least: int) -> bytes:
    return _ATOM + b"{" + str(max(at_least, 0)).encode() + b",}"


def _with_non_hex(at_least: int) -> bytes:
    """``at_least`` run characters, one of them not hex."""
    hexes = _class(_HEX)
    branches = [hexes + b"{" + str(k).encode() + b"}" + _NOT_HEX + _atoms(at_least - k - 1)
                for k in range(at_least)]
    branches.append(hexes + b"{" + str(at_least).encode() + b",}" + _NOT_HEX + _ATOM + b"*")
    return b"(?:" + b"|".join(branches) + b")"


def _not_starting(prefixes: tuple[bytes, ...], length: int, depth: int = 0) -> bytes:
    """A run of at least ``length`` characters that starts with none of ``prefixes`` (and,
    at the top, is not all hex; every prefix starts with a letter that is not hex)."""
    if not prefixes:
        return _atoms(length - depth)
    nexts = {p[depth] for p in prefixes}
    if depth == 0:
        assert not nexts & _HEX
        branches = [_class(_RUN_CHARS - _HEX - nexts) + _atoms(length - 1),
                    _class(_HEX) + _with_non_hex(length - 1)]
    else:
        branches = [_class(_RUN_CHARS - nexts) + _atoms(length - depth - 1)]
    for c in sorted(nexts):
        rest = tuple(p for p in prefixes if p[depth] == c)
        if any(len(p) == depth + 1 for p in rest):
            continue  # this character completes a prefix: no run starts this way
        branches.append(escape(bytes([c])) + b"(?:" + _not_starting(rest, length,
                                                                        depth + 1) + b")")
    return b"(?:" + b"|".join(branches) + b")"


_RUN_TABLE = run_table(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+_-/")


def _runs(min_length: int) -> Compiled:
    found = _RUNS.get(min_length)
    if found is None:
        # the character before a run is not a run character (or the text starts)
        found = _RUNS[min_length] = compile_bytes(
            rb"(?:^|[^A-Za-z0-9+_\-/])" + _not_starting(_SRI, min_length))
    return found


def _ascending(token: bytes) -> bool:
    """An alphabet or a counting run (ABCDEFGH…, 0123456789…) is not random."""
    steps = sum(1 for a, b in itertools.pairwise(token) if b == a + 1)
    return steps * 2 > len(token)


def shannon_entropy(token: str | bytes) -> float:
    """``-Σ p·log2 p`` over the token's character frequencies, in bits per character."""
    n = len(token)
    if n == 0:
        return 0.0
    return -sum((c / n) * math.log2(c / n) for c in Counter(token).values())


_C_LOG = [0.0] + [c * math.log2(c) for c in range(1, MAX_RUN + 4)]  # c·log2(c), by count


def _bits(token: bytes) -> float:
    """``shannon_entropy(token)`` for a run (at most ``MAX_RUN`` bytes and its padding),
    as ``log2 n - Σ c·log2 c / n`` with the products looked up: a third cheaper."""
    n = len(token)
    return math.log2(n) - sum([_C_LOG[c] for c in Counter(token).values()]) / n


# Does this text hold a secret? (The scanner, handed in: base64 of JSON is judged by what
# it says; None inside such a judgement, so a decoding is never decoded again.)
Reader = Callable[[bytes], bool] | None


def entropy_spans(buf: bytes, public: list[tuple[int, int]], found: list[Span],
                  min_length: int, min_entropy: float, reader: Reader = None) -> list[Span]:
    """High-entropy runs. A run part of which a rule already redacted is judged on what
    is left of it (the rest of ``Zx9Q…ghp_…`` is not protected by the token in it)."""
    spans: list[Span] = []
    if len(buf) <= SHORT_TEXT and not has_run(buf, _RUN_TABLE, min_length):
        return spans  # (no run long enough: the regex's pass would find none)
    match = _runs(min_length).Match
    pos, end = 0, len(buf)
    shelter = iter(public)
    zone = next(shelter, (end, end))
    covers = sorted((lo, hi) for lo, hi, _, _ in found)
    ci = 0
    left = RUN_BUDGET
    while pos < end:
        lo, hi = match(UNANCHORED, buf, pos, end)[0]
        if lo < 0:
            break
        pos = hi  # padding after the run stays free to start the next one's boundary
        while hi < end and hi - pos < 2 and buf[hi] == 0x3D:  # base64 padding: "=", "=="
            hi += 1
        left -= 1
        if left < 0:  # a text made of random-looking words: fail closed, as for triggers
            spans += _dense_runs(buf, lo)
            break
        if buf[lo] in _BOUNDARY:
            lo += 1
        if hi - lo > MAX_RUN or buf.startswith(_SKIP_STARTS, lo) or _escaped_edge(buf, lo, hi):
            continue
        while zone[1] <= lo:
            zone = next(shelter, (end, end))
        if zone[0] <= lo:
            continue
        if zone[0] < hi:  # `=phc_…`: the run reaches into a public zone; what is before it
            if zone[0] - lo < min_length:  # is judged alone, if long enough
                continue
            hi = zone[0]
        while ci < len(covers) and covers[ci][1] <= lo:
            ci += 1
        if ci < len(covers) and covers[ci][0] < hi:  # rules took part of it
            start, j = lo, ci
            while j < len(covers) and covers[j][0] < hi:
                if covers[j][0] - start >= min_length:
                    spans += _judge(buf, start, covers[j][0], min_entropy, reader)
                start = max(start, covers[j][1])
                j += 1
            if hi - start >= min_length:
                spans += _judge(buf, start, hi, min_entropy, reader)
            continue
        spans += _judge(buf, lo, hi, min_entropy, reader)
    return spans


_HEX_PAIR = re.compile(rb"[0-9a-fA-F]{2}")


def _escaped_edge(buf: bytes, lo: int, hi: int) -> bool:
    """A run that starts with a percent escape's two digits (``%2B7z0M…``) or ends at one
    (``…GmBS8Q%3D``) is a misreading of an encoded text, whose separators, quotes and
    blanks are escapes: its line is judged decoded instead, where its context is read
    (``PublicKey = …``, ``integrity": "sha512-…``; `percent_encoded_lines` marks every line
    with an escape). So is a run of GLUED or more between a JSON string's escaped quotes
    (`\\"n\\":\\"…\\"`, a JWK's modulus in a JSON log: its `"kty"` is read decoded;
    `json_string_lines` marks such a line), or between quotes HTML's entities write
    (`html_lines`)."""
    if lo > 0 and buf[lo - 1] == 0x25 and _HEX_PAIR.match(buf, lo):
        return True  # (`%2B7z0M…`: the run starts with an escape's digits)
    if buf[hi:hi + 1] == b"%" and _HEX_PAIR.match(buf, hi + 1):
        return True  # (`…GmBS8Q%3D`)
    if hi - lo < GLUED:
        return False
    if buf[lo - 2:lo] == b'\\"' and _CLOSING_QUOTE.match(buf, hi):
        return True
    return buf.endswith(_QUOTE_ENTITIES, 0, lo) and buf.startswith(_QUOTE_ENTITIES, hi)


# (the JSON and HTML readings mark a line with such a run: `_escapes.GLUED_RUN`)
_CLOSING_QUOTE = re.compile(rb'\\+"')  # (JSON in JSON: `\\\"`)
_QUOTE_ENTITIES = tuple(entity.encode() for entity in QUOTE_ENTITIES)


# DER's openings, after the outer SEQUENCE's header: a certificate's TBSCertificate and
# version (30 82 …, A0 03 02 01), a public key's algorithm (RSA's or EC's OID)
_RSA_SPKI = bytes.fromhex("300d06092a864886f70d0101")
_EC_SPKI = bytes.fromhex("301306072a8648ce3d0201")


def _json_without_secrets(token: bytes, reader: Reader) -> bool:
    """Base64 of a JSON object or array (a client's config, a token's claims) is data,
    unless what it says holds a secret (`{"password": …}`, an auth member): judged by the
    scanner on the decoded text."""
    if reader is None or len(token) < 24:
        return False
    plain = b64_plain(token)
    if plain is None or plain.lstrip()[:1] not in (b"{", b"[") or not mostly_text(plain, 1.0):
        return False
    try:
        json.loads(plain)
    except ValueError:
        return False
    return not reader(plain)


def _der_public(token: bytes) -> bool:
    """Base64 of a certificate or a public key (an X.509 certificate, a SubjectPublicKeyInfo)
    is public; a keystore or a private key (PKCS#12, PKCS#8: an INTEGER first) is not."""
    try:
        der = binascii.a2b_base64(token[:32])
    except (binascii.Error, ValueError):
        return False
    if len(der) < 16 or der[0] != 0x30:
        return False
    at = 2 + (der[1] & 0x7F if der[1] & 0x80 else 0)  # past the outer SEQUENCE's length
    inner = der[at:]
    if inner[:1] == b"\x30" and len(inner) > 4:
        skip = 2 + (inner[1] & 0x7F if inner[1] & 0x80 else 0)
        if inner[skip:skip + 4] == b"\xa0\x03\x02\x01":
            return True  # a certificate: TBSCertificate, then its explicit version
    return inner.startswith((_RSA_SPKI, _EC_SPKI))


def _judge(buf: bytes, lo: int, hi: int, min_entropy: float, reader: Reader) -> list[Span]:
    token = buf[lo:hi]
    chars = set(token)
    slack = _SHORT_SLACK.get(len(token), (0.0, 0.0))
    if len(chars) < 2 ** min_entropy - slack[1] or chars.isdisjoint(_UPPER) or \
            chars.isdisjoint(_LOWER) or chars.isdisjoint(_DIGIT):
        return []
    before = buf[max(0, lo - 16):lo]
    if before.endswith(_HASH_LEADS) or _HASH_LEAD.search(before) or base64_of_words(token) or (
            token[:1] == b"M" and _der_public(token)) or _ID_LEAD.search(
                buf, max(0, lo - 40), lo + (token[:1] == b"=")):
        return []
    if _bits(token) < min_entropy - slack[0] or _ascending(token) or _json_without_secrets(
            token, reader):
        return []
    # (a run after `=` is judged with it, as it always was, and redacted without it:
    # `bh=…` kept its name and lost its `=`; one after a JSON `\uXXXX` escape, without
    # the escape's letters: `\uff1a7Qx…` stays JSON)
    if lo > 0 and buf[lo - 1] == 0x5C and _U_ESCAPE.match(token):
        return [(lo + 5, hi, "high_entropy", GUESS)]
    return [(lo + 1 if token[:1] == b"=" else lo, hi, "high_entropy", GUESS)]


_U_ESCAPE = re.compile(rb"u[0-9a-fA-F]{4}")


def _short_slack(n: int) -> tuple[float, float]:
    """How much lower a run of ``n`` characters' bars stand than a 40-character one's:
    the entropy a text of ``n`` shows is lower the shorter it is, though each character is
    as random (a sample's estimate is biased by about (k - 1) / (2 n ln 2) bits over an
    alphabet of k = 62), and it holds fewer distinct characters (62 (1 - (61/62)^n)). At
    32 characters a third of random tokens fell under the bars fixed for any length."""
    k = 62
    bias = (k - 1) / (2 * math.log(2))
    distinct = k * ((1 - 1 / k) ** n - (1 - 1 / k) ** 40)  # (> 0: fewer than at 40)
    return max(0.0, bias / n - bias / 40), max(0.0, distinct)


_SHORT_SLACK = {n: _short_slack(n) for n in range(1, 40)}


_RUN_CLUSTER = compile_bytes(
    rb"[A-Za-z0-9+/=_\-]{32,}(?:[^A-Za-z0-9+/=_\-]{1,8}[A-Za-z0-9+/=_\-]{32,})*")


def _dense_runs(buf: bytes, pos: int) -> list[Span]:
    spans: list[Span] = []
    match = _RUN_CLUSTER.Match
    size = len(buf)
    while pos < size:
        lo, hi = match(UNANCHORED, buf, pos, size)[0]
        if lo < 0:
            break
        spans.append((lo, hi, "dense", GUESS))
        pos = hi
    return spans


