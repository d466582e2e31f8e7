"""Formerly, PostgreSQL only: rebuilt lead_search_trgm from the live ``search_text()`` once it
covered the WeChat ID and the report number.

Empty since issue 16: each app's migrations own its own tables, so the index is now declared
in Lead.Meta.indexes, its expression frozen in leads/0011. Databases that ran this migration
keep what it built, and leads/0011 adopts it by name (CREATE INDEX IF NOT EXISTS; same names
and definitions, proved on a copy of a 200,000-lead database in docs/migrations.md). It
stays, empty, so the migration history of those databases is unchanged."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [("staff", "0009_profiles_exports"), ("leads", "0004_workspace")]

    operations = []
