from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "selector.core"
    label = "core"
