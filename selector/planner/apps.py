from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlannerConfig(AppConfig):
    name = "selector.planner"
    label = "planner"
    verbose_name = _("Fabric planner")
