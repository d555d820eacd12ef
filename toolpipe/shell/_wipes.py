"""Code that empties a table, a collection or a database, in any language an agent's
one-liner or a framework's runner is written in (``rails runner``, ``manage.py shell
-c``, ``node -e``): a scan for the calls ORMs and drivers name alike, not a parser."""

from __future__ import annotations

import re

# What empties a table from code, however the ORM spells it: Rails' `delete_all` and
# `destroy_all`, Ecto's `Repo.delete_all`, Laravel's `::truncate()` and `->delete()`,
# Django's `.objects.all().delete()`, SQLAlchemy's `drop_all()` and `query.delete()`,
# Prisma's and Mongo's `deleteMany({})`, a collection or database dropped, or SQL in a
# string that drops or truncates
_WIPES = re.compile(
    r"(?:\.|::)(?:delete_all|destroy_all|drop_all|truncate)\b"
    r"|\.objects(?:\.all\(\))?\.delete\(\s*\)|\.query(?:\([^()]*\))?\.delete\(\s*\)"
    r"|->(?:truncate|delete)\(\s*\)|\.(?:deleteMany|removeMany)\(\s*(?:\{\s*\})?\s*\)"
    r"|\.remove\(\s*\{\s*\}\s*\)"
    # a call named for a verb that deletes and what holds data, however it is cased:
    # `.dropDatabase()`, `.delete_collection(…)`, `.deleteIndex(…)`, `.drop_table(…)`,
    # redis' `.flushall()`; not a row or an item (`.delete_item(…)`, `.drop(columns=…)`)
    r"|\.(?:drop|delete|purge|wipe|truncate|destroy|erase)_?(?:[Aa]ll_?)?(?:database|Database|db|"
    r"Db|DB|collection|Collection|table|Table|schema|Schema|index|Index|indices|Indices|"
    r"indexes|Indexes|bucket|Bucket|keyspace|Keyspace|namespace|Namespace|topic|Topic|queue|"
    r"Queue|stream|Stream|tenant|Tenant)s?\(|\.dropDatabase\b|\.flush(?:all|db)\(\s*\)"
    r"|(?i:[\"'`]\s*(?:drop\s+(?:table|database|schema|collection)|truncate\s+(?:table\s+)?"
    r"[\w\"`.]))"
    # ArangoDB's shell: a collection or a database dropped or emptied
    r"|\bdb\._(?:drop|truncate|dropDatabase)\(")


def wipes(code: str) -> bool:
    """Does the code empty a table, a collection or a database (see ``_WIPES``)?"""
    return _HINT.search(code.lower()) is not None and _WIPES.search(code) is not None


# (matched on the text lower-cased: see _told)
_HINT = re.compile(r"delete|destroy|drop|truncate|remove|purge|wipe|erase|flush")


# A SQL statement that empties or drops, given whole as an argument (`mycli -e "DROP
# DATABASE shop"`, `trino --execute 'DROP TABLE …'`): to any client, whatever its name
_SQL = re.compile(r"(?i)^\s*(?:drop\s+(?:table|database|schema|keyspace|collection|index)\b"
                  r"|truncate\s+(?:table\s+)?[\w\"`.]|delete\s+from\s+[\w.\"`]+\s*;?\s*$"
                  # SurrealQL's REMOVE, Cypher's match of every node deleted, HBase's shell
                  r"|remove\s+(?:database|namespace|table|db|ns)\b"
                  r"|match\s*\(\s*\w*\s*\)\s*(?:detach\s+)?delete\b"
                  r"|(?:drop_all|drop|truncate(?:_preserve)?|disable_all)\s+['\"])")


def drops(argument: str) -> bool:
    """Is the argument a SQL statement that drops or empties what holds data?"""
    return _SQL.match(argument) is not None
