from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ContentConfig(AppConfig):
    name = "selector.content"
    label = "content"
    verbose_name = _("Site content")

    def ready(self):
        from selector.content import snapshot  # noqa: F401 -- connects its signals
