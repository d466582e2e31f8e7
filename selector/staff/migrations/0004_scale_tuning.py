"""PostgreSQL only, for 200,000+ leads (bench/bench_staff.py):

- ``toast_tuple_target = 256`` on leads_lead moves the big JSON (sizing snapshot, ~1.5 kB
  compressed) out of line, so the heap the list, counts and dashboard scan is ~4x smaller.
  New and updated rows only; existing rows move on their next update (or VACUUM FULL).
- Prefix indexes for 1-2 character searches (trigrams need 3 characters).
- Covering indexes so the dashboard's period/source aggregates are index-only scans."""

from django.db import migrations

_INDEXES = {
    # Prefix search for 1-2 character terms: UPPER(col) LIKE 'X%' (istartswith).
    "lead_name_prefix_idx": "ON leads_lead (UPPER(name::text) text_pattern_ops)",
    "lead_company_prefix_idx": "ON leads_lead (UPPER(company::text) text_pattern_ops)",
    "lead_created_cover_idx":
        "ON leads_lead (created_at) INCLUDE (recommendation, utm_source)",
    "wizsession_created_cover_idx":
        "ON wizard_wizardsession (created_at) INCLUDE (furthest_step, result_at, utm_source)",
}


def _forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("ALTER TABLE leads_lead SET (toast_tuple_target = 256)")
    for name, definition in _INDEXES.items():
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} {definition}")


def _backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("ALTER TABLE leads_lead RESET (toast_tuple_target)")
    for name in _INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):

    dependencies = [("staff", "0003_search_indexes"), ("wizard", "0001_initial")]

    operations = [migrations.RunPython(_forward, _backward)]
