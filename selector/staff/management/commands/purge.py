from django.conf import settings
from django.core.management.base import BaseCommand

from selector.core.retention import expired_sessions_purge, task_results_purge
from selector.leads.lifecycle import purge_leads
from selector.staff import lockout
from selector.wizard.services import wizard_sessions_purge


class Command(BaseCommand):
    help = (
        "Delete what the retention rules say must go: leads older than LEAD_RETENTION_DAYS "
        "(with their wizard sessions, task results and cached reports), wizard sessions "
        "without a lead inactive for WIZARD_SESSION_RETENTION_DAYS, expired sessions, task "
        "results finished more than TASK_RESULT_RETENTION_DAYS ago and log-in throttles past "
        "their window. Run daily from cron. Prints counts only, never personal data."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true",
                            help="count what would be deleted, delete nothing")

    def handle(self, *args, dry_run: bool = False, **options):
        lead_days = settings.LEAD_RETENTION_DAYS
        session_days = settings.WIZARD_SESSION_RETENTION_DAYS
        task_days = settings.TASK_RESULT_RETENTION_DAYS
        # Leads first: their wizard sessions and task results go with them.
        steps = [
            (f"leads older than {lead_days} days",
             lambda: purge_leads(dry_run=dry_run)),
            (f"wizard sessions without a lead, inactive for {session_days} days",
             lambda: wizard_sessions_purge(days=session_days, dry_run=dry_run)),
            ("expired sessions", lambda: expired_sessions_purge(dry_run=dry_run)),
            (f"task results finished more than {task_days} days ago",
             lambda: task_results_purge(days=task_days, dry_run=dry_run)),
            ("log-in throttles past their window", lambda: lockout.purge(dry_run=dry_run)),
        ]
        verb = "would be deleted" if dry_run else "deleted"
        for label, run in steps:
            self.stdout.write(f"{label}: {run()} {verb}")
