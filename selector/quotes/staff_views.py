"""The workspace's quote pages: make a quote from the lead, edit it (every form works
without JavaScript), submit, approve, send. Access through the workspace's one helper
(selector.staff.access): a lead the user may not see is a 404, its quotes when the user is
not the owner, a manager or an approver a 403."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from selector.leads.models import Lead
from selector.quotes import listexport, pdf, services, xlsx
from selector.quotes.forms import ApprovalForm, LineFormSet, QuoteForm
from selector.quotes.links import quote_url
from selector.quotes.models import FROZEN, OPEN, Quote, QuoteEvent
from selector.quotes.models import Status as QuoteStatus
from selector.quotes.services import QuoteError
from selector.quotes.versions import version_rows
from selector.staff import permissions
from selector.staff.access import get_lead_for_user, staff_required

ERRORS = {
    "unpriced": lambda: _("Every line needs a unit price before the quote can be sent."),
    "not_draft": lambda: _("Only a draft can be submitted."),
    "not_pending": lambda: _("This quote is not waiting for approval."),
    "not_approved": lambda: _("The quote must be approved before it is sent."),
    "needs_approval": lambda: _("The discount needs an approver's approval."),
    "lead_closed": lambda: _("The lead is won, lost or merged: reopen it to send a quote."),
    "expired": lambda: _("The validity date has passed: set a new one."),
    "merged": lambda: _("This lead was merged into another one."),
}


def error_text(error: QuoteError) -> str:
    text = ERRORS.get(error.code)
    return text() if text else str(error)


def quote_for_user(request: HttpRequest, quote_id) -> tuple[Quote, Lead]:
    """The quote and its lead, if the user may see the lead's quotes (else 404/403)."""
    try:
        key = uuid.UUID(str(quote_id))
    except ValueError:
        raise Http404 from None
    quote = Quote.objects.filter(public_id=key).select_related("lead").first()
    if quote is None:
        raise Http404
    lead = get_lead_for_user(request, quote.lead.public_id, action="quotes")
    quote.lead = lead
    return quote, lead


def _initial_lines(quote: Quote) -> list[dict]:
    return [{"kind": ln.kind, "description": ln.description, "quantity": ln.quantity,
             "unit_price": ln.unit_price, "discount_percent": ln.discount_percent,
             "part_key": ln.part_key} for ln in quote.lines.all()]


def _editor(request, quote: Quote, lead: Lead, *, form=None, lines=None, approval=None,
            error: str = "", status: int = 200) -> HttpResponse:
    user = request.user
    form = form or QuoteForm(initial={"total_discount_percent": quote.total_discount_percent,
                                      "valid_until": quote.valid_until, "terms": quote.terms})
    lines = lines or LineFormSet(initial=_initial_lines(quote), prefix="lines")
    saved = list(quote.lines.all())
    totals = quote.totals(saved)
    can_edit = permissions.can_edit_quotes(user, lead)
    # A sent version whose lead already has a version in preparation: changes go there
    # (editing this one's form would overwrite that version's work).
    open_version = (Quote.objects.filter(lead=lead, status__in=OPEN).first()
                    if quote.status in FROZEN else None)
    context = {
        "lead": lead, "quote": quote, "form": form, "lines": lines,
        "saved_lines": list(zip(saved, totals.lines, strict=True)), "totals": totals,
        "versions": version_rows(lead),
        "events": quote.events.select_related("actor").order_by("-created_at", "-pk")[:50],
        "can_edit": can_edit and open_version is None,
        "open_version": open_version,
        "frozen": quote.status in FROZEN,
        "can_send": can_edit and quote.status in (QuoteStatus.DRAFT, QuoteStatus.APPROVED),
        "can_approve": (quote.status == QuoteStatus.PENDING_APPROVAL
                        and permissions.can_approve_quotes(user)
                        and quote.submitted_by_id != user.pk),
        "approval": approval or ApprovalForm(),
        "error": error,
        "customer_url": quote_url(quote) if quote.status in FROZEN else "",
    }
    return render(request, "quotes/editor.html", context, status=status)


@require_POST
@staff_required
def quote_create(request: HttpRequest, public_id) -> HttpResponse:
    lead = get_lead_for_user(request, public_id, action="quotes")
    if not permissions.can_edit_quotes(request.user, lead):
        raise PermissionDenied
    try:
        quote = services.quote_from_lead(lead=lead, actor=request.user)
    except QuoteError as exc:
        messages.error(request, error_text(exc))
        return redirect("staff:lead_detail", public_id=lead.public_id)
    return redirect("quotes:editor", quote_id=quote.public_id)


