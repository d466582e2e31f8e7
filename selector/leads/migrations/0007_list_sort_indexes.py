from django.db import migrations, models


class Migration(migrations.Migration):
    """The lead list's name and company sorts walk an index (keyset pages too)."""

    dependencies = [
        ('leads', '0006_my_day_indexes'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='lead',
            index=models.Index(fields=['name', 'id'], name='lead_name_sort_idx'),
        ),
        migrations.AddIndex(
            model_name='lead',
            index=models.Index(fields=['company', 'id'], name='lead_company_sort_idx'),
        ),
    ]
