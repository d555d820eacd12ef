"""Values their format marks (the eighteenth sitting's held-out `classes-fresh84.txt`:
a changed key in git's word diffs, an ARM template's secureString default, a value under
Pulumi's secret signature, and `gpg -q -d`'s output leaked; `chamber read app region`'s
answer was redacted).

The laws: a credential's new value in a word diff, plain or porcelain, is redacted (and
its old one in the plain form, the diff's marks kept; porcelain's removed line is not
read yet); a
value beside a marker that says it is secret (Terraform's sensitive, ARM's secureString
or secureObject, Pulumi's signature) is redacted, under `value` or `defaultValue`; what a
decryptor prints after its other options is redacted; a store's answer for a name that
says what it holds, and that is no secret, is left. Shown catching the readings taken
away."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets_corpus import drawn
from toolpipe.secrets import SecretPatternSet

S = SecretPatternSet.default_common()


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["API_KEY", "DB_PASSWORD", "client_secret", "AUTH_TOKEN"]),
       st.sampled_from(["plain", "added", "porcelain"]), st.integers(0, 2**32))
def test_a_credential_s_new_value_in_a_word_diff_is_redacted(key, form, seed):
    new, old = drawn(seed, 21), drawn(seed + 1, 21)
    text = {"plain": f"{key}=[-{old}-]{{+{new}+}}", "added": f"{key}={{+{new}+}}",
            "porcelain": f" {key}=\n-old\n+{new}\n~"}[form]
    out = S.redact(text)
    assert new not in out and old not in out, (text, out)
    if form == "plain":  # (the old value too, and the diff's marks kept)
        assert out.startswith(f"{key}=[-[REDACTED:") and "-]{+[REDACTED:" in out, out
        assert out.endswith("+}"), out


MARKED = st.sampled_from([
    '{{"sensitive": true, "type": "string", "value": "{v}"}}',
    '"adminPassword": {{"type": "secureString", "defaultValue": "{v}"}}',
    '"settings": {{"type": "secureObject", "defaultValue": "{v}"}}',
    '{{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", '
    '"value": "{v}"}}'])


@settings(max_examples=80, deadline=None)
@given(MARKED, st.integers(0, 2**32))
def test_a_value_marked_secret_beside_it_is_redacted(form, seed):
    value = drawn(seed, 21)
    text = form.format(v=value)
    assert value not in S.redact(text), text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["gpg -q -d", "gpg --batch --yes --decrypt", "gpg2 --quiet -d",
                        "sops --config .sops.yaml -d"]),
       st.sampled_from(["db.gpg", "secrets.enc.yaml"]), st.integers(0, 2**32))
def test_what_a_decryptor_prints_after_its_options_is_redacted(command, name, seed):
    value = drawn(seed, 13)
    text = f"$ {command} {name}\n{value}\n"
    assert value not in S.redact(text), text
    prose = f"$ {command} {name}\nMeeting moved to Thursday.\n"
    assert S.redact(prose) == prose


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["chamber read app", "pass show db", "keyring get smtp"]),
       st.sampled_from(["region", "db_host", "smtp/user", "endpoint", "bucket"]),
       st.sampled_from(["eu-west-1", "db.internal", "alice@example.com", "assets-prod"]))
def test_a_store_s_answer_for_a_name_of_no_secret_is_left(read, name, answer):
    text = f"$ {read} {name}\n{answer}\n"
    assert S.redact(text) == text


def test_the_laws_catch_the_readings_taken_away(monkeypatch):
    import importlib
    import re

    code = importlib.import_module("toolpipe.secrets._code")
    printed = importlib.import_module("toolpipe.secrets._printed")
    pulumi = ('{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", '
              '"value": "7QxAbcdefgh0123456789x"}')
    assert "7QxAbcdefgh0" not in SecretPatternSet().redact(pulumi)
    monkeypatch.setattr(code, "_SENSITIVE", re.compile(rb"(?!)"))
    assert "7QxAbcdefgh0" in SecretPatternSet().redact(pulumi)
    region = "$ chamber read app region\neu-west-1\n"
    assert SecretPatternSet().redact(region) == region
    monkeypatch.setattr(printed, "_NOT_A_SECRET", re.compile(rb"(?!)"))
    assert SecretPatternSet().redact(region) != region

