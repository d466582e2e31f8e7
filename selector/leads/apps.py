from django.apps import AppConfig


class LeadsConfig(AppConfig):
    name = "selector.leads"
    label = "leads"
