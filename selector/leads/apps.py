from django.apps import AppConfig


class LeadsConfig(AppConfig):
    name = "selector.leads"
    label = "leads"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from selector.leads import (
            checks,  # noqa: F401  (registers the deployment check)
            worktime,
        )
        from selector.leads.models import CalendarDay

        # An edit of the working calendar in the admin applies at once.
        for signal in (post_save, post_delete):
            signal.connect(worktime.calendar_changed, sender=CalendarDay,
                           dispatch_uid=f"worktime-{signal is post_save}")
