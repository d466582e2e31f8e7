"""Quotes made from a lead's frozen plan: versions, lines, the audit trail.

A lead has quotes v1, v2, ...; at most one of them is open (draft, waiting for approval or
approved, not yet sent). Sending freezes a version: changing it afterwards makes the next
version (selector.quotes.services.quote_edit). Amounts are Decimal, computed by
selector.quotes.money (one rounding, stated there) and stored on the quote by the services
after every change, for lists and dashboards.

Every write goes through selector.quotes.services; nothing else changes these rows.
"""

from __future__ import annotations

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from selector.leads.models import Lead
from selector.quotes.money import Totals, quote_totals

VAT_RATE_HELP = _(
    "As a fraction: 0.13 is 13 %. 13 % is the standard rate for the sale of goods in the "
    "People's Republic of China under the Value-Added Tax Law of the PRC (adopted by the "
    "Standing Committee of the National People's Congress on 2024-12-25, in force since "
    "2026-01-01; npc.gov.cn), which keeps the rates 13 %, 9 % and 6 %. Some services are "
    "taxed at the lower rates: check with the company's accountant. A quote keeps the rate "
    "it was made with.")
THRESHOLD_HELP = _(
    "A quote whose discounts (per line and in total) exceed this share of its list price "
    "needs a manager's approval before it can be sent. 0: every discount needs approval.")


class QuoteSettings(models.Model):
    """The company's quote rules (one row, edited in the admin by managers)."""

    vat_rate = models.DecimalField(
        _("VAT rate"), max_digits=5, decimal_places=4, default=Decimal("0.1300"),
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(1))],
        help_text=VAT_RATE_HELP)
    approval_threshold = models.DecimalField(
        _("discount needing approval (%)"), max_digits=5, decimal_places=2,
        default=Decimal("0.00"),
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))],
        help_text=THRESHOLD_HELP)
    validity_days = models.PositiveSmallIntegerField(
        _("quotes valid for (days)"), default=30,
        validators=[MinValueValidator(1), MaxValueValidator(365)],
        help_text=_("The company's choice: a new quote is valid this many days."))
    terms_zh = models.TextField(_("terms (Chinese)"), blank=True,
                                help_text=_("Printed on every new quote; the rep may edit them."))
    terms_en = models.TextField(_("terms (English)"), blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("quote settings")
        verbose_name_plural = _("quote settings")

    def __str__(self) -> str:
        return str(self._meta.verbose_name)

    @classmethod
    def current(cls) -> QuoteSettings:
        """The settings row, or the unsaved defaults until a manager saves one."""
        return cls.objects.order_by("pk").first() or cls()


class Status(models.TextChoices):
    DRAFT = "draft", pgettext_lazy("quote status", "Draft")
    PENDING_APPROVAL = "pending_approval", pgettext_lazy("quote status", "Waiting for approval")
    APPROVED = "approved", pgettext_lazy("quote status", "Approved")
    SENT = "sent", pgettext_lazy("quote status", "Sent")
    ACCEPTED = "accepted", pgettext_lazy("quote status", "Accepted")
    CHANGES_REQUESTED = "changes_requested", pgettext_lazy("quote status", "Changes requested")
    EXPIRED = "expired", pgettext_lazy("quote status", "Expired")


# Not yet sent: the one version of a lead that may change.
OPEN = (Status.DRAFT, Status.PENDING_APPROVAL, Status.APPROVED)
# Sent to the customer: frozen for good.
FROZEN = (Status.SENT, Status.ACCEPTED, Status.CHANGES_REQUESTED, Status.EXPIRED)

def _money(label) -> models.DecimalField:
    return models.DecimalField(label, max_digits=14, decimal_places=2, default=Decimal("0.00"))


class Quote(models.Model):
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="quotes",
                             verbose_name=_("lead"))
    version = models.PositiveIntegerField(_("version"))
    based_on = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+", verbose_name=_("based on"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices,
                              default=Status.DRAFT)
    currency = models.CharField(_("currency"), max_length=3, default="CNY", editable=False)
    vat_rate = models.DecimalField(_("VAT rate"), max_digits=5, decimal_places=4,
                                   help_text=VAT_RATE_HELP)
    total_discount_percent = models.DecimalField(
        _("total discount (%)"), max_digits=5, decimal_places=2, default=Decimal("0.00"))
    valid_until = models.DateField(_("valid until"))
    terms = models.TextField(_("terms"), blank=True)
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES)

    # The totals of the lines (selector.quotes.money), stored by the services.
    list_total = _money(_("list price"))
    subtotal = _money(_("subtotal"))
    net_amount = _money(_("amount before VAT"))
    vat_amount = _money(_("VAT"))
    total_amount = _money(_("total with VAT"))
    discount_percent = models.DecimalField(_("discount (%)"), max_digits=5, decimal_places=2,
                                           default=Decimal("0.00"))
    complete = models.BooleanField(_("every line priced"), default=False)
    needs_approval = models.BooleanField(_("needs approval"), default=False)

    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+",
                                   verbose_name=_("made by"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="+")
    submitted_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                    null=True, blank=True, related_name="+",
                                    verbose_name=_("approved by"))
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    sent_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                null=True, blank=True, related_name="+",
                                verbose_name=_("sent by"))
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    # The customer's side: opening the link, accepting.
    first_viewed_at = models.DateTimeField(_("first viewed"), null=True, blank=True)
    last_viewed_at = models.DateTimeField(_("last viewed"), null=True, blank=True)
    view_count = models.PositiveIntegerField(_("views"), default=0)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    accepted_name = models.CharField(_("accepted by"), max_length=100, blank=True)
    accepted_title = models.CharField(_("job title"), max_length=100, blank=True)
    accepted_ip = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    accepted_consent = models.TextField(_("statement accepted"), blank=True)

    class Meta:
        verbose_name = _("quote")
        verbose_name_plural = _("quotes")
        ordering = ["lead", "-version"]
        permissions = [("approve_quote", "Can approve quote discounts")]
        constraints = [
            models.UniqueConstraint(fields=["lead", "version"], name="quote_version_once"),
            # One open version per lead: two "make a quote" clicks make one draft.
            models.UniqueConstraint(fields=["lead"], condition=Q(status__in=OPEN),
                                    name="quote_one_open_per_lead"),
            models.CheckConstraint(condition=Q(version__gte=1), name="quote_version_from_1"),
            models.CheckConstraint(
                condition=Q(total_discount_percent__gte=0, total_discount_percent__lte=100),
                name="quote_total_discount_range"),
        ]
        indexes = [models.Index(fields=["status", "sent_at"], name="quote_status_sent_idx")]

    def __str__(self) -> str:
        return f"{self.lead.report_number} v{self.version}"

    @property
    def number(self) -> str:
        """How the quote is named on the page and the PDF: the lead's number and version."""
        return f"{self.lead.report_number}-V{self.version}"

    @property
    def vat_percent(self) -> str:
        """The VAT rate as an invoice prints it: 0.1300 -> "13%", 0.0650 -> "6.5%"."""
        return f"{(self.vat_rate * 100).normalize():f}%"

    @property
    def is_open(self) -> bool:
        return self.status in OPEN

    def is_expired(self, today=None) -> bool:
        today = today or timezone.localdate()
        return self.status == Status.EXPIRED or (
            self.status == Status.SENT and self.valid_until < today)

    def totals(self, lines=None) -> Totals:
        lines = list(self.lines.all()) if lines is None else lines
        return quote_totals(((ln.quantity, ln.unit_price, ln.discount_percent) for ln in lines),
                            total_discount_percent=self.total_discount_percent,
                            vat_rate=self.vat_rate)


