from django.core.management.base import BaseCommand

from selector.staff import tasks


class Command(BaseCommand):
    help = ("Escalate first-contact SLA breaches and send the daily digests that are due "
            "(one tick). With --schedule, start the task worker's tick chain instead.")

    def add_arguments(self, parser):
        parser.add_argument("--schedule", action="store_true",
                            help="enqueue the recurring tick for `manage.py db_worker`")

    def handle(self, *args, schedule: bool, **options):
        if schedule:
            if tasks.schedule_tick():
                self.stdout.write("staff tick scheduled")
            else:
                self.stdout.write("the task backend cannot defer: run `staff_tick` from cron")
            return
        result = tasks.run_tick()
        self.stdout.write(" ".join(f"{k}={v}" for k, v in result.items()))
