"""The detectors: one row per shape of secret, found from a trigger (see ``_rule``), and
the rows of the keys that name a secret (their words: ``_keywords``). Facts about the
shapes come from gitleaks' rules and detect-secrets' plugins (prefixes, lengths,
alphabets); the code is ours.
"""

from __future__ import annotations

import re

import attrs

from toolpipe.secrets._answers import ANSWER_RULES
from toolpipe.secrets._argv import ARGV_RULES
from toolpipe.secrets._bound import BOUND_RULES
from toolpipe.secrets._code import CODE_RULES
from toolpipe.secrets._contexts import CONTEXT_RULES
from toolpipe.secrets._declared import DECLARED_RULES
from toolpipe.secrets._devices import DEVICE_RULES
from toolpipe.secrets._fields import FIELD_RULES
from toolpipe.secrets._forms import FORM_RULES
from toolpipe.secrets._keywords import COOKIE_WORDS, KEY_WORDS, PASSWORD_WORDS
from toolpipe.secrets._lists import LIST_RULES
from toolpipe.secrets._named import NAMED_RULES, PUBLIC_PREFIXES
from toolpipe.secrets._providers import PROVIDER_RULES
from toolpipe.secrets._rule import (
    ARROWS,
    B64,
    CONTEXT,
    END,
    PUBLIC_ZONE,
    URLSAFE,
    VALUE,
    VALUE_GROUPS,
    Rule,
)
from toolpipe.secrets._rule import rule as _rule
from toolpipe.secrets._schemes import SCHEMES as SCHEMES  # (registered as it is imported)
from toolpipe.secrets._tabular import TABULAR_RULES
from toolpipe.secrets._tools import TOOL_RULES
from toolpipe.secrets._traces import TRACE_RULES
from toolpipe.secrets._wallets import WALLET_RULES

_SUFFIX = r"(?:[_\-. ]?(?:key|token|secret|value|string|str))?"
# a type's name, as a signature gives it (`str`, `String`, `SecretStr`, `java.lang.String`):
# words, each capital followed by small letters (a token in brackets is a value, not one)
_TYPE = (r"""[A-Za-z][a-z]{0,15}(?:[A-Z][a-z]{1,15}){0,3}"""
         r"""(?:\.[A-Za-z][a-z]{0,15}(?:[A-Z][a-z]{1,15}){0,3}){0,3}""")
