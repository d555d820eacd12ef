import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from benchmarks.secrets import SPEC_PATTERNS
from interpreters.simulated import SimulatedInterpreter
from toolpipe import (
    ConfigError,
    DispatchContext,
    DispatchResult,
    DisplayHint,
    ImageContent,
    MultipartContent,
    RedactingMiddleware,
    SecretPatternSet,
    TextContent,
)
from toolpipe.layers.redaction import redact_content, shannon_entropy

S = SecretPatternSet.default_common()

# Built at run time so that no secret-looking literal sits in the repository.
GH = "ghp_" + "a1B2c3D4e5" * 4
GL = "glpat-" + "Ab3_Cd5-Ef7Gh9Ij1Kl3"
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----"
B64 = "Zx9Qw3Er7Ty1Ui5Op2As8Df4Gh6Jk0LzXcVbNm+/="


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the key and its quotes stay (a departure from the spec, see redaction.md)
        ("Authorization: Bearer abc.DEF-123_~+/=", "Authorization: Bearer [REDACTED:bearer]"),
        ("authorization:bearer    tok", "authorization:bearer    [REDACTED:bearer]"),
        ('api_key = "ABCDEFGHIJKLMNOP1234"', 'api_key = "[REDACTED:api_key_kv]"'),
        ("TOKEN: abcdefghijklmnop", "TOKEN: [REDACTED:api_key_kv]"),
        ("secret='abcdefghijklmnopq'", "secret='[REDACTED:api_key_kv]'"),
        ("key " + AWS + " end", "key [REDACTED:aws_access_key] end"),
        ("ASIA" + "A" * 16, "[REDACTED:aws_access_key]"),
        (PEM, "[REDACTED:pem_private_key]"),
        (GH, "[REDACTED:github_pat]"),
        (GL, "[REDACTED:gitlab_pat]"),
        ("x " + B64 + " y", "x [REDACTED:high_entropy] y"),
    ],
)
def test_each_kind(text, expected):
    assert S.redact(text) == expected


def test_near_misses_are_left_alone():
    for text in ["api_key = short", "ghp_tooShort", "AKIA123", "token: abc",
                 "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                 "/usr/lib/python3.11/site-packages/hypothesis/strategies/_internal/core.py",
                 "the_quick_brown_fox_jumps_over_the_lazy_dog_again"]:
        assert S.redact(text) == text, text


def test_the_most_specific_label_wins():
    # the value is an AWS key under a secret-named key: one redaction, the provider's label
    assert S.redact("api_key=" + AWS) == "api_key=[REDACTED:aws_access_key]"


def test_entropy_threshold_and_hex():
    assert shannon_entropy("") == 0.0
    assert shannon_entropy("aaaa") == 0.0
    assert shannon_entropy("ab") == 1.0
    assert shannon_entropy("0123456789abcdef" * 4) == 4.0  # hex tops out at 4 bits
    assert S.redact("0123456789abcdef" * 4) == "0123456789abcdef" * 4
    assert shannon_entropy(B64) >= 4.5


def test_entropy_switch_and_custom_pattern():
    off = S.without_entropy()
    assert off.redact(B64) == B64
    custom = S.with_pattern("internal", r"corp-[0-9]{6}")
    assert custom.redact("id corp-123456") == "id [REDACTED:internal]"
    assert "internal" in custom.kinds() and "high_entropy" in custom.kinds()


@pytest.mark.parametrize("bad", ["(unclosed", "[z-a]", "*"])
def test_invalid_regex_rejected_at_construction(bad):
    with pytest.raises(ConfigError, match="regex"):
        S.with_pattern("mine", bad)


def test_bad_kind_and_empty_match_rejected():
    with pytest.raises(ConfigError, match="kind"):
        S.with_pattern("Bad Kind", "x")
    with pytest.raises(ConfigError, match="empty string"):
        S.with_pattern("empty", "a*")
    with pytest.raises(ConfigError, match="min_entropy"):
        S.with_entropy(min_entropy=float("nan"))


secretish = st.sampled_from([GH, GL, AWS, PEM, B64, "Authorization: Bearer xyz",
                             "token=" + "q" * 16, "[REDACTED:bearer]", "api_key:", "=", "-", "_"])
noise = st.text(alphabet=st.characters(codec="utf-8"), max_size=20)
mixed = st.lists(st.one_of(secretish, noise), max_size=8).map(" ".join) | st.lists(
    st.one_of(secretish, noise), max_size=8).map("".join)


@settings(max_examples=300)
@given(mixed)
@example("PROXY-USER ghp_a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5")  # a label's colon read as
# user:password, the second time (the value started inside the label)
@example("api_key: 000A = ghp_a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5")  # a typed key's
def test_idempotent(text):  # value redacted: read again, the regex took `000A` instead
    once = S.redact(text)
    assert S.redact(once) == once


@given(st.lists(st.sampled_from([GH, GL, AWS, PEM, B64]), min_size=1, max_size=4), noise)
def test_no_secret_survives(secrets, filler):
    text = filler.join(secrets)
    out = S.redact(" " + text + " ")
    for secret in secrets:
        assert secret not in out


