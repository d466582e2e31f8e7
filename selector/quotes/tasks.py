"""Who hears about a quote, on the task worker (after the transaction that changed it):

- **approval requested**: the approvers (managers and holders of "Can approve quote
  discounts"), by e-mail and on the group robot;
- **first opened, accepted, changes requested**: the lead's owner, by e-mail and on the
  group robot.

The robot's messages carry no personal data (the same rule as the new-lead message,
selector.leads.notify): the quote number, the company, the event and the amount. The
customer's own words (a request for changes, the name of who accepted) go only in the
e-mail to the owner.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.tasks import task
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from selector.core.siteurl import site_url
from selector.leads import notify
from selector.quotes.models import Quote, QuoteEvent
from selector.staff import messaging, permissions

logger = logging.getLogger(__name__)

EVENTS = ("approval_requested", "first_viewed", "accepted", "changes_requested")


def editor_url(quote: Quote) -> str:
    with translation.override(settings.LANGUAGE_CODE):
        return site_url() + reverse("quotes:editor", args=[quote.public_id])


def approvers():
    users = get_user_model().objects.filter(is_active=True).filter(
        Q(groups__name=permissions.MANAGERS_GROUP) | Q(is_superuser=True)
        | Q(user_permissions__codename="approve_quote")
        | Q(groups__permissions__codename="approve_quote")).distinct()
    return [u for u in users if permissions.can_approve_quotes(u)]


def _message(quote: Quote, event: str) -> tuple[notify.Message, list[str]]:
    """The robot message and the e-mail's extra lines (the customer's words)."""
    lead = quote.lead
    head = f"{quote.number} · {notify._plain(lead.company)} · ¥{quote.total_amount:,.2f}"
    private: list[str] = []
    if event == "approval_requested":
        title = _("Quote %(number)s needs your approval (discount %(percent)s %%)") % {
            "number": quote.number, "percent": quote.discount_percent}
    elif event == "first_viewed":
        title = _("The customer opened quote %(number)s") % {"number": quote.number}
    elif event == "accepted":
        title = _("Quote %(number)s was accepted") % {"number": quote.number}
        private.append(_("Accepted by %(name)s (%(title)s)") % {
            "name": quote.accepted_name, "title": quote.accepted_title or "—"})
    else:
        title = _("The customer asks for changes to quote %(number)s") % {
            "number": quote.number}
        asked = quote.events.filter(kind=QuoteEvent.Kind.CHANGES_REQUESTED).last()
        if asked is not None:
            private.append(str(asked.data.get("message", "")))
    message = notify.Message(title=str(title), lines=(head,), link=editor_url(quote),
                             link_text=str(_("Open the quote")), event=f"quote.{event}",
                             facts={"quote": quote.number, "event": event,
                                    "total": str(quote.total_amount)})
    return message, private


def _send(message: notify.Message, private: list[str], users) -> bool:
    sent = messaging.post_to_group(message, "quote message")
    emails = [u.email for u in users if u is not None and u.email]
    if emails:
        shown = notify.Message(title=message.title, lines=(*message.lines, *private),
                               link=message.link, link_text=message.link_text)
        try:
            messaging.email(None, shown, shown.title, to=emails).send()
            sent = True
        except Exception as exc:  # noqa: BLE001
            logger.warning("quote e-mail failed (%s)", type(exc).__name__)
    return sent


@task
def quote_notify(quote_public_id: str, event: str) -> str:
    quote = Quote.objects.select_related("lead", "lead__owner").filter(
        public_id=quote_public_id).first()
    if quote is None or event not in EVENTS:
        return "gone"
    users = approvers() if event == "approval_requested" else [quote.lead.owner]
    with translation.override(settings.LANGUAGE_CODE):
        message, private = _message(quote, event)
        return "sent" if _send(message, private, users) else "failed"
