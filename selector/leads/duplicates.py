"""Possible duplicates, found when a lead is created (``lead_create`` calls ``flag``).

A duplicate is the same person again (issue 24: a flag only for that). Two leads are
possible duplicates when they share

- the normalised phone (stored E.164, whatever format it was typed in),
- the e-mail address (case-insensitive),
- the WeChat ID (case-insensitive), or
- the person's name (``name_key``: lower case, no spaces) at the same company: equal
  ``company_key`` (NFKC, lower case, legal-form words and bracketed city names removed, no
  punctuation or spaces) or, on PostgreSQL, a company key of trigram similarity (pg_trgm;
  GIN index ``lead_company_key_trgm``) of at least COMPANY_SIMILARITY.

Another person at the same company is a colleague, not a duplicate: no flag, no badge;
the lead page links them (``colleagues``, equal company keys, B-tree
``lead_company_key_idx``). Until issue 24 a similar company alone raised a flag: 57 % of
open leads carried the badge, 99 % of the flags for other people at one firm.

Merged leads (pointers) are never candidates. At most MAX_FLAGS leads are flagged, the
strongest first (the most matching contact fields, then company similarity, then the
newest).

``Lead.possible_duplicate`` says whether an open flag names a lead: ``flag`` sets it on both
leads, and whatever dismisses, moves or deletes flags calls ``refresh`` for the leads
concerned (selector.staff.services: dismiss, merge; selector.leads.services: delete).
"""

from __future__ import annotations

import logging
import re
import unicodedata

from django.db import DatabaseError, connection, transaction
from django.db.models import Case, Exists, F, OuterRef, Q, Value, When
from django.db.models.functions import Lower, Replace

from selector.leads.models import DuplicateFlag, Lead, LeadEvent

logger = logging.getLogger(__name__)

COMPANY_SIMILARITY = 0.6
MAX_FLAGS = 3
# Keys shorter than this are compared for equality only (trigrams of "ab" say nothing).
MIN_KEY_FOR_SIMILARITY = 4

_BRACKETED = re.compile(r"[(\[（【][^)\]）】]*[)\]）】]")
# Longest first: "股份有限公司" before "有限公司" before "公司".
_LEGAL_FORMS = re.compile(
    r"(股份有限公司|有限责任公司|集团有限公司|有限公司|集团|分公司|公司"
    r"|\bco\b\.?,?\s*\bltd\b\.?|\bcorporation\b|\bincorporated\b|\blimited\b|\bcompany\b"
    r"|\bcorp\b|\binc\b|\bltd\b|\bllc\b|\bgmbh\b|\bpte\b|\bplc\b|\bco\b)")
_NOT_WORD = re.compile(r"[\W_]+")


def company_key(name: str) -> str:
    """``"星云智算科技（深圳）有限公司"`` and ``"星云智算科技有限公司"`` -> ``"星云智算科技"``;
    ``"Nimbus Compute Co., Ltd."`` -> ``"nimbuscompute"``."""
    text = unicodedata.normalize("NFKC", name or "").casefold()
    text = _BRACKETED.sub(" ", text)
    text = _LEGAL_FORMS.sub(" ", text)
    return _NOT_WORD.sub("", text)[:200]


def name_key(name: str) -> str:
    """A person's name as matching compares it: lower case, without spaces (half- or
    full-width), so "Li Na", "li na" and "LiNa" agree. The same as ``name_key_sql``."""
    return (name or "").replace(" ", "").replace("\u3000", "").lower()


def name_key_sql() -> Lower:
    return Lower(Replace(Replace(F("name"), Value(" "), Value("")), Value("\u3000"),
                         Value("")))


def candidates(lead: Lead) -> list[tuple[Lead, list[str], float | None]]:
    """The leads ``lead`` may duplicate: (other, reasons, company similarity). Reasons:
    "phone", "email", "wechat", "name" (the name at the same or a similar company)."""
    base = Lead.objects.filter(merged_into__isnull=True).exclude(pk=lead.pk)
    found: dict[int, tuple[list[str], float | None]] = {}
    email, wechat = lead.email.strip().lower(), lead.wechat.strip().lower()
    contact = Q(phone=lead.phone) if lead.phone else Q(pk__in=[])
    if email:
        contact |= Q(email_lower=email)
    if wechat:
        contact |= Q(wechat_lower=wechat)
    for pk, phone, other_email, other_wechat in (
            base.alias(email_lower=Lower("email"), wechat_lower=Lower("wechat"))
            .filter(contact).order_by("-created_at")
            .values_list("pk", "phone", "email", "wechat")[:MAX_FLAGS * 4]):
        reasons = [reason for reason, same in (
            ("phone", bool(lead.phone) and phone == lead.phone),
            ("email", bool(email) and other_email.strip().lower() == email),
            ("wechat", bool(wechat) and other_wechat.strip().lower() == wechat)) if same]
        found[pk] = (reasons, None)
    for pk, similarity in _same_name_at_company(base, lead.company_key, name_key(lead.name),
                                                lead.pk):
        reasons, _none = found.get(pk, ([], None))
        found[pk] = ([*reasons, "name"], similarity)
    ranked = sorted(found.items(), key=lambda kv: (
        -len(kv[1][0]), -(kv[1][1] or 0), -kv[0]))[:MAX_FLAGS]
    # What flag() and its timeline events need (not the 12 KB sizing snapshot).
    others = Lead.objects.only("public_id", "report_number", "name", "company").in_bulk(
        [pk for pk, _v in ranked])
    return [(others[pk], reasons, similarity) for pk, (reasons, similarity) in ranked]


