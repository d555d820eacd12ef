"""Addresses that are their own credential: a webhook's, a ping's or a trigger's URL,
whose path holds the secret that lets anyone who has the address post, ping or trigger
(healthchecks' `hc-ping.com/<uuid>`, IFTTT's `/trigger/…/with/key/<key>`, a CI's
incoming hook). A provider's own shape is its row (`_providers`, Slack's, Discord's,
Teams'); this is the class: a URL whose host or path names a hook, a ping, a trigger, a
callback or a notification, and a segment of its path that is a UUID or a token no word
is (`token_shaped`). A path of words (`/docs/webhooks/events`) or of numbers (a hook's
id in a settings page, `/hooks/12345678`) holds none."""

from __future__ import annotations

import re

from toolpipe.secrets._rule import PROVIDER, Rule, rule
from toolpipe.secrets._several import SEVERAL, Spans
from toolpipe.secrets._values import token_shaped

_HOOKISH = re.compile(rb"(?i)hook|ping|trigger|callback|notif|beacon|incoming")
_UUID = re.compile(rb"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                   rb"[0-9a-fA-F]{12}")
_SEGMENT = re.compile(rb"[^/?#]+")
_ID = re.compile(rb"[A-Za-z0-9_\-]{6,}")


def _opaque(segment: bytes) -> bool:
    """An id an address needs beside its secret: letters and digits, a digit among them."""
    return _ID.fullmatch(segment) is not None and any(48 <= c <= 57 for c in segment)


def _hook_url(buf: bytes, start: int, found: re.Match[bytes], floor: int
              ) -> tuple[Spans, int]:
    url = found.group("u")
    host, slash, rest = url.partition(b"/")
    path = rest.split(b"?", 1)[0].split(b"#", 1)[0]
    if not slash or _HOOKISH.search(host + b"/" + path) is None:
        return [], found.end()
    base = found.start("u") + len(host) + 1
    segments = [m.span() for m in _SEGMENT.finditer(path)]
    out: Spans = []
    for i, (lo, hi) in enumerate(segments):
        seg = path[lo:hi]
        if hi - lo < 16 or not (_UUID.fullmatch(seg) or (token_shaped(seg) and b"." not in seg)):
            continue
        # with the ids before it that the address needs (Slack's `services/T…/B…/SECRET`)
        first = i
        while first > 0 and _opaque(path[segments[first - 1][0]:segments[first - 1][1]]):
            first -= 1
        out.append((base + segments[first][0], base + hi))
    return out, found.end()


SEVERAL["hook_url"] = _hook_url

ADDRESS_RULES: tuple[Rule, ...] = (
    rule("service_token", "://", r"""://(?P<u>[A-Za-z0-9.\-]{1,253}/[^\s"'<>\\]{1,1024})""",
         check="hook_url", priority=PROVIDER, bounded=False,
         shape=r"""[^\s"'<>/]*(?:/[^\s"'<>/]*)*(?i:hook|ping|trigger|callback|notif|beacon"""
               r"""|incoming)[^\s"'<>]*/[^\s"'<>/]{16}"""),
)
