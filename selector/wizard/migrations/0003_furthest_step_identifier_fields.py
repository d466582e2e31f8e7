"""WizardSession.furthest_step stores the step's identifier instead of its position, so a
step inserted later leaves stored sessions and the funnel history meaning what they meant.

The positions as they were until this migration (selector/wizard/steps.py: the five
questions, then the result at 6) are written out here: the mapping is history, not
today's step list. Backwards maps the identifiers to those positions again."""

from django.db import migrations, models

POSITIONS = {1: "scale", 2: "workload", 3: "budget", 4: "determinism", 5: "nic-speed",
             6: "result"}


def to_identifiers(apps, schema_editor):
    WizardSession = apps.get_model("wizard", "WizardSession")
    for position, identifier in POSITIONS.items():
        WizardSession.objects.filter(furthest_step=str(position)).update(
            furthest_step=identifier)
    # Nothing else was ever stored (the field counted 1..6); every session saw step 1.
    WizardSession.objects.exclude(furthest_step__in=POSITIONS.values()).update(
        furthest_step=POSITIONS[1])


def to_positions(apps, schema_editor):
    WizardSession = apps.get_model("wizard", "WizardSession")
    for position, identifier in POSITIONS.items():
        WizardSession.objects.filter(furthest_step=identifier).update(
            furthest_step=str(position))
    # A stage added after this migration has no old position: the nearest is step 1.
    WizardSession.objects.exclude(
        furthest_step__in=[str(p) for p in POSITIONS]).update(furthest_step="1")


class Migration(migrations.Migration):

    dependencies = [
        ("wizard", "0002_dashboard_cover_index"),
    ]

    operations = [
        migrations.AlterField(
            model_name="wizardsession",
            name="furthest_step",
            field=models.CharField(default="scale", max_length=30,
                                   verbose_name="furthest step"),
        ),
        migrations.RunPython(to_identifiers, to_positions),
    ]
