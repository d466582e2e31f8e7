"""Log-in throttles per known browser too (issue 21, M1): a browser that has logged in as
the user is held back only by its own failures, so its rows carry the id of its
known-device cookie; rows of other browsers keep an empty one. Existing rows are of
unknown browsers (empty) and keep counting."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('staff', '0011_remove_dashboard_rollup'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='loginthrottle',
            name='loginthrottle_username_ip_uniq',
        ),
        migrations.AddField(
            model_name='loginthrottle',
            name='device',
            field=models.CharField(blank=True, default='', max_length=32, verbose_name='known browser'),
        ),
        migrations.AddConstraint(
            model_name='loginthrottle',
            constraint=models.UniqueConstraint(fields=('username', 'ip', 'device'), name='loginthrottle_user_ip_device_uniq'),
        ),
    ]
