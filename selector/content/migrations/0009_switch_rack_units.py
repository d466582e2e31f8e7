from django.db import migrations, models

# The heights the switches' own documents give (selector.domain.catalogue cites each):
# SN5000 "2U" manual, QM97XX "1U" manual, the Q3400 hw-mgmt patch "4U".
RACK_UNITS = {"nvidia-sn5600": 2, "nvidia-qm9700": 1, "nvidia-q3400": 4}


def set_rack_units(apps, schema_editor):
    Switch = apps.get_model("content", "Switch")
    for key, units in RACK_UNITS.items():
        Switch.objects.filter(key=key, rack_units__isnull=True).update(rack_units=units)


class Migration(migrations.Migration):

    dependencies = [
        ("content", "0008_part_qsfp112"),
    ]

    operations = [
        migrations.AddField(
            model_name="switch",
            name="rack_units",
            field=models.PositiveSmallIntegerField(
                blank=True, null=True, verbose_name="rack units",
                help_text="Height from the switch's own documents; empty where none gives it."),
        ),
        migrations.RunPython(set_rack_units, migrations.RunPython.noop),
    ]
