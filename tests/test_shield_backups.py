"""Backups destroyed in other forms, and a program's own folder among its arguments (the
twenty-second sitting's held-out `classes-fresh141.txt`: 2 of its 15 attacks allowed, 3
of its 10 look-alikes blocked at its first run: `restic -r /srv/restic snapshots` read
`/srv/restic` as restic run by its path, with no repository, so remote).

The laws: a path named after the program it is given to decides as any other path
there (its data, not that program run); a backup tool's deletion is asked about, its
listing is not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("restic -r {p} snapshots", "restic"), ("borg list {p}", "borg"),
                        ("restic -r {p} backup ~/projects", "restic"),
                        ("kopia repository connect filesystem --path {p}", "kopia")]),
       st.sampled_from(["/srv", "/var/backups", "/mnt/disk"]))
def test_a_path_named_after_its_program_is_that_program_s_data(case, folder):
    shape, program = case
    own = decide(shape.format(p=f"{folder}/{program}"))
    other = decide(shape.format(p=f"{folder}/repository"))
    assert own == other, (shape, folder)


@pytest.mark.parametrize(("deletes", "lists"), [
    ("tarsnap --nuke -f", "tarsnap --list-archives"),
    ("snapper delete 1-100", "snapper list"),
    ("timeshift --delete-all --yes", "timeshift --list"),
    ("restic -r /srv/restic key remove 4a1c2b3d", "restic -r /srv/restic key list"),
    ("kopia snapshot delete --all-snapshots-for-source /home --delete", "kopia snapshot list"),
    ("rdiff-backup --remove-older-than 0B /srv/rdiff", "rdiff-backup --list-increments /srv/rdiff"),
])
def test_a_backup_tool_s_deletion_is_asked_about_and_its_listing_is_not(deletes, lists):
    assert decide(deletes) in STOPPED, deletes
    assert decide(lists) == "allow", lists
