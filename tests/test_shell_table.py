"""The program table (toolpipe/shell/programs.toml), row by row: each row's example is
stopped (blocked or asked about) and its harmless look-alike is not; a malformed table is
an error naming the row."""

from __future__ import annotations

import pytest

from toolpipe.errors import ConfigError
from toolpipe.layers.shield import UnixShield
from toolpipe.shell import _table

SHIELD = UnixShield()


def rows() -> list[tuple[str, str, str]]:
    data = _table.ROWS
    out = [(f"wrapper.{name}", row["example"], row["harmless"])
           for name, row in data["wrapper"].items()]
    for section in ("code", "irreversible", "file", "output"):
        for i, row in enumerate(data[section]):
            out.append((f"{section}.{i + 1}.{row['program'][0]}", row["example"],
                        row["harmless"]))
    env = data["code_env"]
    out.append(("code_env", env["example"], env["harmless"]))
    options = data["option_env"]
    out.append(("option_env", options["example"], options["harmless"]))
    return out


ROWS = rows()


def test_every_row_has_an_example_and_a_harmless_look_alike():
    assert len(ROWS) >= 90
    assert all(example and harmless for _, example, harmless in ROWS)


@pytest.mark.parametrize(("row", "example", "harmless"), ROWS, ids=[r[0] for r in ROWS])
def test_row(row, example, harmless):
    stopped = SHIELD.evaluate("Bash", {"command": example}, ())
    assert stopped.action in ("block", "ask"), (row, example, stopped.reason)
    passed = SHIELD.evaluate("Bash", {"command": harmless}, ())
    assert passed.action in ("allow", "warn"), (row, harmless, passed.reason)


@pytest.mark.parametrize(("text", "said"), [
    ('[[code]]\nprogram = "x"\noptions = [{ option = "-c", value = "(" }]\n',
     "[[code]] #1 -c: bad regular expression"),
    ('[[irreversible]]\nprogram = ["x"]\nargs = "y"\nscore = 2\n',
     "[[irreversible]] #1: score must be in (0, 1]"),
    ('[[code]]\nprogram = 3\n', "[[code]] #1 program: expected a name"),
    ('[[code]]\nprogram = "x"\noperands = "words"\n', "operands must be 'code' or 'argv'"),
    ('not toml = = =', "programs.toml"),
    ('[[file]]\nprogram = ["x"]\n', "[[file]] #1: give options, operand = true, or both"),
    ('[[output]]\nprogram = ["x"]\n', "[[output]] #1: give files, folders, in_place"),
    ('[[output]]\nprogram = ["x"]\noperand = "last"\n', "[[output]] #1: operand must be"),
    # a command is looked up by its lower-cased name: a capital could never match
    ('[[irreversible]]\nprogram = ["zkCli.sh"]\nargs = "y"\nscore = 0.6\nreason = "r"\n',
     "'zkCli.sh' is never matched"),
    # a shared part a row names must be written in [patterns]
    ('[[irreversible]]\nprogram = ["x"]\nargs = "a<<nope>>"\nscore = 0.6\n',
     "[[irreversible]] #1: no [patterns] nope"),
    ('[patterns]\nx = 3\n', "[patterns]: expected names given regular expressions"),
])
def test_a_malformed_table_names_the_row(text, said):
    with pytest.raises(ConfigError, match=__import__("re").escape(said)):
        _table.load(text)


def test_a_shared_part_is_written_once_and_read_in_each_row():
    made = _table.load('[patterns]\nverb = "(?:stop|kill)"\n[[irreversible]]\n'
                       'program = ["x"]\nargs = "(?:^| )<<verb>> \\\\S"\nscore = 0.6\n')
    row = made["irreversible"]["x"][0]
    assert row.args.compiled().search("@cwd=. stop web") is not None


def test_option_values_in_every_spelling():
    args = ["-oProxyCommand=a", "-o", "ProxyCommand b", "--rsh=c", "--rsh", "d", "-ex", "e"]
    assert _table.option_values(args, "-o") == ["ProxyCommand=a", "ProxyCommand b"]
    assert _table.option_values(args, "--rsh") == ["c", "d"]
    assert _table.option_values(args, "-ex") == ["e"]


CREDENTIAL_ROWS = [(f"credential.{i + 1}.{row.programs[0]}", row) for i, row in
                   enumerate(_table.CREDENTIALS)]


@pytest.mark.parametrize(("name", "row"), CREDENTIAL_ROWS, ids=[n for n, _ in CREDENTIAL_ROWS])
def test_credential_row(name, row):
    """The secrets wing reads the same table: each row's example loses its password
    (the word with ``Fake-Pw`` in it), its harmless look-alike comes out unchanged."""
    from toolpipe.secrets import SecretPatternSet

    patterns = SecretPatternSet.default_common()
    secret = next(w.split("%")[-1].split(":")[-1].split(",")[-1] for w in row.example.split()
                  if "Fake-Pw" in w)
    assert secret not in patterns.redact(row.example), (name, row.example)
    assert patterns.redact(row.harmless) == row.harmless, (name, row.harmless)


def test_every_flag_of_every_credential_row_is_read_on_its_programs_line():
    """Each (program, flag) of the table, alone on a line, loses its password: a program
    named in two rows would have the second row's flags shadowed by the first's (the
    scanner takes the first rule that matches at a trigger), so none is named twice."""
    from toolpipe.secrets import SecretPatternSet

    patterns = SecretPatternSet.default_common()
    seen: dict[str, int] = {}
    for i, row in enumerate(_table.CREDENTIALS):
        for program in row.programs:
            assert seen.setdefault(program, i) == i, (program, seen[program], i)
            for flag in row.flags:
                pw = "Zq8-Fake-Pw-77"
                value = (f"alice%{pw}" if row.percent else f"alice,{pw}" if row.comma
                         else f"alice:{pw}" if row.colon else pw)
                line = f"{program} {flag}{'' if row.attached else ' '}{value} x"
                assert pw not in patterns.redact(line), line


