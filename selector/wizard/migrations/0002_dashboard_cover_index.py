"""WizardSession.Meta.indexes declares the dashboard's covering index, which staff/0004 used
to add with raw SQL (PostgreSQL only) to this app's table.

Fresh databases get it here (SQLite: a plain index, it has no INCLUDE). Databases that ran
staff/0004 have it already, same name and definition: adopted, not rebuilt (CREATE INDEX
IF NOT EXISTS; see docs/migrations.md)."""

from django.db import migrations, models


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


class Migration(migrations.Migration):

    dependencies = [("wizard", "0001_initial")]

    operations = [
        AddIndexIfMissing(
            model_name="wizardsession",
            index=models.Index(fields=["created_at"],
                               include=("furthest_step", "result_at", "utm_source"),
                               name="wizsession_created_cover_idx"),
        ),
    ]
