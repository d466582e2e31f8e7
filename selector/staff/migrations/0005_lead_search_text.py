"""PostgreSQL only: one trigram index over the lead list's search text (selector.staff.
search) replaces the four per-column ones of 0003, so a search reads one posting list and
rechecks each candidate row once; seeding and every lead write maintain one GIN index
instead of four. The prefix indexes of 0004 stay (1-2 character terms)."""

from django.db import migrations
from django.db.models.sql import Query

from selector.staff.search import INDEX_NAME, STATISTICS, search_text

_OLD = ("name", "company", "phone", "email")


def _expression_sql(model, schema_editor) -> str:
    """search_text() compiled by the ORM exactly as the list's query compiles it."""
    query = Query(model, alias_cols=False)
    compiler = query.get_compiler(connection=schema_editor.connection)
    sql, params = search_text().resolve_expression(query).as_sql(
        compiler, schema_editor.connection)
    return sql % tuple(schema_editor.quote_value(p) for p in params)


def _forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    expression = _expression_sql(apps.get_model("leads", "Lead"), schema_editor)
    schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {INDEX_NAME} ON leads_lead "
                          f"USING gin (({expression}) gin_trgm_ops)")
    schema_editor.execute(
        f"ALTER INDEX {INDEX_NAME} ALTER COLUMN 1 SET STATISTICS {STATISTICS}")
    for column in _OLD:
        schema_editor.execute(f"DROP INDEX IF EXISTS lead_{column}_trgm")
    schema_editor.execute("ANALYZE leads_lead")


def _backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for column in _OLD:
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS lead_{column}_trgm ON leads_lead "
            f"USING gin ((UPPER({column}::text)) gin_trgm_ops)")
    schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX_NAME}")


class Migration(migrations.Migration):

    dependencies = [("staff", "0004_scale_tuning")]

    operations = [migrations.RunPython(_forward, _backward)]
