"""A lead: a visitor who finished the wizard and asked for the report, with their consent.

The row is created once, by ``selector.leads.services.lead_create``; sales work on it
later (status, owner, notes as LeadEvents). ``public_id`` goes into links, never the pk.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _


class Timeline(models.TextChoices):
    WITHIN_3_MONTHS = "0-3m", _("Within 3 months")
    MONTHS_3_TO_6 = "3-6m", _("In 3 to 6 months")
    LATER = "later", _("Later than 6 months")
    UNKNOWN = "unknown", _("Not decided yet")


class Score(models.TextChoices):
    HOT = "hot", _("Hot")
    WARM = "warm", _("Warm")
    COLD = "cold", _("Cold")


class Status(models.TextChoices):
    NEW = "new", _("New")
    CONTACTED = "contacted", _("Contacted")
    QUALIFIED = "qualified", _("Qualified")
    PROPOSAL = "proposal", _("Proposal")
    WON = "won", _("Won")
    LOST = "lost", _("Lost")


class Lead(models.Model):
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    # Human-readable, non-sequential ("NS-20261130-7KQ2XW"): quoted on the phone and the PDF.
    report_number = models.CharField(_("report number"), max_length=24, unique=True,
                                     editable=False)
    # One lead per wizard session: this unique constraint is the concurrency guard.
    wizard_session = models.OneToOneField(
        "wizard.WizardSession", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="lead", verbose_name=_("wizard session"))

    name = models.CharField(_("name"), max_length=100)
    company = models.CharField(_("company"), max_length=200)
    # A phone number or a WeChat ID (or both); e-mail, role and timeline are optional.
    phone = models.CharField(_("phone"), max_length=16, blank=True)  # normalised, E.164
    email = models.EmailField(_("e-mail"), max_length=254, blank=True)
    role = models.CharField(_("job role"), max_length=100, blank=True)
    timeline = models.CharField(_("project timeline"), max_length=10, choices=Timeline.choices,
                                blank=True)
    wechat = models.CharField(_("WeChat ID"), max_length=50, blank=True)
    message = models.TextField(_("message"), max_length=2000, blank=True)
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES)

    # What the visitor was shown: the answers, and in ``sizing`` the frozen recommendation
    # snapshot (selector.domain.Recommendation.to_dict(): decision, both fabric plans, BOM,
    # tuning, sources, engine and catalogue versions). Rendered by selector.planner.
    answers = models.JSONField(_("answers"))
    # The answers' total GPUs as a column (answers never change after creation): the staff
    # list filters on it and exports it, and reading it from the JSON costs a TOAST fetch
    # per row on PostgreSQL (leads_lead keeps its JSON out of line, see staff/0004).
    gpus = models.GeneratedField(
        expression=Cast(KT("answers__gpus"), models.IntegerField()),
        output_field=models.IntegerField(_("total GPUs")), db_persist=True)
    recommendation = models.CharField(_("recommendation"), max_length=40)
    rule = models.CharField(_("rule"), max_length=10)
    engine_version = models.CharField(_("engine version"), max_length=40)
    sizing = models.JSONField(_("sizing shown"), default=dict, blank=True)

    score = models.CharField(_("score"), max_length=10, choices=Score.choices)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices,
                              default=Status.NEW)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                              blank=True, related_name="leads", verbose_name=_("owner"))

    consent_given_at = models.DateTimeField(_("consent given at"))
    consent_notice_version = models.CharField(_("privacy notice version"), max_length=20)
    consent_user_agent = models.CharField(_("user agent at consent"), max_length=500,
                                          blank=True)

    # Copied from the wizard session, so they survive if the session row is cleaned up.
    landing_url = models.CharField(_("landing URL"), max_length=500, blank=True)
    referrer = models.CharField(_("referrer"), max_length=500, blank=True)
    utm_source = models.CharField(max_length=100, blank=True)
    utm_medium = models.CharField(max_length=100, blank=True)
    utm_campaign = models.CharField(max_length=100, blank=True)
    utm_term = models.CharField(max_length=100, blank=True)
    utm_content = models.CharField(max_length=100, blank=True)

    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("lead")
        verbose_name_plural = _("leads")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="lead_status_idx"),
            models.Index(fields=["score", "-created_at"], name="lead_score_idx"),
            models.Index(fields=["recommendation"], name="lead_recommendation_idx"),
            models.Index(fields=["owner", "status"], name="lead_owner_idx"),
            models.Index(fields=["-created_at"], name="lead_created_idx"),
            models.Index(fields=["language"], name="lead_language_idx"),
            models.Index(fields=["utm_source"], name="lead_utm_source_idx"),
            models.Index(fields=["gpus", "-created_at"], name="lead_gpus_created_idx"),
        ]

    def __str__(self) -> str:
        return self.report_number


class LeadEvent(models.Model):
    class Kind(models.TextChoices):
        CREATED = "created", _("Created")
        STATUS_CHANGED = "status_changed", _("Status changed")
        OWNER_CHANGED = "owner_changed", _("Owner changed")
        NOTE = "note", _("Note")
        REPORT_DOWNLOADED = "report_downloaded", _("Report downloaded")
        NOTIFIED = "notified", _("Sales notified")
        NOTIFICATION_FAILED = "notification_failed", _("Notification failed")
        REPORT_EMAILED = "report_emailed", _("Report e-mailed to the customer")
        REPORT_EMAIL_FAILED = "report_email_failed", _("Report e-mail failed")

    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(_("kind"), max_length=30, choices=Kind.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                              blank=True, related_name="+", verbose_name=_("by"))
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("lead event")
        verbose_name_plural = _("lead events")
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["lead", "kind"], name="leadevent_lead_kind_idx")]

    def __str__(self) -> str:
        return f"{self.lead_id} {self.kind}"
