"""A token that changes with every change to a content table, kept by the database itself
(PostgreSQL only; elsewhere the snapshot reads the rows).

selector.content.snapshot checks on every request whether the content changed. It used
to have PostgreSQL digest every column of every content row (~0.5 ms a request, a tenth
of a wizard step); now it reads one row, ``content_state.token``, which triggers on the
content tables replace with a random UUID whenever a row is inserted or deleted, a row's
values change (an UPDATE that writes the same values leaves it), or a table is truncated.
Whoever makes the change (the admin, ``load_content``, a queryset ``update()``, SQL by
hand), the token moves in the same transaction. A random token, not a counter: a
database restored from a backup can never bring back a value that meant other rows.

A new content table needs the same triggers (``table_sql`` below, in a new migration);
tests/test_content_state.py fails until it has them.
"""

from django.db import migrations

TABLES = ("content_companyprofile", "content_contentblock", "content_faqentry",
          "content_comparisonrow", "content_switch", "content_part", "content_pricelist",
          "content_unitprice")

STATE_SQL = (
    "CREATE TABLE content_state (id smallint PRIMARY KEY CHECK (id = 1), token uuid NOT NULL)",
    "INSERT INTO content_state (id, token) VALUES (1, gen_random_uuid())",
    """CREATE FUNCTION content_state_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE content_state SET token = gen_random_uuid() WHERE id = 1;
    RETURN NULL;
END
$$""",
)


def table_sql(table: str) -> tuple[str, ...]:
    """The three triggers that move the token on ``table`` (a name from the code, quoted)."""
    return (
        f'CREATE TRIGGER content_state_rows AFTER INSERT OR DELETE ON "{table}" '
        "FOR EACH ROW EXECUTE FUNCTION content_state_bump()",
        f'CREATE TRIGGER content_state_changes AFTER UPDATE ON "{table}" '
        "FOR EACH ROW WHEN (OLD::text IS DISTINCT FROM NEW::text) "
        "EXECUTE FUNCTION content_state_bump()",
        f'CREATE TRIGGER content_state_truncate AFTER TRUNCATE ON "{table}" '
        "FOR EACH STATEMENT EXECUTE FUNCTION content_state_bump()",
    )


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for sql in STATE_SQL + tuple(sql for table in TABLES for sql in table_sql(table)):
        schema_editor.execute(sql)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        for name in ("content_state_rows", "content_state_changes", "content_state_truncate"):
            schema_editor.execute(f'DROP TRIGGER IF EXISTS {name} ON "{table}"')
    schema_editor.execute("DROP FUNCTION IF EXISTS content_state_bump()")
    schema_editor.execute("DROP TABLE IF EXISTS content_state")


class Migration(migrations.Migration):

    dependencies = [
        ("content", "0010_company_wecom_link"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
