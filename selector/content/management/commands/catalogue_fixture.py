import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from selector.content.catalogue_fixture import FIXTURE, dumps, regenerate


class Command(BaseCommand):
    help = (
        "Write the switch and optics rows of fixtures/content.json from the domain catalogue "
        "(selector/domain/catalogue/data.py, the one source). --check only reports whether "
        "the file is up to date (exit status 1 if not)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="do not write; fail if stale")

    def handle(self, *args, check: bool = False, **options):
        path = Path(FIXTURE)
        text = path.read_text(encoding="utf-8")
        new = dumps(regenerate(json.loads(text)))
        if check:
            if new != text:
                raise CommandError(f"{FIXTURE} differs from the domain catalogue; run "
                                   "`manage.py catalogue_fixture` and commit the result")
            self.stdout.write(f"{FIXTURE}: the catalogue rows are up to date")
            return
        if new != text:
            path.write_text(new, encoding="utf-8")
            self.stdout.write(self.style.SUCCESS(f"{FIXTURE}: catalogue rows rewritten"))
        else:
            self.stdout.write(f"{FIXTURE}: already up to date")
