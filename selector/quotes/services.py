"""Writes of the quotes. Keyword-only functions, each in one transaction, each checking the
role rules (selector.staff.permissions) and leaving an audit row (QuoteEvent); the lead's
timeline gets the milestones (sent, accepted) as LeadEvents of the kind the workspace
already shows for quotes (an activity "Quote · sent"), and sending moves the lead to
"proposal" with the quote's total as the deal value.

Life of a version: draft -> (submit) pending approval | approved -> (send) sent ->
accepted | changes requested | expired. Sent versions are frozen: ``quote_edit`` on one
makes (or reuses) the lead's next version. Prices are never invented: a line the price
list does not know starts without a price, and a quote is sent only when every line has
one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, Max
from django.db.models.functions import Coalesce
from django.utils import timezone

from selector.content.models import PriceList
from selector.domain.bom import BomLine
from selector.leads import worktime
from selector.leads.models import OPEN_STATUSES, Lead, LeadEvent, NextActionKind, Status
from selector.leads.snapshots import lead_recommendation
from selector.quotes import tasks
from selector.quotes.models import (
    FROZEN,
    OPEN,
    LineKind,
    Quote,
    QuoteEvent,
    QuoteLine,
    QuoteSettings,
)
from selector.quotes.models import Status as QuoteStatus
from selector.quotes.money import exceeds
from selector.staff import permissions

MAX_LINES = 200
MAX_QUANTITY = 10_000_000
MAX_UNIT_PRICE = Decimal("999999999.99")
DESCRIPTION_MAX = 300
TERMS_MAX = 5000
MESSAGE_MAX = 2000
CURRENCY = "CNY"


class QuoteError(Exception):
    """A quote cannot do what was asked in its state (the message says why, in English;
    views show their own words for ``code``)."""

    def __init__(self, code: str, message: str = ""):
        super().__init__(message or code)
        self.code = code


@dataclass(frozen=True)
class LineData:
    kind: str
    description: str
    quantity: int
    unit_price: Decimal | None
    discount_percent: Decimal = Decimal("0.00")
    part_key: str = ""


# -- reading the plan -----------------------------------------------------------------------

def _line_kind(bom_kind: str) -> str:
    return bom_kind if bom_kind in LineKind.values else LineKind.OTHER


def plan_lines(lead: Lead) -> list[LineData]:
    """The lead's frozen plan as quote lines, one per part (tiers added up, in the plan's
    order), priced from the company's current price list (CNY only; a part the list does
    not have, a list in another currency or of example prices, gives no price)."""
    option = lead_recommendation(lead).recommended
    bom: Sequence[BomLine] = option.plan.bom if option.plan is not None else ()
    prices = PriceList.current()
    # Example prices (demo data) are not offered to a customer.
    usable = prices is not None and prices.currency == CURRENCY and not prices.is_example
    unit = prices.unit if prices is not None and usable else {}
    chinese = not lead.language.startswith("en")
    counted: dict[str, tuple[BomLine, int]] = {}
    for line in bom:
        seen = counted.get(line.key)
        counted[line.key] = (seen[0] if seen else line, line.count + (seen[1] if seen else 0))
    out = []
    for key, (line, count) in counted.items():
        text = (line.description_zh if chinese else line.description) or line.description
        description = " ".join(p for p in (line.vendor, line.model) if p)
        if text:
            description = f"{description} · {text}"
        out.append(LineData(kind=_line_kind(line.kind), description=description[:DESCRIPTION_MAX],
                            quantity=count, unit_price=unit.get(key), part_key=key))
    return out


# -- helpers --------------------------------------------------------------------------------

def _locked_quote(quote: Quote) -> Quote:
    return Quote.objects.select_for_update(of=("self",)).select_related("lead").get(pk=quote.pk)


def _event(quote: Quote, kind: str, actor=None, ip: str | None = None, **data) -> QuoteEvent:
    return QuoteEvent.objects.create(quote=quote, kind=kind, actor=actor, ip=ip or None,
                                     data=data)


def _lead_activity(lead: Lead, outcome: str, actor, note: str) -> None:
    """The lead timeline's entry for a quote milestone (the workspace's "Quote" activity)."""
    LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.ACTIVITY, actor=actor,
                             data={"type": NextActionKind.QUOTE, "outcome": outcome,
                                   "note": note})


def _notify(quote: Quote, event: str) -> None:
    """Tell who needs to know (selector.quotes.tasks), once the change is committed."""
    key = str(quote.public_id)
    transaction.on_commit(lambda: tasks.quote_notify.enqueue(key, event))


def _money_note(quote: Quote) -> str:
    return f"V{quote.version} · ¥{quote.total_amount}"


def _refresh_totals(quote: Quote) -> None:
    totals = quote.totals()
    quote.list_total, quote.subtotal = totals.list_total, totals.subtotal
    quote.net_amount, quote.vat_amount = totals.net, totals.vat
    quote.total_amount, quote.discount_percent = totals.total, totals.discount_percent
    quote.complete = totals.complete and bool(totals.lines)
    quote.needs_approval = exceeds(totals, QuoteSettings.current().approval_threshold)
    quote.save()


def _decimal(value, field: str, low: Decimal, high: Decimal) -> Decimal:
    try:
        number = Decimal(str(value)).quantize(Decimal("0.01"))
    except (InvalidOperation, ValueError, TypeError):
        raise ValidationError({field: "Not a number."}) from None
    if number != Decimal(str(value)) or not (low <= number <= high):
        raise ValidationError({field: "Out of range (at most two decimals)."})
    return number


def _clean_line(line: LineData) -> LineData:
    if line.kind not in LineKind.values:
        raise ValidationError({"kind": "Unknown line kind."})
    description = (line.description or "").strip()
    if not description or len(description) > DESCRIPTION_MAX:
        raise ValidationError({"description": "A line needs a description (300 characters "
                                              "at most)."})
    if not isinstance(line.quantity, int) or not 1 <= line.quantity <= MAX_QUANTITY:
        raise ValidationError({"quantity": "The quantity is a whole number from 1."})
    price = (None if line.unit_price is None else
             _decimal(line.unit_price, "unit_price", Decimal(0), MAX_UNIT_PRICE))
    discount = _decimal(line.discount_percent, "discount_percent", Decimal(0), Decimal(100))
    return LineData(kind=line.kind, description=description, quantity=line.quantity,
                    unit_price=price, discount_percent=discount, part_key=line.part_key[:60])


def _write_lines(quote: Quote, lines: Sequence[LineData]) -> None:
    if len(lines) > MAX_LINES:
        raise ValidationError({"lines": f"At most {MAX_LINES} lines."})
    clean = [_clean_line(line) for line in lines]
    quote.lines.all().delete()
    QuoteLine.objects.bulk_create(
        QuoteLine(quote=quote, position=n, kind=ln.kind, part_key=ln.part_key,
                  description=ln.description, quantity=ln.quantity, unit_price=ln.unit_price,
                  discount_percent=ln.discount_percent)
        for n, ln in enumerate(clean, start=1))


def _line_data(line: QuoteLine) -> LineData:
    return LineData(kind=line.kind, description=line.description, quantity=line.quantity,
                    unit_price=line.unit_price, discount_percent=line.discount_percent,
                    part_key=line.part_key)


def _may_edit(actor, lead: Lead) -> None:
    if not permissions.can_edit_quotes(actor, lead):
        raise PermissionDenied


def _next_version(lead: Lead) -> int:
    return (Quote.objects.filter(lead=lead).aggregate(n=Max("version"))["n"] or 0) + 1


def _open_quote(lead: Lead) -> Quote | None:
    return Quote.objects.filter(lead=lead, status__in=OPEN).first()


def _locked_lead(lead: Lead) -> Lead:
    return Lead.objects.select_for_update(of=("self",)).get(pk=lead.pk)


# -- staff side -----------------------------------------------------------------------------

def quote_from_lead(*, lead: Lead, actor) -> Quote:
    """The lead's open quote, made now from its frozen plan if it has none (a second click
    returns the same draft)."""
    with transaction.atomic():
        lead = _locked_lead(lead)
        _may_edit(actor, lead)
        if lead.merged_into_id is not None:
            raise QuoteError("merged", "This lead was merged into another one.")
        existing = _open_quote(lead)
        if existing is not None:
            return existing
        rules = QuoteSettings.current()
        chinese = not lead.language.startswith("en")
        quote = Quote.objects.create(
            lead=lead, version=_next_version(lead), vat_rate=rules.vat_rate,
            valid_until=timezone.localdate() + timedelta(days=rules.validity_days),
            terms=(rules.terms_zh if chinese else rules.terms_en) or rules.terms_zh,
            language=lead.language, created_by=actor)
        lines = plan_lines(lead)
        _write_lines(quote, lines)
        _refresh_totals(quote)
        _event(quote, QuoteEvent.Kind.CREATED, actor, source="plan", lines=len(lines),
               unpriced=sum(1 for ln in lines if ln.unit_price is None))
        return quote


def quote_edit(*, quote: Quote, actor, lines: Sequence[LineData] | None = None,
               total_discount_percent: Decimal | None = None, valid_until: date | None = None,
               terms: str | None = None) -> Quote:
    """Change a quote; returns the version that holds the change. A draft changes in place;
    one waiting for approval or approved goes back to draft (its approval no longer
    applies); a sent version is frozen, so the change goes to the lead's open version,
    made now as v+1 (a copy of this one) when there is none."""
    with transaction.atomic():
        lead = _locked_lead(quote.lead)
        _may_edit(actor, lead)
        quote = _locked_quote(quote)
        if quote.status in FROZEN:
            draft = _open_quote(lead)
            if draft is None:
                draft = Quote.objects.create(
                    lead=lead, version=_next_version(lead), based_on=quote,
                    vat_rate=quote.vat_rate, total_discount_percent=quote.total_discount_percent,
                    valid_until=max(quote.valid_until, timezone.localdate()
                                    + timedelta(days=QuoteSettings.current().validity_days)),
                    terms=quote.terms, language=quote.language, created_by=actor)
                _write_lines(draft, [_line_data(ln) for ln in quote.lines.all()])
                _event(draft, QuoteEvent.Kind.CREATED, actor, source="version",
                       based_on=quote.version)
            quote = _locked_quote(draft)
        elif quote.status != QuoteStatus.DRAFT:
            _event(quote, QuoteEvent.Kind.REOPENED, actor, was=quote.status)
            quote.status = QuoteStatus.DRAFT
            quote.approved_by, quote.approved_at = None, None
        changed = []
        if lines is not None:
            _write_lines(quote, lines)
            changed.append("lines")
        if total_discount_percent is not None:
            quote.total_discount_percent = _decimal(total_discount_percent,
                                                    "total_discount_percent", Decimal(0),
                                                    Decimal(100))
            changed.append("total_discount_percent")
        if valid_until is not None:
            if valid_until < timezone.localdate():
                raise ValidationError({"valid_until": "The validity date is in the past."})
            quote.valid_until = valid_until
            changed.append("valid_until")
        if terms is not None:
            if len(terms) > TERMS_MAX:
                raise ValidationError({"terms": "The terms are too long."})
            quote.terms = terms.strip()
            changed.append("terms")
        _refresh_totals(quote)
        if changed:
            _event(quote, QuoteEvent.Kind.EDITED, actor, fields=changed,
                   total=str(quote.total_amount))
        return quote


def quote_submit(*, quote: Quote, actor) -> Quote:
    """Ask to send a draft. Every line needs a price. A discount above the company's
    threshold waits for an approver (unless the one asking is one); otherwise the quote is
    approved at once and may be sent."""
    with transaction.atomic():
        quote = _locked_quote(quote)
        _may_edit(actor, quote.lead)
        if quote.status != QuoteStatus.DRAFT:
            raise QuoteError("not_draft", "Only a draft can be submitted.")
        _refresh_totals(quote)
        if not quote.complete:
            raise QuoteError("unpriced", "Every line needs a unit price before sending.")
        now = timezone.now()
        quote.submitted_by, quote.submitted_at = actor, now
        if quote.needs_approval and not permissions.can_approve_quotes(actor):
            quote.status = QuoteStatus.PENDING_APPROVAL
            quote.save()
            _event(quote, QuoteEvent.Kind.SUBMITTED, actor,
                   discount_percent=str(quote.discount_percent),
                   threshold=str(QuoteSettings.current().approval_threshold))
            _notify(quote, "approval_requested")
            return quote
        quote.status = QuoteStatus.APPROVED
        if quote.needs_approval:  # an approver's own discount: approved by them
            quote.approved_by, quote.approved_at = actor, now
        quote.save()
        _event(quote, QuoteEvent.Kind.APPROVED, actor, automatic=not quote.needs_approval,
               discount_percent=str(quote.discount_percent))
        return quote


def quote_approve(*, quote: Quote, actor, approve: bool = True, note: str = "") -> Quote:
    """An approver decides on a quote waiting for approval: approved (it may be sent) or
    refused (back to draft, with the note for the rep). No one approves their own."""
    note = (note or "").strip()[:MESSAGE_MAX]
    with transaction.atomic():
        quote = _locked_quote(quote)
        if not (permissions.can_approve_quotes(actor)
                and permissions.can_see_quotes(actor, quote.lead)):
            raise PermissionDenied
        if quote.status != QuoteStatus.PENDING_APPROVAL:
            raise QuoteError("not_pending", "This quote is not waiting for approval.")
        if quote.submitted_by_id == actor.pk:
            raise PermissionDenied
        if approve:
            quote.status = QuoteStatus.APPROVED
            quote.approved_by, quote.approved_at = actor, timezone.now()
        else:
            quote.status = QuoteStatus.DRAFT
        quote.save()
        _event(quote, QuoteEvent.Kind.APPROVED if approve else QuoteEvent.Kind.REJECTED,
               actor, discount_percent=str(quote.discount_percent),
               **({"note": note} if note else {}))
        return quote


def quote_send(*, quote: Quote, actor) -> Quote:
    """Send an approved quote: it is frozen as sent, and the lead moves to "proposal" with
    the quote's total (with VAT) as its deal value. A won, lost or merged lead is not
    quoted (reopen it first)."""
    with transaction.atomic():
        lead = _locked_lead(quote.lead)
        _may_edit(actor, lead)
        quote = _locked_quote(quote)
        if quote.status != QuoteStatus.APPROVED:
            raise QuoteError("not_approved", "Only an approved quote can be sent.")
        if lead.status not in OPEN_STATUSES or lead.merged_into_id is not None:
            raise QuoteError("lead_closed", "The lead is closed; reopen it to send a quote.")
        if quote.valid_until < timezone.localdate():
            raise QuoteError("expired", "The validity date has passed.")
        _refresh_totals(quote)
        if not quote.complete:
            raise QuoteError("unpriced", "Every line needs a unit price before sending.")
        if quote.needs_approval and quote.approved_by_id is None:
            raise QuoteError("needs_approval", "The discount needs an approver's approval.")
        now = timezone.now()
        quote.status, quote.sent_by, quote.sent_at = QuoteStatus.SENT, actor, now
        quote.save()
        _event(quote, QuoteEvent.Kind.SENT, actor, total=str(quote.total_amount))
        old = lead.status
        fields = ["status", "deal_value", "last_activity_at", "updated_at"]
        lead.status, lead.deal_value = Status.PROPOSAL, quote.total_amount
        lead.last_activity_at = now
        # A quote sent is a contact (the SLA clock).
        fields += worktime.record_first_contact(lead, actor, now)
        lead.save(update_fields=fields)
        if old != Status.PROPOSAL:
            LeadEvent.objects.create(lead=lead, kind=LeadEvent.Kind.STATUS_CHANGED, actor=actor,
                                     data={"from": old, "to": Status.PROPOSAL,
                                           "deal_value": str(quote.total_amount),
                                           "note": f"V{quote.version}"})
        _lead_activity(lead, "sent", actor, _money_note(quote))
        return quote


# -- customer side --------------------------------------------------------------------------

def latest_sent(lead: Lead) -> Quote | None:
    return (Quote.objects.filter(lead=lead, status__in=FROZEN).order_by("-version").first())


def quote_viewed(*, quote: Quote, ip: str = "") -> None:
    """The customer opened the link: counted in one UPDATE (no lost count between two
    tabs), with an audit row; the owner hears of the first opening (two first openings
    in the same instant may both tell them: a notice, not a record)."""
    now = timezone.now()
    first = quote.first_viewed_at is None
    with transaction.atomic():
        Quote.objects.filter(pk=quote.pk).update(
            view_count=F("view_count") + 1, last_viewed_at=now,
            first_viewed_at=Coalesce(F("first_viewed_at"), now))
        _event(quote, QuoteEvent.Kind.VIEWED, None, ip)
        if first:
            _notify(quote, "first_viewed")
    quote.view_count += 1
    quote.last_viewed_at, quote.first_viewed_at = now, quote.first_viewed_at or now


def _customer_may_answer(quote: Quote) -> None:
    if quote.status != QuoteStatus.SENT:
        raise QuoteError(quote.status, "This quote is no longer open for an answer.")
    if quote.valid_until < timezone.localdate():
        raise QuoteError("expired", "This quote has expired.")
    newest = latest_sent(quote.lead)
    if newest is not None and newest.pk != quote.pk:
        raise QuoteError("superseded", "A newer version of this quote was sent.")


def quote_accept(*, quote: Quote, name: str, title: str, consent: str, ip: str = "") -> Quote:
    """The customer accepts the quote (their name, job title, the statement they agreed to,
    when and from where). Recorded once: the quote row is locked first, so a second submit
    (a double click, two tabs) finds it accepted and changes nothing."""
    name, title, consent = (name or "").strip(), (title or "").strip(), (consent or "").strip()
    if not name or len(name) > 100 or len(title) > 100:
        raise ValidationError({"name": "Your name (100 characters at most)."})
    if not consent:
        raise ValidationError({"consent": "Please confirm."})
    with transaction.atomic():
        quote = _locked_quote(quote)
        if quote.status == QuoteStatus.ACCEPTED:
            return quote
        _customer_may_answer(quote)
        quote.status, quote.accepted_at = QuoteStatus.ACCEPTED, timezone.now()
        quote.accepted_name, quote.accepted_title = name, title
        quote.accepted_ip, quote.accepted_consent = ip or None, consent
        quote.save()
        _event(quote, QuoteEvent.Kind.ACCEPTED, None, ip, name=name, title=title)
        _lead_activity(quote.lead, "accepted", None,
                       f"{_money_note(quote)} · {name}" + (f" ({title})" if title else ""))
        _notify(quote, "accepted")
        return quote


def quote_request_changes(*, quote: Quote, message: str, name: str = "",
                          ip: str = "") -> Quote:
    """The customer asks for changes: the message is kept for the owner (the quote's audit
    and the lead's timeline); the rep answers with a new version."""
    message, name = (message or "").strip(), (name or "").strip()[:100]
    if not message or len(message) > MESSAGE_MAX:
        raise ValidationError({"message": "Say what should change (2000 characters at most)."})
    with transaction.atomic():
        quote = _locked_quote(quote)
        _customer_may_answer(quote)
        quote.status = QuoteStatus.CHANGES_REQUESTED
        quote.save()
        _event(quote, QuoteEvent.Kind.CHANGES_REQUESTED, None, ip, message=message, name=name)
        LeadEvent.objects.create(
            lead=quote.lead, kind=LeadEvent.Kind.NOTE, actor=None,
            data={"text": f"V{quote.version} · {name or '—'}: {message}"})
        _notify(quote, "changes_requested")
        return quote


def quotes_expire(*, today: date | None = None) -> int:
    """Sent quotes past their validity date become expired (for a periodic task)."""
    today = today or timezone.localdate()
    with transaction.atomic():
        due = list(Quote.objects.select_for_update().filter(status=QuoteStatus.SENT,
                                                            valid_until__lt=today))
        for quote in due:
            quote.status = QuoteStatus.EXPIRED
            quote.save(update_fields=["status", "updated_at"])
            _event(quote, QuoteEvent.Kind.EXPIRED, None, valid_until=str(quote.valid_until))
    return len(due)