# a separator as written, or escaped: JSON (\u003d), C (\x3d), HTML (&#61; &#x3a;) (a URL's
# `%3D` is read decoded: _percent.percent_encoded_lines)
# (markdown's emphasis around a label: `**Password:** …`, `*Token*: …`, `__API key__: …`;
# a dash between a label and its value: `Password — …`)
_SEP = (r"""(?P<close>(?:\\{1,7})?["'`]?\]?(?:&quot;)?(?:\*{1,2}|_{1,2})?)"""
        # kubectl describe's `NAME:`, a rule of dashes, then the value on its own line
        r"""(?P<sep>:[ \t]*\r?\n-{3,}[ \t]*\r?\n"""
        # a YAML block scalar's indicator (`key: |`, `key: >-`), its first line the value
        r"""|["']?[ \t]*:[ \t]*[|>][-+0-9]{0,2}[ \t]*\r?\n[ \t]+"""
        # a type between a name and its value (`API_KEY: &str = …`, `apiKey: string = …`)
        # (a type has no blank, but for a union with nothing: `str | None`)
        # (not a token: 16 letters and digits, a digit among them, is a value before `=`)
        r"""|\s{0,8}:\s{0,8}(?!//)(?!(?=[A-Za-z0-9]{16})[A-Za-z]*[0-9])[&\w<>\[\].,*?]{1,40}"""
        r"""(?:[ \t]*\|[ \t]*(?:None|undefined|null))?\s{0,8}=(?![=>])\s{0,8}"""
        # a type after the name, in brackets, then a separator or a blank (`password
        # (string): …`, `api_key <str> …`, `secret_token [String] = …`)
        r"""|[ \t]+(?:\(""" + _TYPE + r"""\)|<""" + _TYPE + r""">|\[""" + _TYPE + r"""\])"""
        r"""(?:[ \t]*(?:=|:)[ \t]*|[ \t]+)"""
        # an arrow between blanks (`password -> …`, `token ~> …`, `client_secret → …`)
        r"""|[ \t]+(?:""" + ARROWS + r""")[ \t]+"""
        # an element's text on the lines after its tag (`<secret>⏎    VALUE⏎</secret>`)
        r"""|>[ \t]*\r?\n[ \t]*(?=[^\s<])"""
        # an element's attributes before its text (`<Pass encoding="base64">…`)
        r"""|(?:[ \t]+[\w:-]{1,32}=(?:"[^"<>\n]{0,256}"|'[^'<>\n]{0,256}')){1,4}[ \t]*>"""
        # (make's `?=`, `::=` and `+=`, R's `<-` and `<<-`)
        r"""|=>\s{0,8}string\([0-9]{1,6}\)[ \t]*"""  # PHP's var_dump: `=>`, then its type
        # a string a formatter wrapped in parentheses under its name (black's `API_KEY = (⏎
        # "…"⏎)`, `api_key=(⏎ "…"⏎ )`: the eighteenth sitting's classes-fresh83)
        r"""|\s{0,8}=\s{0,8}\([ \t]*\r?\n\s{0,80}(?=["'])"""
        # git's word diffs: `KEY=[-old-]{+new+}` (plain: the old value here, the new one its
        # continuation, _continued), and porcelain's `KEY=` ending its line, then the
        # removed `-old` and the added `+new` lines (the new value: the eighteenth sitting)
        r"""|=(?:\[-|\{\+)(?=[^\s\]}])|=[ \t]*\r?\n(?:-[^\n]{0,256}\r?\n)?\+(?=[^\s+])"""
        # a report's label padded to its colon: blanks, or dot leaders (`Key Content    :`,
        # `Shared Secret . . . . :`, ipconfig's and netsh's way)
        r"""|(?:[ \t]{9,80}|[ \t]?(?:\.[ \t]?){3,80}):[ \t]*"""
        # (and the assignments that keep a value already set: ruby's and JavaScript's
        # `||=`, C#'s and PHP's `??=`, perl's `//=`)
        r"""|\s{0,8}(?:::=|::|:-|=>|:=|\?=|\+=|\|\|=|\?\?=|//=|<<?-(?!-)|=|:|："""
        r"""|\\u003[DdAa]|\\x3[DdAa]|&\#(?:61|58|x3[DdAa]);)\s{0,8}(?:\*{1,2}(?=[ \t]))?\s{0,8}"""
        r"""(?:\*\*|__)?"""  # (and the value in emphasis: `password: **…**`)
        r"""(?:[&!][\w!.:/-]{0,40}[ \t]+)?"""  # YAML's anchor or tag: `key: &a VALUE`
        r"""|[ \t]*(?:—|–)[ \t]*|[ \t]+-[ \t]+"""  # (a hyphen: only a token, as after an arrow)
        # (Windows' `reg query`: `    DefaultPassword    REG_SZ    VALUE`)
        r"""|[ \t]{2,}REG_(?:SZ|EXPAND_SZ|MULTI_SZ)[ \t]{2,}"""
        r"""|[ \t]+(?!\?\?|\|\||\?:)|>"""
        r"""|[ \t]*(?:\*\*|__)?[ \t]*(?:\||│|┃|║)[ \t]*"""  # | password | VALUE | (a table row)
        r"""|[ \t]*,[ \t]*"""  # define('DB_PASSWORD', 'VALUE'): a quoted name, then its value
        # <td>password</td><td>VALUE</td>, <dt>…</dt><dd>, a plist's <key>…</key><string>
        r"""|</(?i:td|th|dt|b|strong|span|label|key)>\s{0,8}"""
        r"""<(?i:td|dd|span|code|string|data)(?:\s[^<>]{0,80})?>"""
        r"""|[ \t]*(?:\|\||\?\?|\?:)[ \t]*)""")  # API_TOKEN || "fallback"; ${TOKEN:-x} above


