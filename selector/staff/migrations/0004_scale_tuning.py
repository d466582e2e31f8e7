"""Formerly, PostgreSQL only: ``toast_tuple_target = 256`` on leads_lead, the prefix indexes
lead_name_prefix_idx and lead_company_prefix_idx, and the covering indexes
lead_created_cover_idx and wizsession_created_cover_idx.

Empty since issue 16: each app's migrations own its own tables, so the indexes are now
declared in Lead.Meta.indexes and WizardSession.Meta.indexes (leads/0011 also sets the
storage setting). Databases that ran this migration keep what it built, and leads/0011
(wizard/0002) adopts it by name (CREATE INDEX IF NOT EXISTS; same names and definitions,
proved on a copy of a 200,000-lead database in docs/migrations.md). It stays, empty, so the
migration history of those databases is unchanged."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [("staff", "0003_search_indexes"), ("wizard", "0001_initial")]

    operations = []
