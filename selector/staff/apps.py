from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StaffConfig(AppConfig):
    name = "selector.staff"
    verbose_name = _("Sales workspace")

    def ready(self):
        from selector.staff import rollup

        rollup.connect()  # writes that change a past day's dashboard counts
