"""Formerly, PostgreSQL only: the pg_trgm extension, per-column trigram indexes on leads_lead
(name, company, phone, email; replaced by one search index in 0005) and an expression index
on answers->'gpus' (dropped in 0007).

Empty since issue 16: each app's migrations own its own tables, so the extension and the
indexes are now declared in Lead.Meta.indexes and created by leads/0011. Databases that ran
this migration keep what it built, and leads/0011 adopts it by name (CREATE INDEX IF NOT
EXISTS; same names and definitions, proved on a copy of a 200,000-lead database in
docs/migrations.md). It stays, empty, so the migration history of those databases is
unchanged."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [("staff", "0002_roles"), ("leads", "0001_initial")]

    operations = []
