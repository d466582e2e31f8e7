"""What the sales workspace stores itself. Leads and their events live in selector.leads."""

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class LeadDeletion(models.Model):
    """The anonymous trace of a lead deleted on the customer's request: enough to answer
    "was it deleted, when, by whom, and what kind of lead was it" without any personal data.
    ``report_hash`` lets staff confirm a report number the customer quotes (HMAC of it with
    the secret key), without storing the number itself."""

    report_hash = models.CharField(_("report number hash"), max_length=64, db_index=True)
    lead_created_on = models.DateField(_("lead created on"))
    recommendation = models.CharField(_("recommendation"), max_length=40)
    score = models.CharField(_("score"), max_length=10)
    status = models.CharField(_("status at deletion"), max_length=20)
    language = models.CharField(_("language"), max_length=10)
    utm_source = models.CharField(_("source"), max_length=100, blank=True)
    reason = models.CharField(_("reason"), max_length=300)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                              related_name="+", verbose_name=_("deleted by"))
    deleted_at = models.DateTimeField(_("deleted at"), auto_now_add=True)

    class Meta:
        verbose_name = _("lead deletion")
        verbose_name_plural = _("lead deletions")
        ordering = ["-deleted_at"]

    def __str__(self) -> str:
        return f"{self.lead_created_on} {self.recommendation}"


class LoginThrottle(models.Model):
    """Failed log-ins of one username from one client address and browser
    (selector.staff.lockout).

    One row per (username, address, device), counted while failures keep coming within
    STAFF_LOGIN_WINDOW_SECONDS of each other. ``device`` is empty for a browser not known
    for that username, else the random id of its known-device cookie. Staff log-ins are
    rare, so the table stays small; it lives in the database every app server shares, so
    managers can see and lift throttles, and ``manage.py purge`` drops rows past the
    window."""

    username = models.CharField(_("username"), max_length=150)  # as typed, case-folded
    ip = models.GenericIPAddressField(_("address"))
    device = models.CharField(_("known browser"), max_length=32, blank=True, default="")
    failures = models.PositiveIntegerField(_("failures"), default=0)
    first_failed_at = models.DateTimeField(_("first failure"))
    last_failed_at = models.DateTimeField(_("last failure"), db_index=True)

    class Meta:
        verbose_name = _("login throttle")
        verbose_name_plural = _("login throttles")
        ordering = ["-last_failed_at"]
        constraints = [models.UniqueConstraint(fields=["username", "ip", "device"],
                                               name="loginthrottle_user_ip_device_uniq")]
        indexes = [models.Index(fields=["ip", "last_failed_at"], name="loginthrottle_ip_idx")]

    def __str__(self) -> str:
        return f"{self.username} @ {self.ip}"
class StaffProfile(models.Model):
    """What the workspace needs to reach a team member: the mobile number the group robots
    @mention (WeCom, DingTalk), the Feishu user id (Feishu), the language of their
    reminders and digests, and the day their last daily digest went out (claimed with one
    conditional UPDATE, so two workers never send it twice)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="staff_profile")
    mobile = models.CharField(_("mobile phone"), max_length=20, blank=True,
                              help_text=_("Mainland China mobile number, 11 digits; used to "
                                          "@mention you in the group chat."))
    feishu_user_id = models.CharField(
        _("Feishu user ID"), max_length=64, blank=True,
        validators=[RegexValidator(r"^[A-Za-z0-9_-]*$",
                                   _("Letters, digits, '-' and '_' only, as Feishu shows it."))],
        help_text=_("Your open_id (ou_…) or user_id in Feishu; used to @mention you when the "
                    "group robot is a Feishu robot."))
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES,
                                default="zh-hans")
    digest_sent_on = models.DateField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("staff profile")
        verbose_name_plural = _("staff profiles")

    def __str__(self) -> str:
        return str(self.user)


class ExportLog(models.Model):
    """Who exported which leads, when: the filters used and how many rows left."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                              related_name="+", verbose_name=_("by"))
    format = models.CharField(_("format"), max_length=10)
    filters = models.JSONField(_("filters"), default=dict)
    row_count = models.PositiveIntegerField(_("rows"), null=True, blank=True)
    finished = models.BooleanField(_("finished"), default=False)
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("export")
        verbose_name_plural = _("export log")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.format}"


class Handover(models.Model):
    """A change to many leads as one background job, with its progress (``done`` of
    ``total``) and one summary message per person it concerns:

    - **hand-over** (``kind`` "handover"): all open leads of one person to another (a rep
      who leaves, a change of territory): selector.staff.services.handover_start queues it,
      the task worker moves the leads in batches (staff.tasks.run_handover), and the new
      owner gets one summary message;
    - **bulk** ("bulk"): the lead list's bulk change (a status and/or an owner) on all
      leads that match the list's filter (``filters``, the list's query parameters), not
      only one page (selector.staff.bulk): each lead changed by the services, as its
      ``actor`` may; ``last_pk`` is how far it got, ``skipped`` the leads it left as they
      were (changed meanwhile, or not the actor's to change)."""

    class Kind(models.TextChoices):
        HANDOVER = "handover", _("Hand-over")
        BULK = "bulk", _("Bulk change")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices,
                            default=Kind.HANDOVER)
    from_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                  null=True, related_name="+", verbose_name=_("previous owner"))
    to_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                null=True, related_name="+", verbose_name=_("new owner"))
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                              related_name="+", verbose_name=_("by"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.QUEUED)
    total = models.PositiveIntegerField(_("open leads"), default=0)
    done = models.PositiveIntegerField(_("leads moved"), default=0)
    # A bulk change: the list's filter, what to set, how far it got.
    filters = models.JSONField(_("filters"), default=dict, blank=True)
    new_status = models.CharField(_("set status"), max_length=20, blank=True)
    set_owner = models.BooleanField(_("set owner"), default=False)  # to_user (None: nobody)
    last_pk = models.BigIntegerField(default=0, editable=False)
    skipped = models.PositiveIntegerField(_("leads left as they were"), default=0)
    created_at = models.DateTimeField(_("at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("hand-over")
        verbose_name_plural = _("hand-overs")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.from_user_id} -> {self.to_user_id} ({self.status})"
