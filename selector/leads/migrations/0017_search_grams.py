"""Short searches anywhere in name and company (issue 24, finding 5): "星河" finds
"深圳星河智算". Trigrams need three characters, so 1-2 character terms matched only the
start of name or company (two text_pattern_ops prefix indexes, dropped here). Now they go
through one GIN index over the set of the lower-cased name's and company's characters and
character pairs, computed by an IMMUTABLE SQL function created here (PostgreSQL only; on
SQLite the index is an SQL comment and the search uses icontains, selector.staff.queries).

The function's body is frozen in this migration (selector.leads.search.GRAMS_SQL is the
same text; tests/staff/test_search_and_scale.py checks the two agree), so the migration
keeps its meaning when that module changes. docs/performance.md has the figures."""

import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models

import selector.leads.indexes

GRAMS_SQL = r"""
CREATE OR REPLACE FUNCTION selector_search_grams(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}')
  FROM (SELECT substr(t, i, 1) AS g FROM generate_series(1, length(t)) AS i
        UNION ALL
        SELECT substr(t, i, 2) FROM generate_series(1, length(t) - 1) AS i) AS grams
  WHERE g !~ '\s'
$$"""


def create_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(GRAMS_SQL)


def drop_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS selector_search_grams(text)")


class Migration(migrations.Migration):

    dependencies = [
        ('leads', '0016_lead_version'),
        ('wizard', '0002_dashboard_cover_index'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(create_function, drop_function, elidable=False),
        migrations.AddIndex(
            model_name='lead',
            index=selector.leads.indexes.PostgreSQLIndex(models.Func(django.db.models.functions.text.Lower(models.F('name')), django.db.models.functions.text.Lower(models.F('company')), arg_joiner=" || ' ' || ", function='selector_search_grams'), method='gin', name='lead_search_grams'),
        ),
        migrations.RemoveIndex(
            model_name='lead',
            name='lead_name_prefix_idx',
        ),
        migrations.RemoveIndex(
            model_name='lead',
            name='lead_company_prefix_idx',
        ),
    ]
