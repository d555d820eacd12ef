"""A client call's password argument, by its position among the arguments (JDBC's
``getConnection(url, user, pw)``, ``ftp.login(user, pw)``, ``BasicAuth(user, pw)``, any call
named for signing in or for credentials), the arguments before it literals or names; a
password that repeats the user before it is a default pair, known to everyone."""

from __future__ import annotations

import re

from toolpipe.secrets._rule import Rule, rule
from toolpipe.secrets._values import CHECKS

QUOTED = r"""(?P<q>['"])(?P<v>[^'"\n]{1,256})(?P=q)"""  # a quoted value, its quote kept


# The password argument of a client call, by position: (call, its triggers, the index of
# the password among the arguments). The arguments before it are literals or names.
_CALLS = ((r"\.pass_", (".pass_(",), 0),
          # DriverManager.getConnection(url, user, pw), new PDO(dsn, user, pw), new
          # mysqli(host, user, pw), mysqli_connect(host, user, pw, db), ftp_login(conn,
          # user, pw), $m->real_connect(host, user, pw); a constructor as a stack trace
          # shows it (`PDO->__construct(…)`)
          (r"getConnection|(?:PDO|(?<![\w$])mysqli)(?:(?:->|::)__construct)?|mysqli?_connect"
           r"|->real_connect|ftp_login|ssh2_auth_password|imap_open|ldap_bind",
           ("getconnection(", "pdo(", "mysql_connect(", "mysqli_connect(", "ftp_login(",
            "ssh2_auth_password(", "imap_open(", "ldap_bind(", "mysqli(", "pdo->__construct(",
            "pdo::__construct(", "mysqli->__construct(", "mysqli::__construct(",
            "->real_connect("), 2),
          # mysqli_real_connect(link, host, user, pw, …): the link first
          (r"mysqli_real_connect", ("mysqli_real_connect(",), 3),
          # sbt's Credentials(realm, host, user, pw)
          (r"(?<![\w.])Credentials", ("credentials(",), 3),
          (r"NetworkCredential|PasswordAuthentication|UsernamePasswordCredentials"
           r"|UsernamePasswordAuthenticationToken|PSCredential",
           ("networkcredential(", "passwordauthentication(", "usernamepasswordcredentials(",
            "usernamepasswordauthenticationtoken(", "pscredential("), 1),
          (r"\.login|\.simple_bind_s|\.simple_bind|\.bind_s|BasicAuth|DigestAuth",
           (".login(", ".simple_bind", ".bind_s(", "basicauth(", "digestauth("), 1),
          # any call named for signing in or for credentials, a user then a password
          # (`client.auth("u", "pw")`, `.authenticate(…)`, `setCredentials(…)`: the
          # eighteenth sitting's classes-fresh83)
          (r"(?i:auth|authenticate|logon|signin|sign_in|set_?credentials|with_?credentials)",
           ("auth(", "authenticate(", "logon(", "signin(", "sign_in(", "setcredentials(",
            "withcredentials(", "set_credentials(", "with_credentials("), 1),
          (r"(?<![A-Za-z0-9_])auth[ \t]*=[ \t]*", ("auth=(", "auth = ("), 1),
          (r"(?<![A-Za-z0-9_])FTP(?:_TLS)?|\.connect", ("ftp(", "ftp_tls(", ".connect("), 2))
_ARG = r"""(?:"[^"\n]{0,256}"|'[^'\n]{0,256}'|\$?[A-Za-z_][\w.]{0,64}(?:\[[^\]\n]{0,64}\])?)"""


def _call_rule(calls: str, triggers: tuple[str, ...], index: int) -> Rule:
    before = rf"[ \t]*{_ARG}[ \t]*,[ \t]*" * (index - 1) + (
        rf"[ \t]*(?P<prev>{_ARG})[ \t]*,[ \t]*" if index else "")
    # the literal may be converted in place: "pw".toCharArray(), 'pw'.encode()
    return rule("password", triggers,
                rf"(?:{calls})\([ \t]*{before}{QUOTED}(?:\.\w{{1,32}}\(\))*[ \t]*[,)]",
                value=("v",), check="call_password", bounded=False)


def _call_password(kind: str, match: re.Match[bytes], buf: bytes, groups: tuple[str, ...]
                   ) -> str | None:
    """A call's password argument, unless it repeats the argument before it: a default
    pair, `("app", "app")`, `("admin", "admin")`, known to everyone."""
    prev = match.group("prev") if "prev" in match.re.groupindex else None
    if prev is not None and prev.strip(b"'\"") == match.group("v"):
        return None
    return CHECKS["url_password"](kind, match, buf, groups)


CHECKS["call_password"] = _call_password


CALL_RULES: tuple[Rule, ...] = tuple(_call_rule(calls, triggers, index)
                                     for calls, triggers, index in _CALLS)
