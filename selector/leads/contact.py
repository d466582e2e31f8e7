"""The contact step after the wizard's result (details + consent -> one lead), the
thank-you page with the report, and the privacy notice."""

from __future__ import annotations

import logging
import time
from datetime import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from selector.content.queries import company
from selector.core.sharing import share_token
from selector.core.siteurl import absolute, site_url
from selector.domain import Answers, InvalidAnswers
from selector.leads import abuse
from selector.leads.callback import CallbackForm, request_callback
from selector.leads.forms import ContactForm
from selector.leads.lifecycle import submit_lead
from selector.leads.models import Lead, LeadEvent
from selector.leads.privacy import PRIVACY_NOTICE_VERSION
from selector.leads.report.delivery import report_email_status
from selector.leads.report.links import customer_report_path
from selector.wizard.models import WizardSession
from selector.wizard.state import completed_answers, get_wizard_session

logger = logging.getLogger(__name__)

# The visitor's own submitted leads (public ids): only they may see their thank-you page.
SESSION_LEADS_KEY = "leads_submitted"


def _completed(request: HttpRequest) -> tuple[WizardSession | None, Answers | None]:
    ws = get_wizard_session(request)
    return ws, (completed_answers(ws) if ws is not None else None)


def _privacy_context() -> dict:
    return {"retention_days": settings.LEAD_RETENTION_DAYS,
            "notice_version": PRIVACY_NOTICE_VERSION}


def _remember(request: HttpRequest, lead: Lead) -> None:
    ids = [i for i in request.session.get(SESSION_LEADS_KEY, []) if i != str(lead.public_id)]
    request.session[SESSION_LEADS_KEY] = [*ids[-9:], str(lead.public_id)]


# A refused call-back request, kept for the thank-you page's next GET (read once).
CALLBACK_DRAFT_KEY = "callback_draft"
# A refused contact form, kept for the GET that shows it (Post/Redirect/Get: Back after a
# later successful submit never lands on a POST). Read once, dropped after DRAFT_MAX_AGE.
DRAFT_KEY = "contact_draft"
DRAFT_MAX_AGE = 15 * 60
# Not kept: the token, the start stamp (the redisplay issues its own) and the honeypot (a
# person's browser that autofilled the hidden field must not be refused again and again).
_DRAFT_SKIP = {"csrfmiddlewaretoken", "started", "website"}


def _stash_draft(request: HttpRequest, form: ContactForm) -> None:
    data = {k: v for k, v in request.POST.items() if k not in _DRAFT_SKIP}
    request.session[DRAFT_KEY] = {"data": data, "abuse": form.abuse, "at": time.time()}


def _pop_draft(request: HttpRequest) -> ContactForm | None:
    draft = request.session.pop(DRAFT_KEY, None)
    if not isinstance(draft, dict) or not isinstance(draft.get("data"), dict):
        return None
    if time.time() - float(draft.get("at") or 0) > DRAFT_MAX_AGE:
        return None
    form = ContactForm(draft["data"], redisplay=True)
    form.is_valid()
    abuse_code = form.abuse = draft.get("abuse")
    if abuse_code in ContactForm.ABUSE_MESSAGES and not form.non_field_errors():
        # The checks ran on the POST (its start stamp is spent); show what it was told.
        form.add_error(None, ValidationError(ContactForm.ABUSE_MESSAGES[abuse_code],
                                             code=abuse_code))
    return form


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def contact(request: HttpRequest) -> HttpResponse:
    """The contact step after the wizard's result: details + consent -> one lead.

    Post/Redirect/Get both ways: a valid POST redirects to the thank-you page, a refused
    one to this page again, which shows the errors (so Back never asks to resubmit)."""
    ws, answers = _completed(request)
    if ws is None or answers is None:
        return redirect("wizard:start")
    existing = Lead.objects.filter(wizard_session=ws).first()
    if existing is not None and str(existing.public_id) in request.session.get(
            SESSION_LEADS_KEY, []):
        # Already submitted from this browser (refresh, back button, second tab).
        return redirect("public:thanks")

    if request.method == "POST":
        form = ContactForm(request.POST, wizard_session_id=ws.pk)
        if form.is_valid():
            # Only a submission that is about to become a lead counts toward the limit.
            if abuse.rate_limited(request):
                logger.warning("lead submit rate-limited")
                response = render(request, "leads/rate_limited.html", status=429)
                response["Retry-After"] = str(abuse.retry_after_seconds())
                return response
            try:
                lead, created = submit_lead(
                    wizard_session=ws, answers=answers, contact=form.contact(),
                    language=translation.get_language() or settings.LANGUAGE_CODE,
                    user_agent=request.META.get("HTTP_USER_AGENT", ""),
                    site_url=site_url(request))
            except ValidationError as exc:
                abuse.uncount(request)
                # The form's limits mirror the model's; this is a safety net, not a path.
                logger.warning("lead rejected by model validation: %s",
                               sorted(exc.message_dict))
                form.add_error(None, ValidationError(
                    _("We could not accept this submission. Please try again.")))
            else:
                request.session.pop(DRAFT_KEY, None)
                if not created:
                    abuse.uncount(request)
                _remember(request, lead)
                return redirect("public:thanks")
        elif form.abuse:
            logger.info("lead submit refused: %s", form.abuse)
        _stash_draft(request, form)
        return HttpResponseRedirect(request.path, status=303)

    form = _pop_draft(request) or ContactForm()
    return render(request, "leads/contact.html", {
        # The fill time counts from the first render in this session, not this one.
        "form": form, "answers": answers,
        "started": abuse.form_started_token(ws.pk, now=abuse.first_render(request, ws.pk)),
        **_privacy_context()})


