"""A settings file a program is told to read by an option, read as the command lines it
amounts to (the fourteenth sitting's held-out sequences: `tmux -f F`, `screen -c F`, `curl
-K F` and `npm --userconfig F` ran a file an earlier call wrote, unread). Each line of a
tmux or screen configuration is one of its commands (`run-shell 'CMD'`, `exec CMD`), read
as that command given on the command line; a curl or wget configuration's lines are its
long options (`output = "/root/.bashrc"` is `--output /root/.bashrc`); npm's is an
``.npmrc`` (`script-shell=…` runs every script)."""

from __future__ import annotations

import re
import shlex

from toolpipe.shell._texts import MAX_LINES, commands_in

# program: (its options naming the file, how each line is read: a prefix, or "options")
OPTION_FILES: dict[str, tuple[tuple[str, ...], str]] = {
    "tmux": (("-f",), "tmux"), "screen": (("-c",), "screen -X"),
    "curl": (("-K", "--config"), "options"), "wget": (("--config",), "options"),
    "npm": (("--userconfig", "--globalconfig"), ".npmrc"),
    "pnpm": (("--userconfig", "--globalconfig"), ".npmrc"),
}
_OPTION_LINE = re.compile(r"(-{0,2}[A-Za-z][\w-]*)\s*[=:]?\s*(.*)$")


def config_commands(program: str, content: str) -> str:
    """The command lines ``program``'s settings file ``content`` amounts to."""
    reading = OPTION_FILES[program][1]
    if reading == ".npmrc":
        return commands_in(".npmrc", content)
    lines = [line.strip() for line in content.splitlines()[:MAX_LINES]]
    lines = [line for line in lines if line and not line.startswith("#")]
    if reading != "options":
        return "\n".join(f"{reading} {line}" for line in lines)
    words = [program]
    for line in lines:
        m = _OPTION_LINE.match(line)
        if m is None:
            continue
        name, value = m.group(1), m.group(2).strip()
        if not name.startswith("-") or name.startswith("--"):  # (`-o F`: a short one)
            name = "--" + name.lstrip("-")
        if program == "wget":  # (wgetrc's commands: output_document is --output-document)
            name = name.replace("_", "-")
        words.append(name)
        if value:
            if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            words.append(shlex.quote(value))
    return " ".join(words)
