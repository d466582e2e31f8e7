import json
from pathlib import Path

from django.apps import apps
from django.core import serializers
from django.core.management.base import BaseCommand
from django.core.management.color import no_style
from django.db import connection, transaction

FIXTURE = "fixtures/content.json"


class Command(BaseCommand):
    help = (
        "Load the marketing content (FAQ, comparison table, switch and optics catalogue, "
        "company profile) from fixtures/content.json into every content table that is "
        "empty, so edits made in the admin survive restarts and a new table (e.g. after an "
        "upgrade) gets its rows. --force reloads and overwrites the fixture rows."
    )

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="overwrite existing rows")

    def handle(self, *args, force: bool = False, **options):
        verbose = options.get("verbosity", 1) > 0
        text = Path(FIXTURE).read_text(encoding="utf-8")
        labels = sorted({row["model"] for row in json.loads(text)})
        empty = {label for label in labels
                 if force or not apps.get_model(label).objects.exists()}
        if not empty:
            if verbose:
                self.stdout.write("content already present; not overwriting (use --force)")
            return
        with transaction.atomic():
            for obj in serializers.deserialize("json", text):
                if obj.object._meta.label_lower in empty:
                    obj.save()
            # As loaddata does: the fixture's explicit pks must not collide with new rows.
            models = [apps.get_model(label) for label in empty]
            with connection.cursor() as cursor:
                for sql in connection.ops.sequence_reset_sql(no_style(), models):
                    cursor.execute(sql)
        if verbose:
            self.stdout.write(self.style.SUCCESS(
                f"content loaded from {FIXTURE}: {', '.join(sorted(empty))}"))
