from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "selector.api"
    label = "api"
