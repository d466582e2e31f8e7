"""PostgreSQL only: trigram indexes for the lead list's search box and an expression index
for the GPU-count buckets. Kept in this app (RunSQL, no model state) so selector.leads'
models stay untouched. Django's ``icontains`` compiles to ``UPPER(col::text) LIKE
UPPER(%s)``, hence the indexed expressions. SQLite gets nothing (the list falls back to a
scan, fine at SQLite sizes)."""

from django.db import migrations

_SEARCH_COLUMNS = ("name", "company", "phone", "email")


def _forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for column in _SEARCH_COLUMNS:
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS lead_{column}_trgm ON leads_lead "
            f"USING gin ((UPPER({column}::text)) gin_trgm_ops)")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS lead_gpus_idx ON leads_lead ((answers -> 'gpus'))")


def _backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for column in _SEARCH_COLUMNS:
        schema_editor.execute(f"DROP INDEX IF EXISTS lead_{column}_trgm")
    schema_editor.execute("DROP INDEX IF EXISTS lead_gpus_idx")


class Migration(migrations.Migration):

    dependencies = [("staff", "0002_roles"), ("leads", "0001_initial")]

    operations = [migrations.RunPython(_forward, _backward)]
