"""Formerly, PostgreSQL only: dropped 0003's expression index on answers->'gpus' (the list
reads Lead.gpus since leads/0002).

Empty since issue 16: each app's migrations own its own tables. leads/0011 drops that index
(IF EXISTS) on databases that still have it; fresh databases never get it. It stays, empty,
so the migration history of databases that ran it is unchanged."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [("staff", "0006_dashboard_rollup"), ("leads", "0002_lead_gpus_column")]

    operations = []
