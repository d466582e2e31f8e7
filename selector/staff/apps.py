from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StaffConfig(AppConfig):
    name = "selector.staff"
    verbose_name = _("Sales workspace")
