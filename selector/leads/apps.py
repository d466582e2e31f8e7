from django.apps import AppConfig


class LeadsConfig(AppConfig):
    name = "selector.leads"
    label = "leads"

    def ready(self) -> None:
        from selector.leads import checks  # noqa: F401  (registers the deployment check)
