"""The two roles as Django groups with their permissions (rules: selector/staff/permissions.py).

Permissions normally appear in post_migrate, after every migration; create_permissions is
called here so the default ones for leads.Lead exist when the groups are built."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from selector.staff.permissions import (
    CUSTOM_PERMISSIONS,
    MANAGER_PERMISSIONS,
    MANAGERS_GROUP,
    SALES_GROUP,
    SALES_PERMISSIONS,
)


def create_roles(apps, schema_editor):
    leads_config = apps.get_app_config("leads")
    leads_config.models_module = True
    create_permissions(leads_config, apps=apps, verbosity=0)
    leads_config.models_module = None
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    lead_type = ContentType.objects.get(app_label="leads", model="lead")
    for codename, name in CUSTOM_PERMISSIONS.items():
        Permission.objects.get_or_create(content_type=lead_type, codename=codename,
                                         defaults={"name": name})
    for group_name, codenames in ((SALES_GROUP, SALES_PERMISSIONS),
                                  (MANAGERS_GROUP, MANAGER_PERMISSIONS)):
        group, _ = Group.objects.get_or_create(name=group_name)
        group.permissions.set(Permission.objects.filter(content_type=lead_type,
                                                        codename__in=codenames))


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
