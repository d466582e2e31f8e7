from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "selector.documents"
    label = "documents"

    def ready(self) -> None:
        from selector.documents import checks  # noqa: F401  (registers the system check)
