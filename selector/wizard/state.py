"""What the other apps may read about a visitor's wizard (the leads app uses this to
attach the answers to a request for the PDF report)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest

from selector.domain import Answers
from selector.wizard.models import WizardSession
from selector.wizard.steps import build_answers

SESSION_KEY = "wizard_session_id"


def get_wizard_session(request: HttpRequest) -> WizardSession | None:
    """The visitor's current wizard session, or None. Never creates one."""
    session = getattr(request, "session", None)
    ws_id = session.get(SESSION_KEY) if session is not None else None
    if not ws_id:
        return None
    try:
        return WizardSession.objects.filter(pk=ws_id).first()
    except (ValidationError, ValueError):
        return None


def completed_answers(ws: WizardSession) -> Answers | None:
    """The session's answers, validated and complete, or None."""
    return build_answers(ws.answer_dict)
