"""The key words that name a secret, as the key-value rules (``_rules``) read them:
"password" and its kin (in other languages too, ``_languages``), the words of keys and
tokens in every convention a name is written in (``api_key``, ``api-key``, ``apiKey``,
``api.key``, and in words where the first word stands alone: ``Private key: …``), and
session cookies by name."""

from __future__ import annotations

from toolpipe.secrets._languages import FOREIGN_KEYS, JOINED, LABELS

PASSWORD_WORDS = ("password", "passwd", "passphrase", "pass phrase", "pwd", "pass", "pw", "psk",
                  "requirepass", "masterauth",  # redis (`requirepass:…` in INFO and CONFIG)
                  *LABELS, *JOINED, *(w[0].upper() + w[1:] for w in LABELS if not w.isascii()))
_KEYS = ("secret", "token", "api_key", "api key", "access_key", "private_key", "credential",
         "credentials", "auth_key", "signing_key", "encryption_key", "master_key", "app_key",
         "license_key", "licence_key", "session_key", "x-amz-signature", "subscription_key",
         "functions_key", "preshared_key", "pre_shared_key", "secret_key_base", "client_key",
         "account_key", "shared_access_key", "stored_key", "server_key", "macaroon",
         # HashiCorp's: Consul's and Nomad's ACL token (`SecretID`, `Secret ID = …`),
         # Vault AppRole's secret_id (its `accessor` is a public handle)
         "secret_id", "secret id",
         # a Rails application's generated keys (GitLab's db_key_base, otp_key_base…) and a
         # vendor's application key (Datadog's DD-APPLICATION-KEY)
         "key_base", "application_key",
         *FOREIGN_KEYS,
         # vendors' headers that name no secret word (Honeycomb's, Artifactory's, OVH's)
         "x_honeycomb_team", "x_jfrog_art_api", "x_ovh_consumer",
         # a Wi-Fi profile's key as Windows' netsh reports it; a pre-shared key in words
         "key content", "pre-shared key", "pre shared key")


def _spellings(word: str) -> tuple[str, ...]:
    """``api_key`` as written in every convention: api_key, api-key, apikey, api.key, and
    in words for those whose first word stands alone (`Private key: …`; not `auth key`,
    found inside `OAuth key="value"`)."""
    if "_" not in word:
        return (word,)
    spaced = word.split("_", 1)[0] in _WORDED or word in FOREIGN_KEYS
    seps = ("_", "-", "", ".", " ") if spaced else ("_", "-", "", ".")
    return tuple(word.replace("_", sep) for sep in seps)


_WORDED = frozenset({"private", "signing", "encryption", "master", "license", "licence",
                     "access", "subscription", "account", "application", "preshared"})


KEY_WORDS = tuple(dict.fromkeys(w for word in _KEYS for w in _spellings(word)))
# the key words spelt in words by ``_spellings`` (not those listed so: `key content`,
# `mot de passe`): under one, only a token is a value, as in prose
SPELT_IN_WORDS = frozenset(w.encode() for word in _KEYS if "_" in word and (
    word.split("_", 1)[0] in _WORDED or word in FOREIGN_KEYS) for w in (word.replace("_", " "),))
# Session cookies by name: the value is the login.
COOKIE_WORDS = ("sessionid", "session_id", "connect.sid", "phpsessid", "jsessionid",
                "laravel_session", "_session_id", "asp.net_sessionid", "sessid")
