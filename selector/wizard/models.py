import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _


class WizardSession(models.Model):
    """One visit to the wizard. No personal data: only the answers, how far the visitor got,
    timestamps and where they came from (landing URL, referrer, UTM), for the funnel report.
    The id is a random UUID, never shown in sequence."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_at = models.DateTimeField(_("started"), auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(_("last activity"), auto_now=True)
    answers = models.JSONField(_("answers"), default=dict, blank=True)
    # Identifier of the furthest stage reached (selector.wizard.steps.STAGES: a step's
    # identifier, or "result"); a position until wizard/0003.
    furthest_step = models.CharField(_("furthest step"), max_length=30, default="scale")
    result_at = models.DateTimeField(_("result first shown"), null=True, blank=True)
    language = models.CharField(_("language"), max_length=10, blank=True)
    landing_url = models.CharField(_("landing URL"), max_length=500, blank=True)
    referrer = models.CharField(_("referrer"), max_length=500, blank=True)
    utm_source = models.CharField(max_length=100, blank=True, db_index=True)
    utm_medium = models.CharField(max_length=100, blank=True)
    utm_campaign = models.CharField(max_length=100, blank=True)
    utm_term = models.CharField(max_length=100, blank=True)
    utm_content = models.CharField(max_length=100, blank=True)

    class Meta:
        verbose_name = _("wizard session")
        verbose_name_plural = _("wizard sessions")
        indexes = [
            # The dashboard's funnel: a period's sessions by day, source and furthest step,
            # from the index alone.
            models.Index(fields=["created_at"],
                         include=["furthest_step", "result_at", "utm_source"],
                         name="wizsession_created_cover_idx"),
        ]

    def __str__(self) -> str:
        return str(self.id)

    @property
    def answer_dict(self) -> dict:
        """The stored answers; ``{}`` when the JSON column holds anything but an object
        (the column takes any JSON, and nobody is to trust it blindly)."""
        return self.answers if isinstance(self.answers, dict) else {}