def _same_name_at_company(base, key: str, name: str, lead_pk: int
                          ) -> list[tuple[int, float]]:
    """Leads of the same person's name at the same company (equal keys: similarity 1.0)
    or, on PostgreSQL, at a company of similar key."""
    if not key or not name:
        return []
    same = [(pk, 1.0) for pk in base.filter(company_key=key).alias(person=name_key_sql())
            .filter(person=name).order_by("-pk").values_list("pk", flat=True)[:MAX_FLAGS]]
    if (len(same) == MAX_FLAGS or connection.vendor != "postgresql"
            or len(key) < MIN_KEY_FOR_SIMILARITY):
        return same
    with connection.cursor() as cursor:
        # SET LOCAL: this transaction only (lead_create's), so the % operator, which the
        # GIN index serves, already applies our threshold.
        cursor.execute("SET LOCAL pg_trgm.similarity_threshold = %s", [COMPANY_SIMILARITY])
        cursor.execute(
            "SELECT id, similarity(company_key, %s) AS s FROM leads_lead "
            "WHERE company_key %% %s AND merged_into_id IS NULL AND id <> %s "
            "AND lower(replace(replace(name, ' ', ''), %s, '')) = %s "
            "ORDER BY s DESC, id DESC LIMIT %s",
            [key, key, lead_pk, "\u3000", name, MAX_FLAGS])
        return [(pk, round(s, 3)) for pk, s in cursor.fetchall()]


COLLEAGUES_SHOWN = 5


def colleagues(lead: Lead, exclude=()) -> tuple[list[Lead], int]:
    """Other people at the lead's company (equal company key, another name): the first
    COLLEAGUES_SHOWN, newest first, and how many there are. ``exclude``: ids not to list
    (the lead's possible duplicates, shown apart)."""
    if not lead.company_key:
        return [], 0
    qs = (Lead.objects.filter(merged_into__isnull=True, company_key=lead.company_key)
          .exclude(pk__in=[lead.pk, *exclude]).alias(person=name_key_sql())
          .exclude(person=name_key(lead.name)))
    shown: list[Lead] = list(qs.select_related("owner").only(
        "public_id", "report_number", "name", "company", "status", "owner__username",
        "owner__first_name", "owner__last_name").order_by("-pk")[:COLLEAGUES_SHOWN])
    count = len(shown) if len(shown) < COLLEAGUES_SHOWN else qs.count()
    return shown, count


def flag(lead: Lead) -> list[DuplicateFlag]:
    """Record the possible duplicates of a new lead (inside lead_create's transaction):
    one DuplicateFlag per pair and a timeline event on both leads. A failure here is
    logged and leaves the lead as it is (a savepoint), so a customer never loses a lead
    because of duplicate matching."""
    try:
        with transaction.atomic():
            flags = []
            for other, reasons, similarity in candidates(lead):
                flags.append(DuplicateFlag.objects.create(
                    lead=lead, other=other, reasons=reasons, similarity=similarity))
                LeadEvent.objects.bulk_create([
                    LeadEvent(lead=lead, kind=LeadEvent.Kind.DUPLICATE_FLAGGED,
                              data={"other": other.report_number, "reasons": reasons}),
                    LeadEvent(lead=other, kind=LeadEvent.Kind.DUPLICATE_FLAGGED,
                              data={"other": lead.report_number, "reasons": reasons}),
                ])
            if flags:
                Lead.objects.filter(pk__in=[lead.pk, *(f.other_id for f in flags)]).update(
                    possible_duplicate=True)
                lead.possible_duplicate = True
            return flags
    except DatabaseError:
        logger.exception("duplicate matching failed for lead %s", lead.report_number)
        return []


def counterparts(*leads) -> set[int]:
    """The ids of the leads that share a flag (open or not) with any of ``leads``."""
    ids = [lead.pk for lead in leads]
    flags = DuplicateFlag.objects.filter(Q(lead__in=ids) | Q(other__in=ids))
    return {pk for pair in flags.values_list("lead_id", "other_id") for pk in pair} - set(ids)


def refresh(lead_ids) -> None:
    """Set Lead.possible_duplicate of these leads from the open flags that name them now
    (after flags were dismissed, moved by a merge or deleted with a lead)."""
    ids = {pk for pk in lead_ids if pk is not None}
    if not ids:
        return
    open_flags = DuplicateFlag.objects.filter(dismissed_at__isnull=True)
    Lead.objects.filter(pk__in=ids).update(possible_duplicate=Case(
        When(Exists(open_flags.filter(lead=OuterRef("pk")))
             | Exists(open_flags.filter(other=OuterRef("pk"))), then=Value(True)),
        default=Value(False)))
