import time

from django.core.management.base import BaseCommand, CommandError

from devtools import demo
from selector.content.examples import load_example_prices


class Command(BaseCommand):
    help = ("Create realistic demo leads and wizard sessions (bilingual names, spread over "
            "months and traffic sources) for the sales workspace. Adds to what is there.")

    def add_arguments(self, parser):
        parser.add_argument("--leads", type=int, default=500)
        parser.add_argument("--sessions", type=int, default=0,
                            help="total wizard sessions (at least one per lead)")
        parser.add_argument("--months", type=int, default=12)
        parser.add_argument("--seed", type=int, default=None, help="random seed")
        parser.add_argument("--duplicate-sample", type=int, default=0, metavar="PEOPLE",
                            help="also a labelled sample of that many people (some "
                                 "submitting again) through the real duplicate matcher; "
                                 "prints its precision and recall")
        parser.add_argument("--example-prices", action="store_true",
                            help="load an example price list, marked as examples on every "
                                 "page (never real prices)")

    def handle(self, *args, leads, sessions, months, seed: int | None,
               example_prices: bool = False, duplicate_sample: int = 0, **options):
        if not 0 <= leads <= 2_000_000 or not 0 <= sessions <= 5_000_000:
            raise CommandError("--leads must be 0..2,000,000 and --sessions 0..5,000,000")
        if not 1 <= months <= 60:
            raise CommandError("--months must be 1..60")
        if not 0 <= duplicate_sample <= 100_000:
            raise CommandError("--duplicate-sample must be 0..100,000")
        started = time.perf_counter()
        if example_prices:
            load_example_prices()
            self.stdout.write("Loaded an example price list (marked as examples).")
        made_leads, made_sessions = demo.seed(leads=leads, sessions=sessions, months=months,
                                              seed=seed)
        self.stdout.write(self.style.SUCCESS(
            f"Created {made_leads} leads and {made_sessions} wizard sessions in "
            f"{time.perf_counter() - started:.1f} s"))
        if duplicate_sample:
            figures = demo.duplicate_precision(
                demo.labelled_duplicates(people=duplicate_sample, seed=seed))
            self.stdout.write(
                "Duplicate sample: {leads} leads, {flags} flags, {same_person} of the same "
                "person: precision {precision:.1%}; {resubmissions} resubmissions, recall "
                "{recall:.1%}".format(**figures))