# what must follow a key word for its rule to be tried: a separator, or blanks then a token
# a credential could be (a digit, a capital or a symbol in it, or 8 letters): `password
# reset` is prose
_KV_SHAPE = (r"""(?i:[a-z_.\-]{0,8})(?:</(?i:td|th|dt|b|strong|span|label|key)>"""
             r"""|[\\"'`\]*]{0,3}\s{0,8}(?:[=:>%\\&|]|\?\??=|\+=|//=|<<?-|：|│|┃|║)"""
             r"""|[\\"'\]*]{0,3}[ \t]+(?:\S*[0-9A-Z!#%*+/=_~.@-]|[a-z]{8})"""
             r"""|["'][ \t]*,[ \t]*["']|[ \t]*(?:\|\||\?\?|\?:)[ \t]*["'`]|:-[^\s}]"""
             r"""|[ \t]*(?:—|–)|[ \t]+-[ \t]+[A-Za-z0-9]|[ \t]{9}|[ \t]?\.[ \t]?\.[ \t]?\."""
             r"""|[ \t]+(?:""" + ARROWS + r""")[ \t]+\S"""
             # (a type or a value in brackets: the rule's own separator reads which; kept
             # short here, where re2's automaton of every trigger grows with each state)
             r"""|[ \t]+[(\[<{][A-Za-z0-9+/_\-])""")


def _kv(kind: str, words: tuple[str, ...]) -> tuple[Rule, Rule]:
    alts = "|".join(re.escape(w).replace(r"\-", "-") for w in sorted(words, key=len,
                                                                        reverse=True))
    # a suffix of the name's own after the key word (`password_plain`, `apiKeyProd`,
    # `db_password_prod`): after a separator, or a capital; the check refuses one that
    # says what the value is about (`token_type`, `password_length`, `passwordPolicy`)
    suffix = r"(?P<ksuf>(?:[_\-.][A-Za-z0-9]{1,16}|[A-Z][a-z0-9]{1,16}){1,4})?"
    # a template's literal stands for itself (`pass={{ 'x' }}`, `{{ "x" }}`)
    # and a literal in parentheses (`TOKEN = ("abc"` then "def" on the next line)
    literal = r"""(?:["']?\{\{-?[ \t]*(?=["'])|\([ \t]*(?=["']))?"""
    regex = rf"(?i:(?:{alts}){_SUFFIX}){suffix}{_SEP}{literal}{VALUE}"
    # a name with a longer suffix of its own (`TF_TOKEN_app_terraform_io=`): found by its
    # key word and an underscore (`token_`), the separator left to the rule's own regex (a
    # 32-letter run after every key word in the trigger made re2's automaton slow to build
    # on random text: base64 words took 1.7 s a megabyte); `pw-`, `key.` are too common
    glued = tuple(dict.fromkeys(w + "_" for w in words if len(w) >= 5 and w[-1:].isalpha()))
    return (_rule(kind, words, regex, value=VALUE_GROUPS, check="key_value",
                  priority=CONTEXT, bounded=False, shape=_KV_SHAPE),
            _rule(kind, glued, regex, value=VALUE_GROUPS, check="key_value",
                  priority=CONTEXT, bounded=False))


