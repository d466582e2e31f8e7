from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "selector.reports"
    label = "reports"
