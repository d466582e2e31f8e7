"""The dashboard's stored daily counts go (issue 16): the dashboard counts a period from the
base tables through covering indexes, within its cold budget at 200,000 leads (README.md
has the bench figures). The two tables held only derived counts, rebuilt from leads and
wizard sessions at any time, so nothing is lost; going back re-creates them empty, and the
old code refilled them on demand."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('staff', '0010_search_wechat_report_number'),
    ]

    operations = [
        migrations.DeleteModel(
            name='DashboardDay',
        ),
        migrations.RemoveConstraint(
            model_name='dashboardfigures',
            name='dashboard_figures_day_source',
        ),
        migrations.DeleteModel(
            name='DashboardFigures',
        ),
    ]
