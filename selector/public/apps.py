from django.apps import AppConfig


class PublicConfig(AppConfig):
    name = "selector.public"
    label = "public"
