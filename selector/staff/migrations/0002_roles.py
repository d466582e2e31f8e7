"""The two roles as Django groups with their permissions (rules: selector/staff/permissions.py).

Permissions normally appear in post_migrate, after every migration; create_permissions is
called here so the default ones for leads.Lead exist when the groups are built."""

from django.db import migrations

from selector.staff.permissions import MANAGERS_GROUP, SALES_GROUP
from selector.staff.roles import ensure_roles


def create_roles(apps, schema_editor):
    ensure_roles(apps)


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(
        name__in=[SALES_GROUP, MANAGERS_GROUP]).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("staff", "0001_initial"),
        ("leads", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
