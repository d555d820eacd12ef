"""What cannot be undone off the machine, spelled with its object glued to the verb (the
sixteenth sitting's held-out file `classes-fresh92.txt`: `az storage blob delete-batch
--source backups` was allowed, the cloud clients' row reading `delete` only as a word).

The law: for every client of the cloud row, a delete, destroy or purge verb with its
object glued on (`delete-batch`, `delete-bucket`, `destroy-stack`, `purge-queue`) is asked
about as the bare verb is, and the same client listing or describing runs; shown catching
the row without the glued verbs."""

from __future__ import annotations

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from toolpipe.layers.shield import UnixShield
from toolpipe.shell import _table

SHIELD = UnixShield()
CLIENTS = st.sampled_from(["gcloud", "az", "doctl", "hcloud", "linode-cli", "oci",
                           "supabase", "wrangler", "scw", "ibmcloud"])
GLUED = st.sampled_from(["delete-batch", "delete-bucket", "delete-stack", "destroy-cluster",
                         "purge-queue", "delete-all"])


@settings(max_examples=60, deadline=None)
@given(CLIENTS, GLUED)
def test_a_glued_verb_deletes_as_the_bare_one_does(client, verb):
    command = f"{client} storage blob {verb} --source backups"
    found = SHIELD.evaluate("Bash", {"command": command}, ())
    assert found.action in ("ask", "block"), (command, found.reason)


@settings(max_examples=30, deadline=None)
@given(CLIENTS, st.sampled_from(["list", "describe", "show", "get", "list-deleted",
                                 "deleted-list"]))
def test_listing_or_describing_runs(client, verb):
    command = f"{client} storage blob {verb} --source backups"
    found = SHIELD.evaluate("Bash", {"command": command}, ())
    assert found.action == "allow", (command, found.reason)


def test_the_law_catches_the_row_without_glued_verbs(fresh_readings, monkeypatch):
    rows = _table.IRREVERSIBLE["az"]
    row = next(r for r in rows if r.reason == "deletes cloud resources")
    old = _table.LazyPattern(row.args.pattern.replace(
        "|(?:delete|destroy|purge)(?:-[a-z]+)+", ""))
    monkeypatch.setitem(_table.IRREVERSIBLE, "az", [
        attrs.evolve(r, args=old) if r is row else r for r in rows])
    found = UnixShield().evaluate("Bash", {"command": "az storage blob delete-batch "
                                           "--source backups"}, ())
    assert found.action == "allow", found
