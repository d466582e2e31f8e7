"""Writes to WizardSession. Keyword-only, one place for each change, so views stay thin."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from selector.core.attribution import UTM_FIELDS
from selector.core.models import column_max_length
from selector.wizard.models import WizardSession
from selector.wizard.steps import ANSWER_FIELDS, RESULT_INDEX

__all__ = ["UTM_FIELDS", "wizard_session_reach", "wizard_session_start",
           "wizard_session_store"]


def _fit(value: str, field: str) -> str:
    """Truncate to the model field's max_length, dropping NULs (PostgreSQL refuses them)."""
    limit = column_max_length(WizardSession, field)
    return str(value).replace("\x00", "")[:limit]


def wizard_session_start(*, landing_url: str, referrer: str, utm: dict[str, str],
                         language: str, answers: dict | None = None,
                         result_shown: bool = False) -> WizardSession:
    """A new session; ``answers`` (validated by the caller) and ``result_shown`` seed it
    from a shared result (the colleague's hand-off goes straight to the contact step)."""
    return WizardSession.objects.create(
        landing_url=_fit(landing_url, "landing_url"),
        referrer=_fit(referrer, "referrer"),
        language=_fit(language, "language"),
        answers={k: v for k, v in (answers or {}).items() if k in ANSWER_FIELDS},
        furthest_step=RESULT_INDEX if result_shown else 1,
        result_at=timezone.now() if result_shown else None,
        **{name: _fit(utm.get(name, ""), name) for name in UTM_FIELDS},
    )


@transaction.atomic
def wizard_session_store(*, ws: WizardSession, answers: dict, language: str) -> None:
    """Merge validated answers (only known fields) into the session."""
    ws.answers = {**ws.answer_dict,
                  **{k: v for k, v in answers.items() if k in ANSWER_FIELDS}}
    ws.language = _fit(language, "language")
    ws.save(update_fields=["answers", "language", "updated_at"])


def wizard_session_reach(*, ws: WizardSession, index: int) -> None:
    """Record that the visitor saw step ``index`` (the result is RESULT_INDEX)."""
    fields = []
    if index > ws.furthest_step:
        ws.furthest_step = index
        fields.append("furthest_step")
    if index == RESULT_INDEX and ws.result_at is None:
        ws.result_at = timezone.now()
        fields.append("result_at")
    if fields:
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