class LineKind(models.TextChoices):
    SWITCH = "switch", pgettext_lazy("quote line", "Switch")
    MODULE = "module", pgettext_lazy("quote line", "Optical module")
    CABLE = "cable", pgettext_lazy("quote line", "Cable")
    SUBNET_MANAGER = "subnet_manager", pgettext_lazy("quote line", "Subnet manager")
    SERVICE = "service", pgettext_lazy("quote line", "Service")
    SUPPORT = "support", pgettext_lazy("quote line", "Support")
    OTHER = "other", pgettext_lazy("quote line", "Other hardware")


class QuoteLine(models.Model):
    quote = models.ForeignKey(Quote, on_delete=models.CASCADE, related_name="lines")
    position = models.PositiveIntegerField(_("position"))
    kind = models.CharField(_("kind"), max_length=20, choices=LineKind.choices)
    # The catalogue key the line came from (the price list's key); blank for added lines.
    part_key = models.CharField(_("part"), max_length=60, blank=True)
    description = models.CharField(_("description"), max_length=300)
    quantity = models.PositiveIntegerField(_("quantity"))
    # None: not in the price list yet (the quote cannot be sent until it has a price).
    unit_price = models.DecimalField(_("unit price before VAT"), max_digits=14,
                                     decimal_places=2, null=True, blank=True)
    discount_percent = models.DecimalField(_("discount (%)"), max_digits=5, decimal_places=2,
                                           default=Decimal("0.00"))

    class Meta:
        verbose_name = _("quote line")
        verbose_name_plural = _("quote lines")
        ordering = ["quote", "position", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(quantity__gte=1), name="quoteline_quantity"),
            models.CheckConstraint(condition=Q(unit_price__isnull=True) | Q(unit_price__gte=0),
                                   name="quoteline_price_not_negative"),
            models.CheckConstraint(condition=Q(discount_percent__gte=0,
                                               discount_percent__lte=100),
                                   name="quoteline_discount_range"),
        ]

    def __str__(self) -> str:
        return f"{self.quote_id} {self.position} {self.description}"


class QuoteEvent(models.Model):
    """The audit trail of a quote: who made, changed, submitted, approved, sent, viewed and
    accepted it, and the customer's requests for changes."""

    class Kind(models.TextChoices):
        CREATED = "created", pgettext_lazy("quote event", "Created")
        EDITED = "edited", pgettext_lazy("quote event", "Edited")
        REOPENED = "reopened", pgettext_lazy("quote event", "Back to draft")
        SUBMITTED = "submitted", pgettext_lazy("quote event", "Submitted for approval")
        APPROVED = "approved", pgettext_lazy("quote event", "Approved")
        REJECTED = "rejected", pgettext_lazy("quote event", "Approval refused")
        SENT = "sent", pgettext_lazy("quote event", "Sent")
        VIEWED = "viewed", pgettext_lazy("quote event", "Viewed")
        ACCEPTED = "accepted", pgettext_lazy("quote event", "Accepted")
        CHANGES_REQUESTED = "changes_requested", pgettext_lazy("quote event", "Changes requested")
        EXPIRED = "expired", pgettext_lazy("quote event", "Expired")
        EXPORTED = "exported", pgettext_lazy("quote event", "Exported")

    quote = models.ForeignKey(Quote, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                              blank=True, related_name="+", verbose_name=_("by"))
    ip = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("quote event")
        verbose_name_plural = _("quote events")
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["quote", "kind"], name="quoteevent_quote_kind_idx")]

    def __str__(self) -> str:
        return f"{self.quote_id} {self.kind}"
