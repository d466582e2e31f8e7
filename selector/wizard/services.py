"""Writes to WizardSession. Keyword-only, one place for each change, so views stay thin.

Nearly every wizard request writes its session (a step reached, an answer stored), and a
commit that waits for the WAL to reach the disk was most of a wizard request's time on a
busy machine (~4 ms median, ~12 ms at p95 while other jobs wrote, against 0.04 ms
without the wait; measured 2026-12-01, README "Speed (issue 12)"). These writes are
therefore committed asynchronously (``_visit_write``): PostgreSQL's asynchronous commit
can lose the last fraction of a second of them if the database server crashes, never
corrupt anything, and any later synchronous commit (a lead, for one) flushes them first
(https://www.postgresql.org/docs/15/wal-async-commit.html). Losing a step reached or an
answer just given costs the visitor one click; a lead is written synchronously.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from selector.core.answers import NAMES
from selector.core.attribution import UTM_FIELDS
from selector.core.models import column_max_length
from selector.wizard.models import WizardSession
from selector.wizard.steps import RESULT, STAGES, stage_rank

__all__ = ["UTM_FIELDS", "wizard_session_reach", "wizard_session_start",
           "wizard_session_store"]


@contextmanager
def _visit_write() -> Iterator[None]:
    """A transaction whose commit does not wait for the disk (see the module docstring).
    Only as the outermost transaction: inside a caller's transaction the caller's writes
    decide, so SET LOCAL would weaken them too."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield


def _fit(value: str, field: str) -> str:
    """Truncate to the model field's max_length, dropping NULs (PostgreSQL refuses them)."""
    limit = column_max_length(WizardSession, field)
    return str(value).replace("\x00", "")[:limit]


def wizard_session_start(*, landing_url: str, referrer: str, utm: dict[str, str],
                         language: str, answers: dict | None = None,
                         result_shown: bool = False) -> WizardSession:
    """A new session; ``answers`` (validated by the caller) and ``result_shown`` seed it
    from a shared result (the colleague's hand-off goes straight to the contact step)."""
    with _visit_write():
        return WizardSession.objects.create(
            landing_url=_fit(landing_url, "landing_url"),
            referrer=_fit(referrer, "referrer"),
            language=_fit(language, "language"),
            answers={k: v for k, v in (answers or {}).items() if k in NAMES},
            furthest_step=RESULT if result_shown else STAGES[0],
            result_at=timezone.now() if result_shown else None,
            **{name: _fit(utm.get(name, ""), name) for name in UTM_FIELDS},
        )


def wizard_session_store(*, ws: WizardSession, answers: dict, language: str) -> None:
    """Merge validated answers (only known fields) into the session."""
    ws.answers = {**ws.answer_dict,
                  **{k: v for k, v in answers.items() if k in NAMES}}
    ws.language = _fit(language, "language")
    with _visit_write():
        ws.save(update_fields=["answers", "language", "updated_at"])


def wizard_session_reach(*, ws: WizardSession, stage: str) -> None:
    """Record that the visitor saw ``stage`` (a step's identifier, or steps.RESULT)."""
    fields = []
    if stage_rank(stage) > stage_rank(ws.furthest_step):
        ws.furthest_step = stage
        fields.append("furthest_step")
    if stage == RESULT and ws.result_at is None:
        ws.result_at = timezone.now()
        fields.append("result_at")
    if fields:
        with _visit_write():
            ws.save(update_fields=[*fields, "updated_at"])


def wizard_sessions_purge(*, days: int, dry_run: bool = False, now=None) -> int:
    """Delete wizard sessions that never became a lead and saw no activity for ``days``
    (a session with a lead goes when its lead does). Returns how many (would) go. In
    batches, so a backlog of bot visits does not hold one long transaction."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    stale = WizardSession.objects.filter(lead__isnull=True, updated_at__lt=cutoff)
    if dry_run:
        return stale.count()
    deleted = 0
    while batch := list(stale.values_list("pk", flat=True)[:1000]):
        with transaction.atomic():
            deleted += WizardSession.objects.filter(pk__in=batch, lead__isnull=True).delete()[0]
    return deleted
