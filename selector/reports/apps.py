from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "selector.reports"
    label = "reports"

    def ready(self) -> None:
        from selector.reports import checks  # noqa: F401  (registers the system check)
