from django.apps import AppConfig


class WizardConfig(AppConfig):
    name = "selector.wizard"
    label = "wizard"
