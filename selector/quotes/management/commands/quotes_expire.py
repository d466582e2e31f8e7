"""`manage.py quotes_expire`: sent quotes past their validity date become "expired" (their
links already stop working on that date; this puts the status right for the lists and
the dashboard). With --schedule, start the task worker's hourly chain instead
(deploy/serve-prod.sh does); without it, one run (for cron or a systemd timer)."""

from django.core.management.base import BaseCommand

from selector.quotes import expiry
from selector.quotes.services import quotes_expire


class Command(BaseCommand):
    help = ("Mark sent quotes past their validity date as expired. With --schedule, start "
            "the task worker's hourly expiry chain instead.")

    def add_arguments(self, parser):
        parser.add_argument("--schedule", action="store_true",
                            help="enqueue the recurring expiry tick for the task worker")

    def handle(self, *args, schedule: bool, **options):
        if schedule:
            if expiry.schedule_expiry():
                self.stdout.write("quote expiry scheduled")
            else:
                self.stdout.write("the task backend cannot defer: run `quotes_expire` from cron")
            return
        count = quotes_expire()
        self.stdout.write(f"{count} quote(s) expired")