RULES: tuple[Rule, ...] = (
    # --- private key blocks, in any wrapping, JSON-escaped or cut short -----------------
    _rule("pem_private_key", "-----begin",
          r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----"
          r"(?:(?:\s|\\[nr])*[A-Za-z][A-Za-z\-]{1,30}: [^\n\\]{0,200})*"
          rf"(?:[{B64}=\r\n]|\\[nr]|[ \t]{{1,16}}(?=[{B64}=]{{8}}))*"
          r"(?:[ \t]*-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----)?",
          check="pem", bounded=False, shape=r"[ A-Z0-9]{0,40}PRIVATE KEY"),
    # other key blocks: OpenVPN's static key, a "SECRET KEY" or "SHARED KEY" block: the
    # lines of its body
    _rule("pem_private_key", "-----begin",
          r"-----BEGIN[ A-Za-z0-9]{0,40}(?i:static|secret|shared) (?i:key)[ A-Za-z0-9]{0,12}"
          r"-----(?P<v>(?:(?:\r?\n|\\[nr])[ \t]*[A-Za-z0-9+/=]{8,128}){1,256})",
          value=("v",), bounded=False,
          shape=r"[ A-Za-z0-9]{0,40}(?i:static|secret|shared) (?i:key)"),
    _rule("pem_private_key", "LS0tLS1CRUdJTi",  # base64 of a PEM block (kubeconfig *-data)
          rf"LS0tLS1CRUdJTi[{B64}]{{8,65536}}={{0,2}}", check="b64_pem"),
    # --- clouds ---------------------------------------------------------------------------
    _rule("aws_access_key", ("akia", "asia", "agpa", "abia", "acca", "aida", "aroa", "aipa",
                             "anpa", "anva", "apka", "a3t"),
          r"(?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|ABIA|ACCA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)"
          r"[A-Z0-9]{16}", shape="[A-Z0-9]{16}", bounded=False),
    _rule("aws_secret_key", ("aws_secret", "secret_access_key", "secretaccesskey",
                             "aws-secret", "secret-access-key"),
          r"(?i:(?:aws)?[_\-]?secret[_\-]?(?:access)?[_\-]?key(?:[_\-]?id)?)"
          r"""\\?["']?[ \t]*(?:=>|:=|=|:)[ \t]*\\?["']?"""
          r"(?P<v>(?:[A-Za-z0-9+]|\\?/){40})(?![A-Za-z0-9+/])", value=("v",)),
    _rule("azure_storage_key", "accountkey=",
          rf"(?i:accountkey)=(?P<v>[{B64}]{{86}}==)", value=("v",)),
    _rule("google_api_key", "aiza", rf"AIza[{URLSAFE}]{{35}}", shape=rf"[{URLSAFE}]{{35}}",
          bounded=False),
    _rule("google_oauth", ("ya29.", "gocspx-"),
          rf"(?:ya29\.[{URLSAFE}]{{30,512}}|GOCSPX-[{URLSAFE}]{{28}}){END}",
          shape=rf"[{URLSAFE}]{{28}}"),
    _rule("digitalocean_token", ("dop_v1_", "doo_v1_", "dor_v1_"),
          r"do[opr]_v1_[a-f0-9]{64}(?![A-Za-z0-9])", shape="[a-f0-9]{64}"),
    _rule("vault_token", ("hvs.", "hvb.", "hvr."), rf"hv[sbr]\.[{URLSAFE}]{{24,512}}{END}",
          shape=rf"[{URLSAFE}]{{24}}"),
    _rule("databricks_token", "dapi", r"dapi[a-f0-9]{32}(?:-\d)?(?![A-Za-z0-9])",
          shape="[a-f0-9]{32}"),
    # --- code hosts and registries -----------------------------------------------------
    _rule("github_pat", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
          r"gh[pousr]_[A-Za-z0-9]{36,255}", shape="[A-Za-z0-9]{36}", bounded=False),
    _rule("github_pat", "github_pat_", r"github_pat_[A-Za-z0-9_]{60,255}",
          shape="[A-Za-z0-9_]{60}", bounded=False),
    _rule("gitlab_pat", ("glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-", "glcbt-",
                         "glimt-", "glagent-", "gloas-", "gr1348941"),
          rf"(?:gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|agent|oas)-|GR1348941)[{URLSAFE}]{{20,512}}",
          shape=rf"[{URLSAFE}]{{20}}", bounded=False),
    _rule("npm_token", "npm_", r"npm_[A-Za-z0-9]{36}", shape="[A-Za-z0-9]{36}", bounded=False),
    _rule("pypi_token", "pypi-ag",
          rf"pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[{URLSAFE}]{{40,512}}", bounded=False),
    _rule("huggingface_token", ("hf_", "api_org_"), rf"(?:hf_|api_org_)[A-Za-z]{{34}}{END}",
          shape="[A-Za-z]{34}"),
    # --- messaging, payments, mail -----------------------------------------------------
    _rule("slack_token", ("xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxc-",
                          "xoxo-", "xapp-"),
          r"(?:xox[abposrec](?:\.xox[a-z])?-[0-9A-Za-z\-]{10,512}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)",
          shape=r"[0-9A-Za-z\-]{8}", bounded=False),
    _rule("slack_webhook", "hooks.slack.com",
          rf"hooks\.slack\.com/(?:services|workflows|triggers)/[{B64}_\-]{{20,512}}"),
    # a webhook whose address is its credential: Zapier's catch hooks (id/secret)
    _rule("zapier_webhook", "hooks.zapier.com/hooks/catch/",
          r"hooks\.zapier\.com/hooks/catch/\d{1,16}/[a-z0-9]{5,64}", bounded=False),
    _rule("discord_webhook", ("discord.com/api/webhooks/", "discordapp.com/api/webhooks/"),
          rf"discord(?:app)?\.com/api/webhooks/\d+/[{URLSAFE}]{{60,512}}"),
    _rule("telegram_bot_token", ":aa", rf"(?<![0-9])[0-9]{{8,10}}:AA[{URLSAFE}]{{33}}{END}",
          bounded=False, back=(10, 8), shape=rf"[{URLSAFE}]{{33}}"),
    _rule("stripe_key", ("sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_",
                         "rk_prod_", "whsec_"),
          r"(?:(?:sk|rk)_(?:live|test|prod)_[0-9A-Za-z]{10,247}|whsec_[A-Za-z0-9+/=]{32,512})",
          shape="[0-9A-Za-z+/=]{10}", bounded=False),
    _rule("square_token", ("sq0atp-", "sq0csp-"), rf"sq0(?:atp|csp)-[{URLSAFE}]{{22,60}}",
          shape=rf"[{URLSAFE}]{{22}}"),
    _rule("shopify_token", ("shpat_", "shpca_", "shppa_", "shpss_"),
          r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", shape="[a-fA-F0-9]{32}", bounded=False),
    _rule("twilio_key", "sk", r"SK[0-9a-fA-F]{32}(?![A-Za-z0-9])", shape="[0-9a-fA-F]{32}"),
    _rule("sendgrid_key", "sg.", rf"SG\.[{URLSAFE}]{{22}}\.[{URLSAFE}]{{43}}{END}",
          shape=rf"[{URLSAFE}]{{22}}\.", bounded=False),
    _rule("mailgun_key", "key-", r"key-[0-9a-f]{32}(?![A-Za-z0-9])", shape="[0-9a-f]{32}"),
    # --- AI providers ---------------------------------------------------------------------
    _rule("anthropic_key", "sk-ant-", rf"sk-ant-[a-z]{{2,8}}\d\d-[{URLSAFE}]{{32,512}}",
          shape=r"[a-z]{2,8}[0-9][0-9]-", bounded=False),
    _rule("openai_key", "sk-",
          rf"sk-(?!ant-)(?:(?:proj|svcacct|admin|None)-)?[{URLSAFE}]{{32,512}}",
          shape=rf"[{URLSAFE}]{{32}}"),
    # --- other services -----------------------------------------------------------------
    _rule("service_token", ("lin_api_", "pmak-", "nrak-", "dp.pt.", "dp.st.", "dt0c01.",
                            "glc_", "glsa_", "age-secret-key-1", "atatt3", "hrku-", "sntrys_",
                            "figd_", "dop_v1_"),
          r"(?:lin_api_[A-Za-z0-9]{40}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|NRAK-[A-Z0-9]{27}"
          r"|dp\.(?:pt|st)\.[A-Za-z0-9]{40,512}|dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}"
          rf"|glc_[{B64}]{{32,512}}={{0,2}}|glsa_[A-Za-z0-9]{{32}}_[A-Fa-f0-9]{{8}}"
          r"|AGE-SECRET-KEY-1[0-9A-Z]{58}|ATATT3[A-Za-z0-9_\-=]{150,512}"
          rf"|HRKU-[{URLSAFE}]{{30,512}}|sntrys_[A-Za-z0-9+/=_]{{40,512}}|figd_[{URLSAFE}]{{40,512}})",
          shape=r"[A-Za-z0-9_\-+/=.]{20}", bounded=False),
    _rule("service_token", ("pul-", "lin_oauth_", "sntryu_", "akcp", "a3-"),
          r"(?:pul-[a-f0-9]{40}|lin_oauth_[a-f0-9]{64}|sntryu_[a-f0-9]{64}"
          r"|AKCp[A-Za-z0-9]{69}|A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})"
          r"-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})(?![A-Za-z0-9])",
          shape=r"[A-Za-z0-9]{6}"),
    # a New Relic license key ends with its marker, found from there
    _rule("service_token", "nral", r"(?<![A-Za-z0-9])[a-z0-9]{6}[a-f0-9]{30}NRAL(?![A-Za-z0-9])",
          bounded=False, back=(36, 36)),
    *PROVIDER_RULES,
    # --- tokens and credentials by shape ---------------------------------------------------
    # (and a JWE: five parts, the second an encrypted key, empty for `dir`, not JSON)
    _rule("jwt", "eyj",
          rf"eyJ[{URLSAFE}]{{8,4096}}\.(?:eyJ[{URLSAFE}]{{8,8192}}\.[{URLSAFE}]{{0,4096}}"
          rf"|[{URLSAFE}]{{0,4096}}\.[{URLSAFE}]{{8,4096}}\.[{URLSAFE}]{{8,65536}}\."
          rf"[{URLSAFE}]{{8,4096}})",
          shape=rf"[{URLSAFE}]{{8}}[{URLSAFE}]*\.(?:eyJ|[{URLSAFE}]*\.[{URLSAFE}]{{8}})"),
    # Discord's bot and user tokens: the user's id (digits) in base64, a time, an HMAC;
    # found from how an id's first digits read in base64 (`MT…` for 1…, `Nz` for 7…)
    _rule("service_token", (),
          r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6,7}\.[A-Za-z0-9_\-]{27,40}"
          r"(?![A-Za-z0-9_\-])", bounded=False,
          # (the whole first part in the trigger: two letters alone, as in `CONTEXT`, `INT`,
          # `AND`, were a judged trigger at every such word of a text)
          case_triggers=(r"(?:MT|Mj|Mz|ND|NT|Nj|Nz|OD|OT)[A-Za-z0-9_\-]{22,26}\.",)),
    _rule("bearer", "bearer",
          r"(?i:bearer)\s{1,8}(?P<v>[A-Za-z0-9\-._~+/=]{1,4096})",
          value=("v",), check="bearer", bounded=False, shape=r"\s{1,8}[A-Za-z0-9\-._~+/=]"),
    _rule("basic_auth", "basic",
          rf"(?i:basic)[ \t]+(?P<v>[{B64}]{{4,4096}}={{0,2}})(?![{B64}=])",
          value=("v",), check="basic", bounded=False, shape=r"[ \t]+[A-Za-z0-9+/]{4}"),
    _rule("url_password", "://",  # the password runs to the last @ before the host
          r"""://[^\s:/@"'<>\\\[\]]{0,128}:(?P<v>[^\s/"'<>\\\[\]]{1,256})@"""
          r"""(?=[A-Za-z0-9.\-\[\]_]+(?:[:/?#\s"']|$))""",
          value=("v",), check="url_password", bounded=False,
          shape=r"""[^\s:/@"'<>\\\[\]]*:[^\s@/"'<>\\\[\]]+@"""),
    # a token as a URL's user name, with no password: `https://<PAT>@dev.azure.com/…`,
    # `https://<token>@github.com/…`: 32 or more letters and digits, not a word
    _rule("url_password", "://",
          r"""://(?P<v>[A-Za-z0-9_\-]{32,256})@(?=[A-Za-z0-9.\-]+(?:[:/?#\s"']|$))""",
          value=("v",), check="url_token", bounded=False,
          shape=r"""[A-Za-z0-9_\-]{32}[A-Za-z0-9_\-]{0,224}@"""),
    # --- secret-named keys, in .env, shell, YAML, TOML, JSON, flags and XML forms ---------
    *_kv("password", PASSWORD_WORDS),
    *_kv("api_key_kv", KEY_WORDS),
    *_kv("session_cookie", COOKIE_WORDS),
    # a personal access token's short name (GH_PAT, AZURE_DEVOPS_EXT_PAT): a whole word, a
    # separator right after it (`path=`, `compat=` never leave the C scan)
    _rule("api_key_kv", "pat", rf"(?i:pat){_SEP}{VALUE}", value=VALUE_GROUPS,
          check="key_value", priority=CONTEXT,
          shape=r"""["']?[ \t]*(?:[:=]|：)[ \t]*["']?[^\s"'$<{]"""),
    # an upper-case configuration name ending in SALT (WordPress' AUTH_SALT, Flask-
    # Security's SECURITY_PASSWORD_SALT, HASHIDS_SALT): an application's salt keys its
    # hashes; a salt beside a stored hash (`"salt": "…"`, `password_salt`) is data
    _rule("api_key_kv", "_salt", rf"(?-i:_SALT){_SEP}{VALUE}", value=VALUE_GROUPS,
          check="key_value", priority=CONTEXT,
          shape=r"""["']?[ \t]*(?:[:=,]|：)[ \t]*["']?[^\s"'$<{]"""),
    *CONTEXT_RULES,
    *ARGV_RULES,
    *CODE_RULES,
    *DECLARED_RULES,
    *ANSWER_RULES,
    *LIST_RULES,
    *WALLET_RULES,
    *NAMED_RULES,
    *DEVICE_RULES,
    *FORM_RULES,
    *TABULAR_RULES,
    *BOUND_RULES,
    *TRACE_RULES,
    *TOOL_RULES,
    *FIELD_RULES,
)

