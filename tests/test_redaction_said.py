"""Credentials said in prose the other way round (toolpipe/secrets/_said.py, the class of
classes-fresh56.txt): a value, a verb that gives it, a few words, then a label that ends
its clause. Drawn, not listed: every lead, verb, determiner, adjective, label and clause
end, and a token of any length; the look-alikes draw the same sentences around a word
a value is not, or with a label that goes on to name something else."""

from __future__ import annotations

import string

from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolpipe.secrets import SecretPatternSet
from toolpipe.secrets._several import SEVERAL

S = SecretPatternSet.default_common()

LEADS = st.sampled_from(["", "Use ", "use ", "Note: ", "paste ", "OK, ", "- ", "> "])
QUOTES = st.sampled_from(["", '"', "'", "`"])
VERBS = st.sampled_from(["is", "was", "as", "will be", "should be", "becomes", "stays"])
DETERMINERS = st.sampled_from(["", "the ", "your ", "our ", "my ", "a ", "this "])
ADJECTIVES = st.lists(st.sampled_from(["new", "admin", "staging", "root", "current", "team",
                                       "temporary", "deploy", "db"]), max_size=3)
LABELS = st.sampled_from(["password", "Password", "passphrase", "API key", "api key",
                          "token", "secret", "passwd"])
ENDS = st.sampled_from([".", ",", "!", ";", "", "\n", " for now.", " until Monday",
                        " on staging", " from today", ")"])


@st.composite
def tokens(draw: st.DrawFn, longest: int = 60) -> str:
    body = draw(st.text(string.ascii_letters + string.digits, min_size=9, max_size=longest))
    return draw(st.sampled_from(string.digits)) + draw(
        st.sampled_from(string.ascii_uppercase)) + draw(
        st.sampled_from(string.ascii_lowercase)) + body


def sentence(lead: str, quote: str, value: str, verb: str, determiner: str,
             adjectives: list[str], label: str, end: str) -> str:
    words = "".join(f"{a} " for a in adjectives)
    return f"{lead}{quote}{value}{quote} {verb} {determiner}{words}{label}{end}"


@settings(max_examples=300, deadline=None)
@given(LEADS, QUOTES, tokens(), VERBS, DETERMINERS, ADJECTIVES, LABELS, ENDS)
def test_a_value_said_before_its_label_is_redacted(lead, quote, value, verb, determiner,
                                                   adjectives, label, end):
    text = sentence(lead, quote, value, verb, determiner, adjectives, label, end)
    assert value not in S.redact(text), text


# (a name of words and digits, `OAuth2Client`, is token-shaped to every prose form: a
# password may be made so)
WORDY = st.sampled_from(["Keycloak", "v1.2.3-rc4", "HMAC-SHA256", "Bravo", "main",
                         "KeyVault", "the-vault", "AES256GCM", "PBKDF2", "123456"])
GOES_ON = st.sampled_from([" provider.", " rotation", " endpoint,", " field", " policy."])


@settings(max_examples=200, deadline=None)
@given(LEADS, QUOTES, WORDY, VERBS, DETERMINERS, ADJECTIVES, LABELS, ENDS)
def test_a_word_said_before_a_label_is_left(lead, quote, value, verb, determiner,
                                            adjectives, label, end):
    text = sentence(lead, quote, value, verb, determiner, adjectives, label, end)
    assert S.redact(text) == text


@settings(max_examples=200, deadline=None)
@given(LEADS, tokens(20), VERBS, DETERMINERS, LABELS, GOES_ON)
def test_a_label_that_goes_on_names_something_else(lead, value, verb, determiner, label,
                                                   goes_on):
    # (a token before `is the token provider` is left to the other rules: none reads one
    # under 32 characters, where the entropy guess starts)
    text = sentence(lead, "", value, verb, determiner, [], label, goes_on)
    assert value in S.redact(text), text


def test_the_law_can_fail(monkeypatch):
    """Without the check that reads before the label, the drawn sentences leak."""
    monkeypatch.setitem(SEVERAL, "said_before", lambda buf, start, found, floor: (
        [], found.end()))
    text = sentence("Use ", "", "7Qx9mWv2Lr8Kt4Zb", "as", "your ", ["new"], "API key", ".")
    assert "7Qx9mWv2Lr8Kt4Zb" in S.redact(text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["creds are", "Credentials:", "creds:", "login:", "login is",
                        "credentials were", "creds →", "creds ->", "log in with",
                        "sign in with", "login with", "log in as"]),
       st.sampled_from(["app", "root", "deploy", "svc-ci", "alice@example.com"]), tokens(),
       st.sampled_from([" / ", "/"]))
def test_a_user_and_password_pair_after_a_word_for_both(lead, user, value, slash):
    # (an arrow for the colon and a phrase that logs in with the pair: the twelfth
    # sitting's held-out file, `creds → admin / …`, `log in with admin/… on https://…`)
    text = f"{lead} {user}{slash}{value}"
    assert value not in S.redact(text), text


# --- a secret found once, redacted wherever the text repeats it (secrets/_copies.py) -------

CONTEXTS = st.sampled_from(["password={}", "The password is {}.", 'token: "{}"',
                            "{} is the new admin password.", "export API_KEY={}",
                            "mysql -u root -p{} app"])
ECHOES = st.sampled_from(["{}", "echo {}", "GET /login?x={}&y=1", "assert '{}' == 'x'",
                          "-  old: {}", "[{}]", "'{}',"])


@settings(max_examples=200, deadline=None)
@given(CONTEXTS, ECHOES, tokens(30), st.booleans())
# (the ninth sitting: read as quoted-printable's `=3D`, the value was letters alone)
@example("password={}", "{}", "3DaAAAAAaAaa", False)
# (the seventeenth sitting's run: a value ending in `TOKEN` read as a label above the next
# line, whose `password=…` was then taken whole as the value below it)
@example("password={}", "{}", "0Aa0000TOKEN", True)
def test_a_secret_found_once_is_redacted_wherever_it_is_repeated(context, echo, value,
                                                                 echo_first):
    lines = [context.format(value), echo.format(value)]
    text = "\n".join(reversed(lines) if echo_first else lines)
    out = S.redact(text)
    assert value not in out, text
    assert S.redact(out) == out


@settings(max_examples=100, deadline=None)
@given(CONTEXTS, tokens(18))
def test_a_longer_token_holding_the_secret_is_not_a_copy(context, value):
    text = f"{context.format(value)}\nsha: x{value}y"
    assert f"x{value}y" in S.redact(text)


def test_the_copies_law_can_fail(monkeypatch):
    import toolpipe.secrets as secrets

    monkeypatch.setattr(secrets, "copies", lambda buf, found: [])
    text = "password=7Qx9mWv2Lr8Kt4Zb\nGET /login?x=7Qx9mWv2Lr8Kt4Zb"
    assert "7Qx9mWv2Lr8Kt4Zb" in SecretPatternSet.default_common().redact(text)
