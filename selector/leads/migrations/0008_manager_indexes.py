import django.db.models.functions.comparison
from django.db import migrations, models


class Migration(migrations.Migration):
    """The managers' page reads each figure from a partial covering index alone."""

    dependencies = [
        ('leads', '0007_list_sort_indexes'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='lead',
            name='lead_owner_idx',
        ),
        migrations.AddIndex(
            model_name='lead',
            index=models.Index(condition=models.Q(('merged_into__isnull', True)), fields=['owner', 'status'], include=('deal_value',), name='lead_owner_idx'),
        ),
        migrations.AddIndex(
            model_name='lead',
            index=models.Index(condition=models.Q(('merged_into__isnull', True), ('status__in', ['won', 'lost'])), fields=['created_at'], include=('status', 'utm_source', 'utm_campaign', 'deal_value'), name='lead_won_lost_idx'),
        ),
        migrations.AddIndex(
            model_name='lead',
            index=models.Index(condition=models.Q(('first_contact_at__isnull', False), ('merged_into__isnull', True)), fields=['created_at'], include=('first_contact_by', 'first_contact_at', 'sla_due'), name='lead_first_contact_idx'),
        ),
        migrations.AddIndex(
            model_name='lead',
            index=models.Index(django.db.models.functions.comparison.Coalesce('last_activity_at', 'created_at'), condition=models.Q(('merged_into__isnull', True), ('status__in', ('new', 'contacted', 'qualified', 'proposal'))), include=('owner', 'last_activity_at', 'created_at'), name='lead_stale_idx'),
        ),
    ]
