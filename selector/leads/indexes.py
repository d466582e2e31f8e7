"""An index that only PostgreSQL gets, declared in ``Meta.indexes`` like any other.

Trigram GIN indexes (``gin_trgm_ops``) and B-tree indexes with an operator class
(``text_pattern_ops``) have no meaning on SQLite, the embedded database of ``make run``
and quick local tests, whose ``CREATE INDEX`` would fail on ``USING gin`` or the operator
class. There this index writes an SQL comment instead (also when SQLite rebuilds a table
and re-creates its indexes), and the queries these indexes serve take another path
(selector.staff.queries). django.contrib.postgres' GinIndex is not used for the same
reason: it always emits ``USING gin``."""

from __future__ import annotations

from django.db import models
from django.db.backends.ddl_references import Statement


class PostgreSQLIndex(models.Index):
    """``models.Index`` plus an access ``method`` ("btree" or "gin"), built on PostgreSQL
    only."""

    def __init__(self, *expressions, method: str = "btree", **kwargs):
        if method not in ("btree", "gin"):
            raise ValueError(f"unsupported index method: {method}")
        self.method = method
        super().__init__(*expressions, **kwargs)

    def deconstruct(self):
        path, args, kwargs = super().deconstruct()
        if self.method != "btree":
            kwargs["method"] = self.method
        return path, args, kwargs

    def create_sql(self, model, schema_editor, using="", **kwargs):
        if schema_editor.connection.vendor != "postgresql":
            return _skipped(self.name)
        if self.method != "btree":
            using = f" USING {self.method}"
        return super().create_sql(model, schema_editor, using=using, **kwargs)

    def remove_sql(self, model, schema_editor, **kwargs):
        if schema_editor.connection.vendor != "postgresql":
            return _skipped(self.name)
        return super().remove_sql(model, schema_editor, **kwargs)


def _skipped(name: str) -> Statement:
    # A comment is a valid statement for SQLite and shows in `sqlmigrate`.
    return Statement("-- %(name)s: PostgreSQL only", name=name)
