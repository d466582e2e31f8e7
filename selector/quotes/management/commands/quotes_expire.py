"""`manage.py quotes_expire`: sent quotes past their validity date become "expired" (their
links already stop working on that date; this puts the status right for the lists and
the dashboard). Run daily (cron or a systemd timer)."""

from django.core.management.base import BaseCommand

from selector.quotes.services import quotes_expire


class Command(BaseCommand):
    help = "Mark sent quotes past their validity date as expired."

    def handle(self, *args, **options):
        count = quotes_expire()
        self.stdout.write(f"{count} quote(s) expired")