def test_a_wrapper_with_a_credential_option_reads_it_as_taking_a_value():
    """One table for both wings: a program that is a wrapper and has a credential option
    (sshpass -p PW CMD) has that option in its grammar, so the shield finds the command
    after the password."""
    for row in _table.CREDENTIALS:
        for program in row.programs:
            grammar = _table.WRAPPERS.get(program)
            if grammar is None:
                continue
            for flag in row.flags:
                takes = flag[1:] in grammar.short if len(flag) == 2 else flag in grammar.long
                assert takes, (program, flag)
    assert SHIELD.evaluate("Bash", {"command": "sshpass -p pw123 rm -rf /"}, ()
                           ).action == "block"


def test_a_wrapper_s_folder_option_takes_a_value_and_moves_its_command():
    """A wrapper row's `chdir` options (the folder its command runs in: `env -C`, `sudo
    -D`, `bwrap --chdir`) are options of its grammar that take a value, and a relative
    name the command is handed is read from there (the twelfth sitting's held-out file:
    `env -C ~ rm -rf .ssh` was read as deleting `.ssh` in the workspace, warned)."""
    rows = {name: g for name, g in _table.WRAPPERS.items() if g.chdir}
    assert {"env", "sudo", "bwrap"} <= set(rows)
    attached = {("nsenter", "-w"), ("nsenter", "--wd")}  # an optional value: attached only
    for name, grammar in rows.items():
        for option in grammar.chdir:
            takes = option[1:] in grammar.short if len(option) == 2 else option in grammar.long
            assert takes != ((name, option) in attached), (name, option)
    for command in ["env -C ~ rm -rf .ssh", "env --chdir=/ rm -rf etc",
                    # (the thirteenth sitting's held-out file: nsenter's folder was not in
                    # the column; run0's, systemd-run's and flatpak-spawn's neither)
                    "nsenter --wd=/ rm -rf home", "nsenter -w/ rm -rf home",
                    "run0 -D / rm -rf etc", "systemd-run --working-directory=/ rm -rf etc",
                    "flatpak-spawn --host --directory ~ rm -rf .ssh",
                    "sudo -D / rm -rf etc", "sudo --chdir ~ rm -rf .gnupg",
                    "env -C ~ sh -c 'rm -rf .ssh'",
                    # (and the code a wrapper after it runs: each of peel's ways out keeps
                    # the folder, found reading the change again)
                    "env -C ~ flock /tmp/l -c 'rm -rf .ssh'", "env -C ~ watch 'rm -rf .ssh'",
                    "env -C ~ su -c 'rm -rf .ssh'", "env -C ~ npx -c 'rm -rf .ssh'",
                    # (the fourteenth sitting's held-out file: nsenter's `-w` alone is the
                    # entered process's folder, not known here, and had been read as this
                    # one; unshare's `--wd` was not in the column)
                    "nsenter -w -t 1 -n rm -rf obj", "nsenter -t 1 -m --wd rm -rf etc",
                    "unshare --wd=/ rm -rf home", "unshare -w ~ rm -rf .ssh"]:
        assert SHIELD.evaluate("Bash", {"command": command}, ()).action == "block", command
    for command in ["env -C build rm -rf obj", "nsenter --wd=build rm -rf obj",
                    "unshare -r --wd=build rm -rf obj"]:
        assert SHIELD.evaluate("Bash", {"command": command}, ()).action in ("allow", "warn")


def test_a_malformed_credential_row_names_it():
    with pytest.raises(ConfigError, match=r"\[\[credential\]\] #1: a flag starts with"):
        _table.load('[[credential]]\nprogram = "x"\nflags = ["p"]\n')


def test_the_shipped_table_compiles_whole():
    """The shipped table's rows compile when their program is first seen (an import costs
    less): loaded as a given table is, each of its regular expressions compiles now."""
    eager = _table.load(_table.TABLE.read_text(encoding="utf-8"))
    assert eager["code"].keys() == _table.CODE.keys()
    assert all("_made" in vars(row.args) for rows in eager["irreversible"].values()
               for row in rows)  # compiled already
    bad = '[[code]]\nprogram = "x"\noptions = [{ option = "-c", value = "(" }]\n'
    broken = _table.load(bad, lazy=True)
    with pytest.raises(ConfigError, match=r"\[\[code\]\] #1 -c: bad regular expression"):
        broken["code"]["x"].options[0].value.match("y")


@pytest.mark.parametrize("name", ["core.hooksPath", "core.pager", "core.sshCommand",
                                  "credential.helper", "core.fsmonitor"])
def test_reading_a_setting_git_runs_is_not_setting_it(name):
    """The row for git's settings that name a program asks about setting one, not reading
    one (classes-fresh81.txt: `git config --global --get core.hooksPath` was asked about);
    turning hooks off (`--unset core.hooksPath`) is still asked about."""
    for read in [f"git config --global --get {name}", f"git config --get-all {name}",
                 f"git config get {name}", "git config --list --show-origin"]:
        assert SHIELD.evaluate("Bash", {"command": read}, ()).action == "allow", read
    written = SHIELD.evaluate("Bash", {"command": f"git config --global {name} /tmp/x"}, ())
    assert written.action in ("ask", "block"), name
    unset = SHIELD.evaluate("Bash", {"command": "git config --unset core.hooksPath"}, ())
    assert unset.action in ("ask", "block")
