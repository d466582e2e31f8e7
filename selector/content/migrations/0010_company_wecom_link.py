"""The company profile's WeCom customer-acquisition link (issue 26, finding 10): "talk to
an engineer" on the result and thank-you pages."""

from django.db import migrations, models

import selector.content.models


class Migration(migrations.Migration):

    dependencies = [
        ("content", "0009_switch_rack_units"),
    ]

    operations = [
        migrations.AddField(
            model_name="companyprofile",
            name="wecom_link",
            field=models.URLField(
                blank=True,
                help_text="Created in the WeCom admin (https://work.weixin.qq.com/ca/...). "
                          "Customers open it to add an engineer; the site adds "
                          "customer_channel with the report number.",
                max_length=300,
                validators=[selector.content.models.validate_wecom_link],
                verbose_name="WeCom customer-acquisition link",
            ),
        ),
    ]