def test_text_parts_only_and_everything_else_untouched():
    img = ImageContent(GH.encode())
    content = MultipartContent([TextContent("k " + GH), img])
    out = redact_content(S, content)
    assert out.parts == (TextContent("k [REDACTED:github_pat]"), img)
    assert redact_content(S, img) is img

    result = DispatchResult("id", TextContent(GH), True, 2.5, "Read", DisplayHint("code"))

    def inner(ctx):
        return result
        yield

    out = SimulatedInterpreter().run(RedactingMiddleware().dispatch(DispatchContext("Read"),
                                                                    inner))
    assert out.text == "[REDACTED:github_pat]"
    assert (out.is_error, out.duration, out.display_hint, out.tool_call_id) == (
        True, 2.5, DisplayHint("code"), "id")


def test_find_reports_what_redact_replaces():
    found = S.find(f"{GH} and {AWS}")
    assert found == [("github_pat", GH), ("aws_access_key", AWS)]  # in text order


def test_bad_patterns_argument():
    with pytest.raises(ConfigError):
        RedactingMiddleware("patterns")  # type: ignore[arg-type]


def test_the_pem_rule_is_linear():
    """BEGIN lines with no END after them: the spec's lazy regex retried its scan from
    each one (128 KB took 8 s). Each is now a block cut short, redacted, in linear time."""
    import time

    text = "-----BEGIN RSA PRIVATE KEY-----\n" * 8192  # 256 KB
    start = time.perf_counter()
    out = S.redact("-----END RSA PRIVATE KEY-----\n" + text)
    assert time.perf_counter() - start < 2  # linear: ~20 ms here; quadratic: ~30 s
    assert "BEGIN" not in out


SPEC = SPEC_PATTERNS  # the spec's six: whatever they find, the detectors still remove
PIECES = st.sampled_from([
    "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
    "-----BEGIN OPENSSH PRIVATE KEY-----", "\n", "MIIEowIBAAKCAQEA", " x ", "= ", ": ",
    "-----END EC PRIVATE KEY-----", "-----BEGIN PUBLIC KEY-----", GH, GL, AWS, "api_key",
    "token", "secret", "Authorization: Bearer ", "ABCDEFGHIJKLMNOP1234", '"', "'", "ghp_"])


def _secret_span(pattern: str, found: re.Match[str]) -> tuple[int, int]:
    """Where in a spec match the secret is (its key name and punctuation are not)."""
    text, (lo, hi) = found.group(0), found.span()
    if pattern.startswith("(?i)(?:api"):
        value = re.search(r"[=:]\s*[\"']?([A-Za-z0-9]+)", text)
        assert value is not None
        return lo + value.start(1), lo + value.end(1)
    if "bearer" in pattern:
        value = re.search(r"(?i)bearer\s+", text)
        assert value is not None
        return lo + value.end(), hi
    return lo, hi


@settings(max_examples=300)
@given(st.lists(PIECES, max_size=12).map("".join))
# a key block whose header's text runs into its END line: the span stopped inside that
# line, four dashes short of the spec's (found by hypothesis, 2026-12-05)
@example("-----BEGIN RSA PRIVATE KEY-----Authorization: Bearer MIIEowIBAAKCAQEAMIIEowIBAAK"
         "CAQEA-----BEGIN PUBLIC KEY-----" + "ghp_" + "a1B2c3D4e5" * 4 + "ghp_" + "a1B2c3D4e5" * 4
         + "Authorization: Bearer -----END RSA PRIVATE KEY-----")
def test_the_spec_patterns_never_find_more(text):
    """Wrapping never weakens: every secret one of the spec's patterns finds is inside
    a redacted span."""
    spans = S.spans(text)
    for pattern in SPEC:
        for found in re.finditer(pattern, text):
            lo, hi = _secret_span(pattern, found)
            if pattern.startswith("(?i)(?:api") and text[lo:hi].isalpha():
                continue  # the departure the issue asks for: a name, not a secret
                # (token = AutoTokenizerFromPretrained); see docs/layers/redaction.md
            covered = {i for a, b, _ in spans for i in range(a, b)}
            assert set(range(lo, hi)) <= covered, (pattern, text[lo:hi])


# Found by hypothesis (CI) and by a fuzzer of this wave's rules' fragments: a label can
# stand for what a second reading relies on (a line break inside a redacted block, a
# brace, the spaces around a quoted block); redacting again must change nothing.
AGAIN = [
    'api_key: " -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n'
    '-----END RSA PRIVATE KEY----- "',
    '<entry key="db.password">-----BEGIN OpenVPN Static key V1-----\n  Production'
    '<td>password</td><td>',
    ' | docker login --password-stdin-----BEGIN OpenVPN Static key V1-----\n  Production'
    ' <<< --password-stdin',
    '&#x70;assword="variables": {"p": " | docker login --password-stdin <<< '
    '{"\\u0070assword": "',
    '<entry key="db.password">{"\\u0070assword": "<input type="password" '
    'value="login(password: $p)',
]


@pytest.mark.parametrize("text", AGAIN)
def test_redacting_again_changes_nothing_where_a_label_hides_structure(text):
    once = S.redact(text)
    assert S.redact(once) == once
