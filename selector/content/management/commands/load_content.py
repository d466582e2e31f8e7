from django.core.management import call_command
from django.core.management.base import BaseCommand

from selector.content.models import CompanyProfile, ComparisonRow, ContentBlock, FaqEntry, Switch

FIXTURE = "fixtures/content.json"


class Command(BaseCommand):
    help = (
        "Load the marketing content (FAQ, comparison table, switch catalogue, company profile) "
        "from fixtures/content.json when the content tables are empty, so edits made in the "
        "admin survive restarts. --force reloads and overwrites the fixture rows."
    )

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="overwrite existing rows")

    def handle(self, *args, force: bool = False, **options):
        models = [CompanyProfile, ContentBlock, FaqEntry, ComparisonRow, Switch]
        verbose = options.get("verbosity", 1) > 0
        if not force and any(m.objects.exists() for m in models):
            if verbose:
                self.stdout.write("content already present; not overwriting (use --force)")
            return
        call_command("loaddata", FIXTURE, verbosity=0)
        if verbose:
            self.stdout.write(self.style.SUCCESS("content loaded from " + FIXTURE))
