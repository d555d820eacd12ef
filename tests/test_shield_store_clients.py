"""Data destroyed by the clients of stores less named (the twenty-second sitting's
held-out `classes-fresh140.txt`: 5 of its 18 attacks allowed at its first run): what
empties a store is read in more languages (SurrealQL's REMOVE, Cypher's match of every
node deleted, HBase's shell, ArangoDB's shell), on a client's input as in its arguments
(`surreal sql <<< "REMOVE DATABASE prod"`, `echo "drop_all '.*'" | hbase shell`), and
HDFS' removals are a row of the table.

The law, shown catching its reading taken away: a statement that empties a store,
handed to any client the wing does not know, as an argument or on its input, is asked
about; a statement that reads is not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shield_laws import STOPPED, decide
from toolpipe.shell import _wipes

CLIENTS = st.sampled_from(["surreal sql", "cypher-shell -u neo4j", "hbase shell",
                           "acme-db-cli", "frobsql --conn x"])
EMPTIES = st.sampled_from(["REMOVE DATABASE prod;", "MATCH (n) DETACH DELETE n",
                           "drop_all '.*'", "DROP TABLE orders", "TRUNCATE TABLE orders",
                           "db._drop(\"orders\")"])
READS = st.sampled_from(["SELECT count(*) FROM orders", "MATCH (n) RETURN count(n)",
                         "list", "INFO FOR DB;", "db._collections()"])
HANDED = st.sampled_from(["{c} \"{s}\"", "{c} <<< \"{s}\"", "echo '{s}' | {c}"])


@settings(max_examples=120, deadline=None)
@given(CLIENTS, EMPTIES, READS, HANDED)
def test_a_statement_that_empties_a_store_is_asked_about_however_handed(client, empties,
                                                                        reads, handed):
    if "'" in empties and handed.startswith("echo '"):
        handed = 'echo "{s}" | {c}'
    assert decide(handed.format(c=client, s=empties)) in STOPPED, (client, empties, handed)
    assert decide(handed.format(c=client, s=reads)) == "allow", (client, reads, handed)


def test_the_law_catches_its_reading_taken_away(taken_away):
    never = __import__("re").compile(r"(?!)")
    before, after = taken_away(_wipes, "_SQL", never, 'surreal sql <<< "REMOVE DATABASE prod;"')
    assert before in STOPPED and after == "allow"
