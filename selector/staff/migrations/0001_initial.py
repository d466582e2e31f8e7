from django.conf import settings
from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='LeadDeletion',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('report_hash', models.CharField(db_index=True, max_length=64, verbose_name='report number hash')),
                ('lead_created_on', models.DateField(verbose_name='lead created on')),
                ('recommendation', models.CharField(max_length=40, verbose_name='recommendation')),
                ('score', models.CharField(max_length=10, verbose_name='score')),
                ('status', models.CharField(max_length=20, verbose_name='status at deletion')),
                ('language', models.CharField(max_length=10, verbose_name='language')),
                ('utm_source', models.CharField(blank=True, max_length=100, verbose_name='source')),
                ('reason', models.CharField(max_length=300, verbose_name='reason')),
                ('deleted_at', models.DateTimeField(auto_now_add=True, verbose_name='deleted at')),
                ('actor', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='deleted by')),
            ],
            options={
                'verbose_name': 'lead deletion',
                'verbose_name_plural': 'lead deletions',
                'ordering': ['-deleted_at'],
            },
        ),
    ]