PAGINATION_KEYS = ("nexttoken", "next_token", "nextpagetoken", "next_page_token",
                   "pagetoken", "page_token", "continuationtoken", "continuation_token",
                   "nextcursor", "next_cursor", "synctoken", "resumetoken")

# Spans where long base64 is public by construction (the entropy guess skips them).
PUBLIC: tuple[Rule, ...] = tuple(attrs.evolve(r, priority=PUBLIC_ZONE) for r in (
    _rule("public_block", "-----begin",
          r"-----BEGIN (?:CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|PGP PUBLIC KEY BLOCK|"
          r"PGP SIGNATURE|PGP MESSAGE|SSH2 PUBLIC KEY|CERTIFICATE REQUEST|NEW CERTIFICATE "
          r"REQUEST|X509 CRL|TRUSTED CERTIFICATE|ENCRYPTED MESSAGE|SIGNED MESSAGE|DH PARAMETERS|"
          r"EC PARAMETERS)-----"
          r"(?:(?:\s|\\[nr])*[A-Za-z][A-Za-z\-]{1,30}: [^\n\\]{0,200})*"
          rf"(?:[{B64}=\r\n]|\\[nr]|[ \t]{{1,16}}(?=[{B64}=]{{8}}))*", bounded=False,
          shape=r" (?:CERTIFICATE|PUBLIC KEY|RSA PUBLIC|PGP (?:PUBLIC|SIGNATURE|MESSAGE)|SSH2|"
                r"NEW CERTIFICATE|X509|TRUSTED|ENCRYPTED MESSAGE|SIGNED|DH PARAM|EC PARAM)"),
    _rule("public_key", ("ssh-rsa ", "ssh-ed25519 ", "ssh-dss ", "ecdsa-sha2-", "sk-ssh-",
                         "sk-ecdsa-"),
          rf"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-"
          rf"nistp256)@openssh\.com) +[{B64}=]+"),
    _rule("data_uri", ";base64,", rf";base64,[{B64}=_\-]*"),
    # a certificate in XML's signature and a JWK's chain: DER, base64, public by design
    _rule("public_certificate", ("x509certificate>", '"x5c"'),
          rf"""(?i:x509certificate>|"x5c"[ \t]*:[ \t]*\[[ \t]*")[{B64}=\s]{{32,65536}}""",
          bounded=False),
    _rule("public_b64_pem", ("LS0tLS1CRUdJTiBDRVJUSUZJQ0FUR", "LS0tLS1CRUdJTiBQVUJMSUMgS0VZ"),
          rf"LS0tLS1CRUdJTiB[{B64}]*={{0,2}}"),
    _rule("arn", "arn:aws", r"arn:aws[a-z\-]*:[^\s\"'`]*"),
    # request and trace ids of CDNs and clouds
    _rule("request_id", ("x-amz-cf-id", "x-amz-id-2", "x-amz-request-id", "x-request-id",
                         "x-correlation-id", "cf-ray", "x-cloud-trace-context",
                         "traceparent", "x-b3-traceid", "x-trace-id"),
          r"(?i:x-amz-cf-id|x-amz-id-2|x-amz-request-id|x-request-id|x-correlation-id|cf-ray|"
          r"x-cloud-trace-context|traceparent|x-b3-traceid|x-trace-id)[\"']?[ \t]*[:=][ \t]*"
          r"[\"']?[A-Za-z0-9+/=_\-.;]{1,512}", bounded=False),
    # a mail's signatures, in every message it sends (DKIM's and ARC's headers, folded
    # over their continuation lines): public, as random-looking as a key
    _rule("mail_signature", ("dkim-signature:", "arc-seal:", "arc-message-signature:"),
          r"(?i:dkim-signature|arc-seal|arc-message-signature):[^\n]{0,4096}"
          r"(?:\r?\n[ \t][^\n]{0,4096}){0,64}", bounded=False),
    # public keys by their label: WireGuard PublicKey, "publicKey", JWK members, minisign
    # an extended public key of a wallet (BIP32's xpub and its kin), Nostr's npub
    _rule("public_wallet_key", ("xpub", "ypub", "zpub", "tpub", "npub1"),
          r"(?:[xyzt]pub[0-9A-Za-z]{100,112}|npub1[a-z0-9]{58})(?![A-Za-z0-9])"),
    # a wallet's receiving address, labelled so (Bitcoin's base58 and bech32, Ethereum's):
    # public by design, and as random-looking as a key
    _rule("public_wallet_address", ("address", "addr"),
          r"""(?i:address|addr)["']?[ \t]*[:=][ \t]*["']?(?:[13][1-9A-HJ-NP-Za-km-z]{25,34}"""
          r"""|bc1[02-9ac-hj-np-z]{11,71}|0x[0-9a-fA-F]{40})(?![A-Za-z0-9])""", bounded=False),
    _rule("public_key_value", ("publickey", "public_key", "public-key", "pubkey"),
          r"""(?i:public[_\-]?key|pubkey)["']?[ \t]*[:=][ \t]*["']?[A-Za-z0-9+/=_\-]{16,4096}""",
          bounded=False),
    # a JSON Web Key without a private member ("d", "p", "q", "dp", "dq", "qi", "k")
    _rule("jwk_public", '"kty"',
          r"""\"kty\"[ \t]*:[ \t]*\"[A-Za-z]{2,3}\"(?:(?!\"(?:d|p|q|dp|dq|qi|k)\"[ \t]*:)"""
          r"""[^{}]){0,8192}""", bounded=False),
    _rule("minisign", "minisign public key",
          r"minisign public key [A-Fa-f0-9]{4,16}[ \t]*(?:\r?\n|\\n)[A-Za-z0-9+/=]{40,120}",
          bounded=False),
    # keys made to be public: Stripe's publishable keys, Supabase's, PostHog's project
    # key, Langfuse's public key, and anything named publishable
    _rule("publishable", (*(p.decode() for p in PUBLIC_PREFIXES), "publishable"),
          "(?:" + "|".join(re.escape(p.decode()) for p in PUBLIC_PREFIXES) + ")"
          r"""[A-Za-z0-9_\-]{8,256}"""
          r"""|(?i:publishable)[\w\-.]{0,40}["']?[ \t]*[:=][ \t]*["']?[A-Za-z0-9_\-]{8,256}""",
          bounded=False),
    # a value encrypted where it is written: dotenvx's `encrypted:…`, Jasypt's `ENC(…)`,
    # sops' `ENC[…]` (the key that opens it is elsewhere, and is the secret)
    _rule("ciphertext", ("encrypted:", "enc(", "enc["),
          r"(?:encrypted:|ENC\(|ENC\[)[A-Za-z0-9+/=_\-:,.]{8,65536}", bounded=False),
    # an RSA key's public members in .NET's XML (its private ones are private_key's)
    _rule("xml_public_rsa", ("<modulus>", "<exponent>"),
          r"<(?P<tag>Modulus|Exponent)>[A-Za-z0-9+/=\s]{1,4096}</(?P=tag)>", bounded=False),
    # Bitnami's sealed secrets: `encryptedData:` and its members, each a ciphertext only
    # the cluster's controller opens
    _rule("sealed_secret", "encrypteddata:",
          r"encryptedData:[ \t]*\r?\n(?:[ \t]+[\w.\-]{1,253}:[ \t]*[A-Za-z0-9+/=]{1,65536}"
          r"[ \t]*(?:\r?\n|$))+", bounded=False),
    # a ciphertext of Vault's transit engine: only the key the server keeps opens it
    _rule("vault_ciphertext", "vault:v", r"vault:v[0-9]{1,4}:[A-Za-z0-9+/=]{8,65536}"),
    # a pagination cursor (AWS NextToken, Google nextPageToken): random, and public
    _rule("pagination", PAGINATION_KEYS,
          r"""(?i:(?:next|prev(?:ious)?|page|continuation|pagination|sync|resume)[_\-]?"""
          r"""(?:page)?[_\-]?(?:token|cursor|marker))["']?\s{0,8}[:=]\s{0,8}["']?"""
          r"""[A-Za-z0-9+/=_\-.~%]{1,4096}""", bounded=False),
))