@require_http_methods(["GET", "HEAD", "POST"])
@staff_required
@never_cache
def quote_editor(request: HttpRequest, quote_id) -> HttpResponse:
    quote, lead = quote_for_user(request, quote_id)
    if request.method != "POST":
        # Every opening is audited (who saw which version, when).
        QuoteEvent.objects.create(quote=quote, kind=QuoteEvent.Kind.VIEWED,
                                  actor=request.user)  # type: ignore[misc]
        return _editor(request, quote, lead)
    if not permissions.can_edit_quotes(request.user, lead):
        raise PermissionDenied
    form = QuoteForm(request.POST)
    lines = LineFormSet(request.POST, prefix="lines")
    if not (form.is_valid() and lines.is_valid()):
        return _editor(request, quote, lead, form=form, lines=lines, status=400)
    data = [line for f in lines.forms if (line := f.line()) is not None]
    try:
        changed = services.quote_edit(
            quote=quote, actor=request.user, lines=data,
            total_discount_percent=form.cleaned_data["total_discount_percent"],
            valid_until=form.cleaned_data["valid_until"], terms=form.cleaned_data["terms"])
    except ValidationError as exc:
        for message in exc.messages:
            form.add_error(None, message)
        return _editor(request, quote, lead, form=form, lines=lines, status=400)
    if changed.pk != quote.pk:
        messages.success(request, _("Version %(old)s was sent and stays as it was; your "
                                    "changes are in version %(new)s.")
                         % {"old": quote.version, "new": changed.version})
    else:
        messages.success(request, _("Quote saved."))
    return redirect("quotes:editor", quote_id=changed.public_id)


@require_POST
@staff_required
def quote_send(request: HttpRequest, quote_id) -> HttpResponse:
    """"Send to the customer": a draft is submitted first; if its discount needs approval
    it waits for an approver, otherwise it is sent at once."""
    quote, lead = quote_for_user(request, quote_id)
    if not permissions.can_edit_quotes(request.user, lead):
        raise PermissionDenied
    try:
        if quote.status == QuoteStatus.DRAFT:
            quote = services.quote_submit(quote=quote, actor=request.user)
        if quote.status == QuoteStatus.PENDING_APPROVAL:
            messages.info(request, _("The discount needs approval: the quote waits for an "
                                     "approver and is sent once approved."))
            return redirect("quotes:editor", quote_id=quote.public_id)
        quote = services.quote_send(quote=quote, actor=request.user)
    except QuoteError as exc:
        quote.refresh_from_db()
        return _editor(request, quote, lead, error=error_text(exc), status=409)
    messages.success(request, _("Version %(n)s sent. The lead is now at “Proposal” with "
                                "¥%(total)s.") % {"n": quote.version,
                                                   "total": quote.total_amount})
    return redirect("quotes:editor", quote_id=quote.public_id)


@require_POST
@staff_required
def quote_approve(request: HttpRequest, quote_id) -> HttpResponse:
    quote, lead = quote_for_user(request, quote_id)
    if not permissions.can_approve_quotes(request.user):
        raise PermissionDenied
    form = ApprovalForm(request.POST)
    if not form.is_valid():
        return _editor(request, quote, lead, approval=form, status=400)
    try:
        quote = services.quote_approve(quote=quote, actor=request.user,
                                       approve=form.cleaned_data["decision"] == "approve",
                                       note=form.cleaned_data["note"])
    except QuoteError as exc:
        return _editor(request, quote, lead, error=error_text(exc), status=409)
    messages.success(request, _("Approved: the rep can send it now.")
                     if quote.status == QuoteStatus.APPROVED
                     else _("Refused: the quote is back to draft."))
    return redirect("quotes:editor", quote_id=quote.public_id)


@require_safe
@staff_required
def quote_pdf_view(request: HttpRequest, quote_id) -> HttpResponse:
    """The quote's PDF (?lang=zh-hans|en; default: the quote's language)."""
    quote, _lead = quote_for_user(request, quote_id)
    response = pdf.pdf_response(quote, request.GET.get("lang"))
    QuoteEvent.objects.create(quote=quote, kind=QuoteEvent.Kind.EXPORTED,
                              actor=request.user, data={"format": "pdf"})  # type: ignore[misc]
    return response


@require_safe
@staff_required
def quote_xlsx_view(request: HttpRequest, quote_id) -> HttpResponse:
    quote, _lead = quote_for_user(request, quote_id)
    language = pdf.language_of(quote, request.GET.get("lang"))
    response = HttpResponse(xlsx.quote_xlsx(quote, language), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="quote-{quote.number}.xlsx"'
    response["X-Content-Type-Options"] = "nosniff"
    QuoteEvent.objects.create(quote=quote, kind=QuoteEvent.Kind.EXPORTED,
                              actor=request.user, data={"format": "xlsx"})  # type: ignore[misc]
    return response


XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@require_safe
@staff_required
def quote_list_export(request: HttpRequest, fmt: str) -> HttpResponse:
    """The quote list for the ERP or a report: managers and whoever may export leads."""
    if not permissions.can_export(request.user):
        raise PermissionDenied
    if fmt == "csv":
        response = HttpResponse(listexport.as_csv(request.user),
                                content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(listexport.as_xlsx(request.user), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="quotes.{fmt}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
