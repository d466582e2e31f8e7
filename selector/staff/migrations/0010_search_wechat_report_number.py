"""PostgreSQL only: the search text now also covers the WeChat ID and the report number
(selector.staff.search), so its trigram index is rebuilt from the new expression."""

from django.db import migrations
from django.db.models.sql import Query

from selector.staff.search import INDEX_NAME, STATISTICS, search_text


def _expression_sql(model, schema_editor) -> str:
    query = Query(model, alias_cols=False)
    compiler = query.get_compiler(connection=schema_editor.connection)
    sql, params = search_text().resolve_expression(query).as_sql(
        compiler, schema_editor.connection)
    return sql % tuple(schema_editor.quote_value(p) for p in params)


def _forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    expression = _expression_sql(apps.get_model("leads", "Lead"), schema_editor)
    schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX_NAME}")
    schema_editor.execute(f"CREATE INDEX {INDEX_NAME} ON leads_lead "
                          f"USING gin (({expression}) gin_trgm_ops)")
    schema_editor.execute(
        f"ALTER INDEX {INDEX_NAME} ALTER COLUMN 1 SET STATISTICS {STATISTICS}")
    schema_editor.execute("ANALYZE leads_lead")


class Migration(migrations.Migration):

    dependencies = [("staff", "0009_profiles_exports"), ("leads", "0004_workspace")]

    operations = [migrations.RunPython(_forward, migrations.RunPython.noop)]
