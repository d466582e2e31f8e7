from django.conf import settings
from django.core.management.base import BaseCommand

from selector.leads.services import leads_purge


class Command(BaseCommand):
    help = (
        "Delete leads (and what is stored with them) older than LEAD_RETENTION_DAYS. "
        "Safe to run daily, e.g. from cron. Prints counts only, never personal data."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true",
                            help="count the leads that would be deleted, delete nothing")

    def handle(self, *args, dry_run: bool = False, **options):
        count = leads_purge(dry_run=dry_run)
        days = settings.LEAD_RETENTION_DAYS
        if dry_run:
            self.stdout.write(f"{count} lead(s) older than {days} days would be deleted")
        else:
            self.stdout.write(f"{count} lead(s) older than {days} days deleted")
