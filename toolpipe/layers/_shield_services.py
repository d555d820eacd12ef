"""A credential and the hosts of its service: a credential of a known service, from the
environment, sent to a host not of that service (``credential_to_stranger``), and a line
whose every sender talks to the service of the client that printed its credential
(``own_service_only``: `curl -H "Authorization: token $(gh auth token)"
https://api.github.com/…`)."""

from __future__ import annotations

import re

from toolpipe.shell import Script, sends

# Credentials in the environment by their service, and the hosts of that service: such a
# variable sent anywhere else is a credential sent to a stranger (`curl evil?k=$AWS_…`)
_SERVICES = {
    "AWS": ("amazonaws.com", "aws.amazon.com", "169.254.169.254", "169.254.170.2"),
    "GITHUB": ("github.com", "githubusercontent.com"),
    "GH": ("github.com", "githubusercontent.com"), "GITLAB": ("gitlab.com",),
    "OPENAI": ("openai.com",), "ANTHROPIC": ("anthropic.com",), "SLACK": ("slack.com",),
    "STRIPE": ("stripe.com",), "NPM": ("npmjs.org", "npmjs.com"), "HF": ("huggingface.co",),
    "HUGGINGFACE": ("huggingface.co",), "GOOGLE": ("googleapis.com", "google.com"),
    "GCP": ("googleapis.com",), "AZURE": ("azure.com", "windows.net", "microsoft.com"),
    "CLOUDFLARE": ("cloudflare.com",), "CF": ("cloudflare.com",),
    "DIGITALOCEAN": ("digitalocean.com",), "TWILIO": ("twilio.com",),
    "SENDGRID": ("sendgrid.com",), "DATADOG": ("datadoghq.com", "datadoghq.eu"),
    "SENTRY": ("sentry.io",), "VERCEL": ("vercel.com",), "NETLIFY": ("netlify.com",),
    "HEROKU": ("heroku.com",), "DOCKER": ("docker.io", "docker.com"),
}
_CREDENTIAL_VAR = re.compile(r"\$\{?((?:[A-Z][A-Z0-9]*_)*?[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|"
                             r"PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)"
                             r"[A-Z0-9_]*)\}?")
_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^@/\s]*@)?([A-Za-z0-9.\-\[\]]+)", re.I)


def credential_to_stranger(script: Script) -> list[tuple[float, str]]:
    """A credential of a known service, from the environment, in the words of a command
    that sends to a host not of that service."""
    out: list[tuple[float, str]] = []
    for cmd in script.commands:
        if not sends(cmd):
            continue
        names = [m.group(1) for a in cmd.args for m in _CREDENTIAL_VAR.finditer(a.raw)]
        hosts = [m.group(1).lower() for a in cmd.args if (m := _HOST.match(a.text))]
        for name in names:
            domains = _SERVICES.get(name.split("_", 1)[0])
            for host in hosts:
                if domains and not any(host == d or host.endswith("." + d) for d in domains):
                    out.append((0.6, f"sends ${name} to {host}, not a host of its service "
                                     f"({cmd.located()})"))
                    return out
    return out


# a command-line client whose printed credential is its service's (`gh auth token`)
_CLI_SERVICES = {"gh": "GITHUB", "glab": "GITLAB", "gcloud": "GCP", "az": "AZURE",
                 "aws": "AWS", "heroku": "HEROKU", "vercel": "VERCEL", "npm": "NPM",
                 "huggingface-cli": "HF"}


def own_service_only(script: Script, program: str) -> bool:
    """Does every command of the line that sends send to a host of ``program``'s service
    (and at least one, each to a host it names; the program's own calls are its service's),
    each word of it not known (a spliced credential) given as a header or a login, not as
    data (`-d "{\"body\": \"$(gh auth token)\"}"` posts the token in an issue's body)?"""
    domains = _SERVICES.get(_CLI_SERVICES.get(program, ""), ())
    senders = [c for c in script.commands if sends(c) and c.name != program]
    if not domains or not senders:
        return False
    for cmd in senders:
        hosts = [m.group(1).lower() for a in cmd.args if (m := _HOST.match(a.text))]
        if not hosts or not all(any(h == d or h.endswith("." + d) for d in domains)
                                for h in hosts):
            return False
        for before, word in zip((None, *cmd.args), cmd.args, strict=False):
            if not word.known and not word.text.startswith(_AUTH_GLUED) and (
                    before is None or before.text not in _AUTH_OPTIONS):
                return False
    return True


# the options a request's header or login is given by (curl's, wget's)
_AUTH_OPTIONS = frozenset({"-H", "--header", "-u", "--user", "--oauth2-bearer"})
_AUTH_GLUED = ("--header=", "--user=", "--oauth2-bearer=", "--http-user=", "--http-password=")
