"""Core statements run straight on the driver: SQLite's own connection, or asyncpg's.

SQLAlchemy's execution of one statement (its context, events and result) cost a batch thread
more than SQLite took to run it. On the batch threads (``bot.storage.batches``) a write's
statements are therefore compiled once per statement and set of parameter names, then bound
with SQLAlchemy's own type processors and handed to sqlite3. The SQL, the parameters as
stored and the transaction are the same as ``Connection.execute`` gives. Anything else (a
statement that needs a Python-side default filled in, or another database) goes through
SQLAlchemy as usual.

On PostgreSQL, a battle's one-statement write (``Database.first_row``) is compiled the same
way, once per statement, and run on the asyncpg connection under SQLAlchemy's pooled one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.base import Executable
from sqlalchemy.sql.dml import Insert, Update

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True)
class _Compiled:
    sql: str
    names: tuple[str, ...]  # the parameters, in the statement's order
    processors: tuple[Processor, ...]
    fixed: Mapping[str, Any]  # values bound in the statement itself

    def bind(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        if self.fixed:
            values = {**self.fixed, **values}
        return tuple([values[name] if process is None else process(values[name])
                      for name, process in zip(self.names, self.processors, strict=True)])


_NOT_DIRECT = object()
# Keyed by the statement itself (statements are module constants, kept alive here) and the
# names bound, in the order given, which decide an UPDATE's SET clause (a caller gives them
# in one order each time: another order is compiled once more, to the same statement).
_compiled: dict[tuple[Insert | Update, tuple[str, ...]], _Compiled | object] = {}


def execute_dml(conn: Connection, statement: Insert | Update,
                values: Mapping[str, Any]) -> int:
    """Run an INSERT or UPDATE; the number of rows it changed. ``statement`` is a module
    constant: each one is compiled once and kept."""
    compiled = _direct(conn, statement, values)
    if compiled is None:
        return conn.execute(statement, dict(values)).rowcount
    bound = compiled.bind(values)
    driver_error = conn.dialect.loaded_dbapi.Error
    try:
        cursor = conn.connection.dbapi_connection.execute(  # type: ignore[union-attr]
            compiled.sql, bound)
    except driver_error as error:
        # Raised as SQLAlchemy raises it (an ``IntegrityError`` for a duplicate delivery's
        # interaction id), so that callers catch one kind of error whichever way ran.
        raise DBAPIError.instance(compiled.sql, bound, error, driver_error,
                                  dialect=conn.dialect) from error
    return cursor.rowcount


def _direct(conn: Connection, statement: Insert | Update,
            values: Mapping[str, Any]) -> _Compiled | None:
    if conn.dialect.driver != "pysqlite":
        return None
    key = (statement, tuple(values))
    found = _compiled.get(key)
    if found is None:
        found = _compiled[key] = _compile(conn, statement, frozenset(key[1]))
    return None if found is _NOT_DIRECT else found  # type: ignore[return-value]


def _compile(conn: Connection, statement: Insert | Update,
             names: frozenset[str]) -> _Compiled | object:
    compiled = statement.compile(dialect=conn.dialect, column_keys=sorted(names))
    if (compiled.insert_prefetch or compiled.update_prefetch or compiled.returning
            or compiled.positiontup is None):
        return _NOT_DIRECT  # SQLAlchemy must fill in defaults or read rows back
    return _compiled_from(compiled, names)


def _compiled_from(compiled: Any, names: frozenset[str] = frozenset()) -> _Compiled:
    """What binding needs of a compiled statement whose parameters, other than ``names``,
    may carry values of their own."""
    order = tuple(compiled.positiontup)
    processors = compiled._bind_processors
    # Values the statement binds itself; a parameter left out that has none is an error,
    # as it is in SQLAlchemy (a KeyError at binding).
    fixed = {name: param.value for name, param in compiled.binds.items()
             if name not in names and not param.required}
    return _Compiled(compiled.string, order, tuple(processors.get(n) for n in order), fixed)


@lru_cache(maxsize=512)
def compiled_statement(statement: Executable, dialect: Dialect) -> _Compiled:
    """``statement`` compiled for ``dialect`` once (statements are kept by their makers, one
    per shape of write). Every value it takes must be a parameter it names."""
    compiled = statement.compile(dialect=dialect)  # type: ignore[attr-defined]
    if compiled.positiontup is None or compiled.literal_execute_params \
            or compiled.post_compile_params:
        raise ValueError("a statement run straight on the driver binds plain parameters")
    if compiled.insert_prefetch or compiled.update_prefetch:
        raise ValueError("a statement run straight on the driver is given every value: "
                         "no column default is filled in for it")
    return _compiled_from(compiled)
