"""What a new lead stores, decided in one place. ``lead_create`` builds every lead from a
visitor's submission with it, and the demo data (``devtools.demo``, ``manage.py
seed_demo``) builds its rows with it too, so the two cannot drift apart: the frozen
recommendation (``frozen_recommendation``), the report number, score, first-contact
deadline, company key, consent record, contact and source columns."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from datetime import datetime

from django.utils import timezone

from selector.core.models import column_max_length
from selector.domain import Answers, Recommendation
from selector.leads import duplicates, worktime
from selector.leads.models import Lead
from selector.leads.privacy import PRIVACY_NOTICE_VERSION
from selector.leads.scoring import score_lead
from selector.planner.services import freeze, fresh

# Crockford-style alphabet without 0/O, 1/I/L: safe to read out on the phone.
REPORT_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CONTACT_FIELDS = ("name", "company", "phone", "email", "role", "timeline", "wechat",
                  "message")
SOURCE_FIELDS = ("landing_url", "referrer", "utm_source", "utm_medium", "utm_campaign",
                 "utm_term", "utm_content")
_SYSTEM_RANDOM = secrets.SystemRandom()


def new_report_number(now: datetime | None = None, rng: random.Random | None = None) -> str:
    """"NS-20261130-7KQ2XW": the date plus 6 random characters (31**6 ≈ 8.9e8 per day).
    ``rng``: a seeded generator for reproducible demo data (default: the system's)."""
    day = timezone.localdate(now or timezone.now()).strftime("%Y%m%d")
    suffix = "".join((rng or _SYSTEM_RANDOM).choice(REPORT_ALPHABET) for _ in range(6))
    return f"NS-{day}-{suffix}"


def recommendation_snapshot(answers: Answers) -> tuple[Recommendation, dict]:
    """The recommendation a new lead is made with (today's engine, catalogue and prices)
    and the snapshot it keeps in ``frozen_recommendation``."""
    rec = fresh(answers)
    return rec, freeze(rec)


def lead_values(*, answers: Answers, contact: Mapping[str, str], language: str,
                now: datetime, source: Mapping[str, str | None], user_agent: str = "",
                snapshot: tuple[Recommendation, dict] | None = None,
                calendar: worktime.Calendar | None = None) -> dict:
    """The columns of a new lead, all but its wizard session, report number, public id and
    the sales work on it. ``contact``: the cleaned contact form fields; ``source``: where
    the visit came from (the wizard session's landing URL, referrer and UTM tags).
    ``snapshot`` (from recommendation_snapshot) and ``calendar`` (worktime.calendar())
    let a bulk caller compute them once for many leads."""
    rec, frozen = snapshot or recommendation_snapshot(answers)
    decision = rec.decision
    score = score_lead(answers, contact["timeline"])
    return {
        "language": language,
        "answers": answers.to_dict(),
        "recommendation": decision.recommendation.value,
        "rule": decision.rule,
        "engine_version": decision.engine_version,
        "frozen_recommendation": frozen,
        "score": score.value,
        "sla_due": worktime.sla_due(score, now, calendar),
        "company_key": duplicates.company_key(contact.get("company", "")),
        "consent_given_at": now,
        "consent_notice_version": PRIVACY_NOTICE_VERSION,
        "consent_user_agent": (user_agent or "")[:500],
        **{name: contact.get(name, "") for name in CONTACT_FIELDS},
        **{name: (source.get(name) or "")[:_MAX_LENGTH[name]] for name in SOURCE_FIELDS},
    }


_MAX_LENGTH = {name: column_max_length(Lead, name) for name in SOURCE_FIELDS}
