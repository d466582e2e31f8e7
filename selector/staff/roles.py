"""Create (or repair) the two role groups and their permissions. Used by migration
0002_roles with the historical app registry, and by tests after a database flush (a flush
removes rows that only a data migration creates)."""

from django.contrib.auth.management import create_permissions

from selector.staff.permissions import (
    CUSTOM_PERMISSIONS,
    MANAGER_PERMISSIONS,
    MANAGERS_GROUP,
    SALES_GROUP,
    SALES_PERMISSIONS,
)


def ensure_roles(apps) -> None:
    leads_config = apps.get_app_config("leads")
    if getattr(leads_config, "models_module", None) is None:  # a migration's registry
        leads_config.models_module = True
        create_permissions(leads_config, apps=apps, verbosity=0)
        leads_config.models_module = None
    else:
        create_permissions(leads_config, apps=apps, verbosity=0)
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    lead_type, _ = ContentType.objects.get_or_create(app_label="leads", model="lead")
    for codename, name in CUSTOM_PERMISSIONS.items():
        Permission.objects.get_or_create(content_type=lead_type, codename=codename,
                                         defaults={"name": name})
    for group_name, codenames in ((SALES_GROUP, SALES_PERMISSIONS),
                                  (MANAGERS_GROUP, MANAGER_PERMISSIONS)):
        group, _ = Group.objects.get_or_create(name=group_name)
        group.permissions.set(Permission.objects.filter(content_type=lead_type,
                                                        codename__in=codenames))
