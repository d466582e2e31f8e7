"""PostgreSQL only: the list's scale filter reads Lead.gpus (leads/0002, a stored generated
column with its own index) instead of answers->'gpus', so 0003's expression index goes."""

from django.db import migrations


def _forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS lead_gpus_idx")


def _backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS lead_gpus_idx ON leads_lead ((answers -> 'gpus'))")


class Migration(migrations.Migration):

    dependencies = [("staff", "0006_dashboard_rollup"), ("leads", "0002_lead_gpus_column")]

    operations = [migrations.RunPython(_forward, _backward)]
