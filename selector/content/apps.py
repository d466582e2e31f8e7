from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ContentConfig(AppConfig):
    name = "selector.content"
    label = "content"
    verbose_name = _("Site content")

    def ready(self):
        from selector.content import checks, snapshot  # noqa: F401 -- the deployment
        # check, the snapshot's signals
