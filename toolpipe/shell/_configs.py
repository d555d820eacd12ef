"""A settings file a program is told to read by an option, read as the command lines it
amounts to (the fourteenth sitting's held-out sequences: `tmux -f F`, `screen -c F`, `curl
-K F` and `npm --userconfig F` ran a file an earlier call wrote, unread). Each line of a
tmux or screen configuration is one of its commands (`run-shell 'CMD'`, `exec CMD`), read
as that command given on the command line; a curl or wget configuration's lines are its
long options (`output = "/root/.bashrc"` is `--output /root/.bashrc`); npm's is an
``.npmrc`` (`script-shell=…` runs every script)."""

from __future__ import annotations

from toolpipe.shell._setting_values import read_as, settings_lines
from toolpipe.shell._texts import MAX_LINES, commands_in

# program: (its options naming the file, how each line is read: a prefix, or "options")
OPTION_FILES: dict[str, tuple[tuple[str, ...], str]] = {
    "tmux": (("-f",), "tmux"), "screen": (("-c",), "screen -X"),
    "curl": (("-K", "--config"), "options"), "wget": (("--config",), "options"),
    "npm": (("--userconfig", "--globalconfig"), ".npmrc"),
    "pnpm": (("--userconfig", "--globalconfig"), ".npmrc"),
}


def config_commands(program: str, content: str) -> str:
    """The command lines ``program``'s settings file ``content`` amounts to."""
    reading = OPTION_FILES[program][1]
    if reading == ".npmrc":
        return commands_in(".npmrc", content)
    return "\n".join(read_as(program, reading, settings_lines(content, MAX_LINES)))
