from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "selector.reports"
    label = "reports"

    def ready(self) -> None:
        from selector.leads.services import LEAD_DELETE_HOOKS
        from selector.reports import checks  # noqa: F401  (registers the system check)
        from selector.reports.services import delete_cached_reports

        if delete_cached_reports not in LEAD_DELETE_HOOKS:
            LEAD_DELETE_HOOKS.append(delete_cached_reports)
