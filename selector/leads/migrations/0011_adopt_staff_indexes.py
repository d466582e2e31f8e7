"""leads_lead's indexes and storage settings, owned by this app at last.

Until now staff/0003-0005, 0007 and 0010 added indexes and a storage setting to this app's
table with raw SQL (PostgreSQL only), and 0005/0010 built the search index from the live
``search_text()``, so those old migrations changed meaning whenever the search changed.
They are empty now; ``Lead.Meta.indexes`` declares every index, and this migration
records the five that were missing, with the search expression frozen below.

- Fresh database: the indexes are created here (on SQLite the PostgreSQL-only ones are an
  SQL comment, see selector.leads.indexes; the covering index is a plain one).
- A database that ran the old staff migrations has them already, under the same names and
  with the same definitions: they are adopted as they are (CREATE INDEX IF NOT EXISTS), not
  rebuilt. The one index that ever changed definition under one name is lead_search_trgm
  (staff/0010 rebuilt it with the WeChat ID and report number): a database that ran 0005
  but not 0010 has the old one, so it is dropped and built again. Indexes the old
  migrations created and later dropped are dropped if a database still has them.
- What Django cannot declare stays here as SQL, PostgreSQL only: the table's
  ``toast_tuple_target`` (256: the big JSON columns live out of line, so the heap that the
  list, counts and dashboard scan is ~4x smaller; see leads/0005 for the short columns kept
  inline) and the search index's statistics target (1000: the planner's estimate for
  LIKE '%term%' comes from the expression's histogram).

docs/migrations.md has the proof on a copy of a 200,000-lead database: every row and every
index kept, definitions identical."""

from django.contrib.postgres.indexes import OpClass
from django.db import migrations, models
from django.db.models.functions import Lower, Replace, Upper

import selector.leads.indexes

SEARCH_INDEX = "lead_search_trgm"
# Created by staff/0003 and dropped again by staff/0005 (trigrams) and 0007 (answers->gpus).
OBSOLETE = ("lead_name_trgm", "lead_company_trgm", "lead_phone_trgm", "lead_email_trgm",
            "lead_gpus_idx")


class AddIndexIfMissing(migrations.AddIndex):
    """AddIndex that leaves an existing index of the same name in place. Frozen here: the
    migration must keep its meaning whatever the project's code becomes."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        model = to_state.apps.get_model(app_label, self.model_name)
        if self.allow_migrate_model(schema_editor.connection.alias, model):
            sql = schema_editor.sql_create_index.replace(
                "CREATE INDEX ", "CREATE INDEX IF NOT EXISTS ", 1)
            schema_editor.execute(self.index.create_sql(model, schema_editor, sql=sql),
                                  params=None)


def _drop_stale(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in OBSOLETE:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE tablename = 'leads_lead' "
                       "AND indexname = %s", [SEARCH_INDEX])
        row = cursor.fetchone()
    if row and "report_number" not in row[0]:  # staff/0005's expression, before 0010
        schema_editor.execute(f"DROP INDEX {SEARCH_INDEX}")


def _storage(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("ALTER TABLE leads_lead SET (toast_tuple_target = 256)")
    schema_editor.execute(f"ALTER INDEX {SEARCH_INDEX} ALTER COLUMN 1 SET STATISTICS 1000")
    schema_editor.execute("ANALYZE leads_lead")


def _reset_storage(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE leads_lead RESET (toast_tuple_target)")


class Migration(migrations.Migration):

    dependencies = [
        ("leads", "0010_possible_duplicate"),
        ("wizard", "0002_dashboard_cover_index"),
    ]

    operations = [
        migrations.RunPython(_drop_stale, migrations.RunPython.noop),
        AddIndexIfMissing(
            model_name="lead",
            index=selector.leads.indexes.PostgreSQLIndex(
                fields=["company_key"], method="gin", name="lead_company_key_trgm",
                opclasses=["gin_trgm_ops"]),
        ),
        AddIndexIfMissing(
            model_name="lead",
            index=selector.leads.indexes.PostgreSQLIndex(
                OpClass(Lower(models.Func(
                    models.F("name"), models.F("company"), models.F("email"),
                    Replace(models.F("phone"), models.Value("+"), models.Value("")),
                    models.F("wechat"), models.F("report_number"),
                    arg_joiner=" || ' ' || ", output_field=models.TextField(),
                    template="(%(expressions)s)")), name="gin_trgm_ops"),
                method="gin", name=SEARCH_INDEX),
        ),
        AddIndexIfMissing(
            model_name="lead",
            index=selector.leads.indexes.PostgreSQLIndex(
                OpClass(Upper("name"), name="text_pattern_ops"), name="lead_name_prefix_idx"),
        ),
        AddIndexIfMissing(
            model_name="lead",
            index=selector.leads.indexes.PostgreSQLIndex(
                OpClass(Upper("company"), name="text_pattern_ops"),
                name="lead_company_prefix_idx"),
        ),
        AddIndexIfMissing(
            model_name="lead",
            index=models.Index(fields=["created_at"], include=("recommendation", "utm_source"),
                               name="lead_created_cover_idx"),
        ),
        migrations.RunPython(_storage, _reset_storage),
    ]
