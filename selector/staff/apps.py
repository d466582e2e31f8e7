from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StaffConfig(AppConfig):
    name = "selector.staff"
    verbose_name = _("Sales workspace")

    def ready(self) -> None:
        # Connects the receiver of a customer's call-back request (selector.leads.callback,
        # a layer below) that tells sales.
        from selector.staff import tasks  # noqa: F401
