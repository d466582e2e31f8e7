"""``Lead.sizing`` becomes ``Lead.frozen_recommendation`` (what it holds since snapshots
exist: the whole frozen recommendation), and the first-release leads whose column still
holds only a sizing summary are frozen here, once, the way the reader used to freeze them
at their first read (selector.leads.snapshots.first_release_snapshot), so that reading a
lead never writes.

The freeze uses the live engine, catalogue and prices (that is what the lazy freeze did);
it runs only for rows that need it, so a fresh database never reaches it. A row whose
answers no longer validate is left as it is (the reader refuses it as before). Backwards
the snapshots stay: they are valid for the old reader too."""

from django.db import migrations, models

from selector.domain import InvalidAnswers
from selector.leads.snapshots import first_release_snapshot


def freeze_first_release_leads(apps, schema_editor):
    Lead = apps.get_model("leads", "Lead")
    pending = (Lead.objects.exclude(frozen_recommendation__has_key="snapshot_version")
               .only("pk", "answers", "frozen_recommendation").order_by("pk"))
    for lead in pending.iterator(chunk_size=500):
        old = lead.frozen_recommendation
        try:
            _rec, snapshot = first_release_snapshot(lead.answers, old)
        except InvalidAnswers:
            continue
        Lead.objects.filter(pk=lead.pk).update(frozen_recommendation=snapshot)


class Migration(migrations.Migration):

    dependencies = [
        ("leads", "0021_routing_rule"),
        # The freeze reads the catalogue and prices through the live content models.
        ("content", "0010_company_wecom_link"),
    ]

    operations = [
        migrations.RenameField("lead", "sizing", "frozen_recommendation"),
        migrations.AlterField(
            model_name="lead",
            name="frozen_recommendation",
            field=models.JSONField(blank=True, default=dict,
                                   verbose_name="recommendation shown"),
        ),
        migrations.RunPython(freeze_first_release_leads, migrations.RunPython.noop,
                             elidable=True),
    ]