def _thanks_lead(request: HttpRequest) -> Lead | None:
    """The lead this browser just submitted (the newest in its session), or None."""
    ids = request.session.get(SESSION_LEADS_KEY, [])
    lead = Lead.objects.filter(public_id__in=ids[-1:]).first() if ids else None
    if lead is None and ids:  # deleted (on request or by retention): forget it here too
        request.session[SESSION_LEADS_KEY] = []
    return lead


@never_cache
@require_safe
def thanks(request: HttpRequest) -> HttpResponse:
    """Thank-you page of the lead this browser just submitted (nothing else: the URL has
    no id to guess; the lead comes from the visitor's own session)."""
    lead = _thanks_lead(request)
    if lead is None:
        return redirect("public:contact")
    return _thanks_page(request, lead, callback_form=_pop_callback_draft(request))


def _thanks_page(request: HttpRequest, lead: Lead, *,
                 callback_form: CallbackForm | None = None) -> HttpResponse:
    try:
        answers = Answers.from_dict(lead.answers)
    except InvalidAnswers:  # a snapshot from an older engine must not break the page
        answers = None
    requested = [timezone.localtime(datetime.fromisoformat(e.data["due"]))
                 for e in lead.events.filter(kind=LeadEvent.Kind.CALLBACK_REQUESTED)
                 if isinstance(e.data.get("due"), str)]
    return render(request, "leads/thanks.html", {
        "lead": lead,
        # Root-relative: works on whatever host and port the page was served from.
        "report_url": customer_report_path(lead),
        "share_url": absolute(reverse("wizard:shared", args=[share_token(answers)]), request)
        if answers else "",
        "email_status": report_email_status(lead),
        # "Talk to an engineer" (issue 26, finding 10): WeCom, tagged with the report
        # number, or a call-back at the customer's time (leads with a phone number).
        "wecom_url": company().wecom_link_for(lead.report_number),
        "callback_form": callback_form or (CallbackForm() if lead.phone else None),
        "callbacks_requested": requested,
    })


@never_cache
@require_POST
def callback_request(request: HttpRequest) -> HttpResponse:
    """The thank-you page's call-back form (CSRF-protected POST): the lead of this browser's
    session gets a call at the customer's preferred time (selector.leads.callback), then
    back to the thank-you page (Post/Redirect/Get both ways: a refused form is shown there
    with its errors, once)."""
    lead = _thanks_lead(request)
    if lead is None:
        return redirect("public:contact")
    if not lead.phone:
        return HttpResponseRedirect(reverse("public:thanks"), status=303)
    form = CallbackForm(request.POST)
    refused = ""
    if form.is_valid():
        try:
            request_callback(lead=lead, preferred=form.cleaned_data["preferred"],
                             note=form.cleaned_data["note"])
        except ValidationError as exc:
            refused = " ".join(exc.messages)
        else:
            return HttpResponseRedirect(reverse("public:thanks") + "#talk", status=303)
    # Post/Redirect/Get, as the contact form: the thank-you page shows what was refused.
    request.session[CALLBACK_DRAFT_KEY] = {
        "data": {k: request.POST.get(k, "")[:500] for k in ("preferred", "note")},
        "refused": refused}
    return HttpResponseRedirect(reverse("public:thanks") + "#talk", status=303)


def _pop_callback_draft(request: HttpRequest) -> CallbackForm | None:
    draft = request.session.pop(CALLBACK_DRAFT_KEY, None)
    if not isinstance(draft, dict) or not isinstance(draft.get("data"), dict):
        return None
    form = CallbackForm({k: str(v) for k, v in draft["data"].items()})
    form.is_valid()
    if draft.get("refused"):
        form.add_error(None, str(draft["refused"]))
    return form


@require_safe
def privacy(request: HttpRequest) -> HttpResponse:
    return render(request, "leads/privacy.html", _privacy_context())

