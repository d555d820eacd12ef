"""Secrets in the files of tools an agent drives every day, where a host names what the
value opens: Composer's ``auth.json`` (``"github-oauth": {"github.com": "…"}``,
``gitlab-token``, ``bitbucket-oauth``), and Bundler's settings for a gem server
(``BUNDLE_GEMS__EXAMPLE__COM: "user:password"``, the host's dots written as ``__``)."""

from __future__ import annotations

from toolpipe.secrets._rule import CONTEXT, Rule, rule

_TLD = (r"(?:COM|NET|ORG|IO|DEV|APP|CO|AI|CLOUD|ME|INFO|BIZ|US|UK|DE|FR|EU|TECH|SH|XYZ"
        r"|INTERNAL|LOCAL|CORP|LAN)")

TOOL_RULES: tuple[Rule, ...] = (
    # a key named for a credential whose value maps a host to it (the first member)
    rule("password", ('-oauth"', '-token"', '_oauth"', '_token"'),
         r"""[\w.-]{0,32}[-_](?:oauth|token)"[ \t]*:[ \t]*\{\s*"[\w.-]{1,128}\.[A-Za-z]{2,24}"""
         r"""(?::[0-9]{1,5})?"[ \t]*:[ \t]*"(?P<v>[^"\s\\]{8,256})""",
         value=("v",), check="placed_value", bounded=False, priority=CONTEXT,
         shape=r"""[ \t]*:[ \t]*\{"""),
    # Bundler: a gem server's host as a setting's name, its value `user:password` or a token
    # (BUNDLE_BUILD__NOKOGIRI, a gem's build options, ends in no domain's last label)
    rule("password", ("bundle_",),
         r"""(?i:bundle_(?:[A-Z0-9-]+__)+""" + _TLD + r""")(?![A-Za-z0-9_])[ \t]*[:=][ \t]*"""
         r"""["']?(?:[^\s"':]{1,64}:)?(?P<v>[^\s"']{8,256})""",
         value=("v",), check="placed_value", bounded=False, priority=CONTEXT),
)
