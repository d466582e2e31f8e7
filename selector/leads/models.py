"""A lead: a visitor who finished the wizard and asked for the report, with their consent.

The row is created once, by ``selector.leads.services.lead_create``; sales work on it
later (status, owner, notes as LeadEvents). ``public_id`` goes into links, never the pk.
"""

import uuid

from django.conf import settings
from django.contrib.postgres.indexes import OpClass
from django.db import models
from django.db.models import Case, Value, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce, Lower
from django.utils.translation import gettext_lazy as _

from selector.leads.indexes import PostgreSQLIndex
from selector.leads.search import GRAMS_INDEX_NAME, search_grams, search_text
from selector.leads.search import INDEX_NAME as SEARCH_INDEX


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
    """In pipeline order: the order of this list is the order everywhere (filters, sorts,
    the lead page's pipeline, the manager's pipeline)."""

    NEW = "new", _("New")
    CONTACTED = "contacted", _("Contacted")
    QUALIFIED = "qualified", _("Qualified")
    PROPOSAL = "proposal", _("Proposal")
    WON = "won", _("Won")
    LOST = "lost", _("Lost")


OPEN_STATUSES = (Status.NEW, Status.CONTACTED, Status.QUALIFIED, Status.PROPOSAL)


class LostReason(models.TextChoices):
    PRICE = "price", _("Price")
    COMPETITOR = "competitor", _("Chose a competitor")
    NO_BUDGET = "no_budget", _("No budget")
    NO_PROJECT = "no_project", _("Project cancelled or postponed")
    NO_RESPONSE = "no_response", _("No response")
    NOT_A_FIT = "not_a_fit", _("Not a fit (requirements)")
    DUPLICATE = "duplicate", _("Duplicate or test submission")
    OTHER = "other", _("Other")


class NextActionKind(models.TextChoices):
    CALL = "call", _("Call")
    WECHAT = "wechat", _("WeChat")
    EMAIL = "email", _("E-mail")
    VISIT = "visit", _("Visit")
    QUOTE = "quote", _("Quote")


def _rank(field: str, values) -> Case:
    """An immutable CASE giving each choice its position (stored generated column)."""
    return Case(*(When(**{field: v}, then=Value(i)) for i, v in enumerate(values)),
                default=Value(len(values)), output_field=models.SmallIntegerField())


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
    # The company name as duplicate matching compares it (selector.leads.duplicates).
    company_key = models.CharField(max_length=200, blank=True, editable=False)
    # A phone number or a WeChat ID (or both); e-mail, role and timeline are optional.
    phone = models.CharField(_("phone"), max_length=16, blank=True)  # normalised, E.164
    email = models.EmailField(_("e-mail"), max_length=254, blank=True)
    role = models.CharField(_("job role"), max_length=100, blank=True)
    timeline = models.CharField(_("project timeline"), max_length=10, choices=Timeline.choices,
                                blank=True)
    wechat = models.CharField(_("WeChat ID"), max_length=50, blank=True)
    message = models.TextField(_("message"), max_length=2000, blank=True)
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES)

    # What the visitor was shown: the answers, and in ``frozen_recommendation`` the
    # recommendation snapshot (selector.domain.Recommendation.to_dict(): decision, both
    # fabric plans, BOM, tuning, sources, engine and catalogue versions). Rendered by
    # selector.planner.
    answers = models.JSONField(_("answers"))
    # The answers' total GPUs as a column (answers never change after creation): the staff
    # list filters on it and exports it, and reading it from the JSON costs a TOAST fetch
    # per row on PostgreSQL (leads_lead keeps its JSON out of line, see leads/0011).
    gpus = models.GeneratedField(
        expression=Cast(KT("answers__gpus"), models.IntegerField()),
        output_field=models.IntegerField(_("total GPUs")), db_persist=True)
    recommendation = models.CharField(_("recommendation"), max_length=40)
    rule = models.CharField(_("rule"), max_length=10)
    engine_version = models.CharField(_("engine version"), max_length=40)
    # Named ``sizing`` until leads/0022 (it held a sizing summary in the first release).
    frozen_recommendation = models.JSONField(_("recommendation shown"), default=dict,
                                             blank=True)

    score = models.CharField(_("score"), max_length=10, choices=Score.choices)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices,
                              default=Status.NEW)
    # Sort keys as stored generated columns with their indexes: hot > warm > cold and the
    # pipeline order, so "sort by score/status" is an index walk, not a sort of every row.
    score_rank = models.GeneratedField(expression=_rank("score", Score.values),
                                       output_field=models.SmallIntegerField(),
                                       db_persist=True)
    status_rank = models.GeneratedField(expression=_rank("status", Status.values),
                                        output_field=models.SmallIntegerField(),
                                        db_persist=True)
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

    # The sales workspace (selector.staff.services writes these; see its docstring).
    next_action_kind = models.CharField(_("next action"), max_length=10, blank=True,
                                        choices=NextActionKind.choices)
    next_action_due = models.DateTimeField(_("next action due"), null=True, blank=True)
    next_action_note = models.CharField(_("next action note"), max_length=300, blank=True)
    # First-contact SLA: the deadline is fixed at creation from the score and the working
    # calendar (selector.staff.worktime); first_contact_at is the first logged contact.
    sla_due = models.DateTimeField(_("first contact due"), null=True, blank=True)
    first_contact_at = models.DateTimeField(_("first contact at"), null=True, blank=True)
    # Working minutes from creation to the first contact, in the SLA's calendar: kept when
    # the contact is recorded (selector.leads.worktime.record_first_contact), so the
    # managers' average is one SQL AVG, not a calendar walk per lead.
    first_response_minutes = models.IntegerField(_("first response (working minutes)"),
                                                 null=True, blank=True, editable=False)
    first_contact_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("first contact by"))
    last_activity_at = models.DateTimeField(_("last activity"), null=True, blank=True)
    lost_reason = models.CharField(_("lost reason"), max_length=20, blank=True,
                                   choices=LostReason.choices)
    deal_value = models.DecimalField(_("deal value (CNY)"), max_digits=14, decimal_places=2,
                                     null=True, blank=True)
    # A merged duplicate stays as a pointer to the lead that survived (its customer links
    # and its wizard session keep working); lists and searches leave pointers out.
    merged_into = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="merged_leads",
                                    verbose_name=_("merged into"))
    # An open (not dismissed) DuplicateFlag names this lead, on either side. Kept by
    # selector.leads.duplicates (flag, refresh) wherever flags change, for the list's badge
    # and its "possible duplicates" filter, which would otherwise read every open flag
    # (hundreds of thousands at 200,000 leads) to show 50 leads.
    possible_duplicate = models.BooleanField(_("possible duplicate"), default=False,
                                             editable=False)

    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # The edit counter staff forms carry (selector.staff.services): +1 on every change a
    # person makes (status, deal value, owner, next action, note, activity, merge, an admin
    # correction), never by background work (duplicate flags, snapshots). An edit made on an
    # older version is refused with the current state (no lost update from a stale tab).
    # db_default too: rows written without the ORM (the demo data's COPY) start at 1.
    version = models.PositiveIntegerField(_("version"), default=1, db_default=1,
                                          editable=False)

    class Meta:
        verbose_name = _("lead")
        verbose_name_plural = _("leads")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="lead_status_idx"),
            models.Index(fields=["score", "-created_at"], name="lead_score_idx"),
            models.Index(fields=["recommendation"], name="lead_recommendation_idx"),
            # The list's owner filter, and the managers' pipeline (owner x stage: counts
            # and deal value) read from the index alone.
            models.Index(fields=["owner", "status"], name="lead_owner_idx",
                         include=["deal_value"], condition=models.Q(merged_into__isnull=True)),
            models.Index(fields=["-created_at"], name="lead_created_idx"),
            models.Index(fields=["language"], name="lead_language_idx"),
            models.Index(fields=["utm_source"], name="lead_utm_source_idx"),
            models.Index(fields=["gpus", "-created_at"], name="lead_gpus_created_idx"),
            models.Index(fields=["score_rank", "-created_at", "-id"], name="lead_score_rank_idx"),
            models.Index(fields=["status_rank", "-created_at", "-id"],
                         name="lead_status_rank_idx"),
            # My day and the reminders: a rep's follow-ups by due time (only open, live
            # leads have one: closing or merging a lead clears it). status and merged_into
            # ride along so My day counts a rep's open leads from the index alone.
            models.Index(fields=["owner", "next_action_due"], name="lead_owner_due_idx",
                         condition=models.Q(next_action_due__isnull=False),
                         include=["status", "merged_into"]),
            # My day: a rep's open leads without a next action, newest first.
            models.Index(fields=["owner", "-created_at"], name="lead_owner_open_idx",
                         condition=models.Q(next_action_due__isnull=True,
                                            status__in=OPEN_STATUSES,
                                            merged_into__isnull=True)),
            # SLA: leads nobody has contacted yet, by deadline.
            models.Index(fields=["sla_due"], name="lead_sla_open_idx",
                         condition=models.Q(first_contact_at__isnull=True)),
            # The list's name and company sorts (A–Z and Z–A: one index each, walked
            # either way), keyset pages included.
            models.Index(fields=["name", "id"], name="lead_name_sort_idx"),
            models.Index(fields=["company", "id"], name="lead_company_sort_idx"),
            # The managers' page (selector.staff.queries), each figure index-only: won and
            # lost leads of a period by source and campaign; first contacts of a period by
            # rep; open leads without activity since a cutoff, by owner and oldest first.
            models.Index(fields=["created_at"], name="lead_won_lost_idx",
                         include=["status", "utm_source", "utm_campaign", "deal_value"],
                         condition=models.Q(status__in=[Status.WON, Status.LOST],
                                            merged_into__isnull=True)),
            models.Index(fields=["created_at"], name="lead_first_contact_idx",
                         include=["first_contact_by", "first_contact_at", "sla_due",
                                  "first_response_minutes"],
                         condition=models.Q(first_contact_at__isnull=False,
                                            merged_into__isnull=True)),
            # (PostgreSQL reads an expression index alone only when it also holds the
            # expression's columns.)
            models.Index(Coalesce("last_activity_at", "created_at"), name="lead_stale_idx",
                         include=["owner", "last_activity_at", "created_at"],
                         condition=models.Q(status__in=OPEN_STATUSES,
                                            merged_into__isnull=True)),
            # The list's "possible duplicates" filter, newest first.
            models.Index(fields=["-created_at"], name="lead_duplicate_idx",
                         condition=models.Q(possible_duplicate=True,
                                            merged_into__isnull=True)),
            # Duplicate matching (selector.leads.duplicates): the same company, newest first.
            models.Index(fields=["company_key", "-id"], name="lead_company_key_idx",
                         condition=models.Q(merged_into__isnull=True)),
            models.Index(Lower("email"), name="lead_email_lower_idx"),
            models.Index(Lower("wechat"), name="lead_wechat_lower_idx"),
            models.Index(fields=["phone"], name="lead_phone_idx"),
            # Duplicate matching: company names by trigram similarity (PostgreSQL).
            PostgreSQLIndex(fields=["company_key"], opclasses=["gin_trgm_ops"],
                            name="lead_company_key_trgm", method="gin"),
            # The list's search box, 3+ characters: one trigram index over the search text
            # (selector.leads.search; its statistics target is set in leads/0011).
            PostgreSQLIndex(OpClass(search_text(), name="gin_trgm_ops"), name=SEARCH_INDEX,
                            method="gin"),
            # 1-2 character searches (trigrams need 3): the characters and character pairs
            # of name and company (selector.leads.search.search_grams; leads/0017).
            PostgreSQLIndex(search_grams(), name=GRAMS_INDEX_NAME, method="gin"),
            # The dashboard's lead counts of a period by day, recommendation and source,
            # from the index alone.
            models.Index(fields=["created_at"], include=["recommendation", "utm_source"],
                         name="lead_created_cover_idx"),
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
        ACTIVITY = "activity", _("Activity")
        NEXT_ACTION_SET = "next_action_set", _("Next action set")
        NEXT_ACTION_CLEARED = "next_action_cleared", _("Next action cleared")
        REMINDED = "reminded", _("Reminder sent")
        SLA_BREACHED = "sla_breached", _("First-contact SLA breached")
        DUPLICATE_FLAGGED = "duplicate_flagged", _("Possible duplicate")
        MERGED = "merged", _("Merged")
        EDITED = "edited", _("Edited in the admin")
        CALLBACK_REQUESTED = "callback_requested", _("Call-back requested by the customer")
        CONTACT_REVEALED = "contact_revealed", _("Contact details revealed")

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
        indexes = [models.Index(fields=["lead", "kind"], name="leadevent_lead_kind_idx"),
                   # The managers' audit page lists the contact reveals, newest first.
                   models.Index(fields=["-created_at"], name="leadevent_reveal_idx",
                                condition=models.Q(kind="contact_revealed"))]

    def __str__(self) -> str:
        return f"{self.lead_id} {self.kind}"


class Delivery(models.Model):
    """One message about a lead that must go out once: the customer's report e-mail, the
    sales e-mail, a group-robot message (selector.leads.deliveries). The row is written
    before anything is sent (when the task is scheduled) and claimed ("sending") just
    before the send, so a task that runs twice never sends twice; it ends "sent" or
    "failed", each also on the lead's timeline. Managers see the waiting and failed ones
    in the workspace."""

    class Kind(models.TextChoices):
        REPORT_EMAIL = "report_email", _("Report e-mail to the customer")
        SALES_EMAIL = "sales_email", _("New-lead e-mail to sales")
        SALES_ROBOT = "sales_robot", _("New-lead message to the group robot")
        REMINDER_ROBOT = "reminder_robot", _("Reminder to the group robot")
        REMINDER_EMAIL = "reminder_email", _("Reminder e-mail to the owner")
        ASSIGNED_ROBOT = "assigned_robot", _("Assignment message to the group robot")
        ASSIGNED_EMAIL = "assigned_email", _("Assignment e-mail to the new owner")
        SLA_ROBOT = "sla_robot", _("First-contact SLA escalation to the group robot")
        SLA_EMAIL = "sla_email", _("First-contact SLA escalation e-mail to a manager")
        CALLBACK_ROBOT = "callback_robot", _("Call-back request to the group robot")
        CALLBACK_EMAIL = "callback_email", _("Call-back request e-mail to sales")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")

    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="deliveries")
    kind = models.CharField(_("kind"), max_length=30, choices=Kind.choices)
    # Which one of its kind: "" for the once-per-lead messages, the due time of a
    # reminder, the assignment's event id.
    key = models.CharField(max_length=100, blank=True, default="")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    # The last failure: an exception's class name or a reason, never message text.
    error = models.CharField(_("error"), max_length=100, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        constraints = [models.UniqueConstraint(fields=["lead", "kind", "key"],
                                               name="delivery_once")]
        # The managers' panel: what is not sent, newest first.
        indexes = [models.Index(fields=["created_at"], name="delivery_open_idx",
                                condition=~models.Q(status="sent"))]

    def __str__(self) -> str:
        return f"{self.lead_id} {self.kind} {self.key} {self.status}"


class RobotPace(models.Model):
    """The recent posts to one group robot, shared by every worker, so that posts stay
    under the platform's documented rate (selector.leads.pacing). ``robot`` is a hash of
    the webhook URL (the URL carries the robot's key)."""

    robot = models.CharField(max_length=64, primary_key=True)
    sent = models.JSONField(default=list)  # UNIX times of the posts of the last minute

    class Meta:
        verbose_name = _("group-robot pace")
        verbose_name_plural = _("group-robot paces")

    def __str__(self) -> str:
        return self.robot[:12]


class DuplicateFlag(models.Model):
    """"``lead`` may be a duplicate of ``other``", found when ``lead`` was created
    (selector.leads.duplicates). One row flags both leads; managers merge or dismiss it."""

    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="duplicate_flags")
    other = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="+")
    # Which facts matched: "phone", "email", "company" (with its similarity).
    reasons = models.JSONField(default=list)
    similarity = models.FloatField(null=True, blank=True)
    dismissed_at = models.DateTimeField(null=True, blank=True)
    dismissed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("possible duplicate")
        verbose_name_plural = _("possible duplicates")
        constraints = [models.UniqueConstraint(fields=["lead", "other"],
                                               name="duplicateflag_pair")]
        indexes = [models.Index(fields=["other"], name="duplicateflag_other_idx")]

    def __str__(self) -> str:
        return f"{self.lead_id} ~ {self.other_id}"


class ReportPdf(models.Model):
    """A lead's rendered PDF report in one language and version, and the claim on it.

    One row per (lead, language, version): whoever asks first inserts it (the claim) and
    renders; everyone else who asks meanwhile finds the row without ``content`` and waits
    for it, across processes (selector.leads.report.services.report_pdf). The rows go with the
    lead (they carry the customer's name), and a newer version of the same language
    replaces the older one."""

    lead = models.ForeignKey(Lead, on_delete=models.CASCADE, related_name="report_pdfs")
    language = models.CharField(max_length=10)
    version = models.CharField(max_length=64)
    claim = models.UUIDField(default=uuid.uuid4)  # the render in charge; a new one takes over
    claimed_at = models.DateTimeField()
    content = models.BinaryField(null=True, editable=False)  # None while rendering
    rendered_at = models.DateTimeField(null=True)

    class Meta:
        verbose_name = _("cached report PDF")
        verbose_name_plural = _("cached report PDFs")
        constraints = [models.UniqueConstraint(fields=["lead", "language", "version"],
                                               name="reportpdf_one_per_version")]

    def __str__(self) -> str:
        return f"{self.lead_id} {self.language} {self.version}"


class CalendarDay(models.Model):
    """A day the working calendar treats differently from its weekday: a public holiday
    (no work on a weekday) or a make-up working day (调休: work on a weekend day). Edited in
    the admin each year when the State Council publishes the holiday arrangements; the
    WORK_HOLIDAYS / WORK_EXTRA_DAYS settings are only the defaults, and a day here wins
    over them (selector.leads.worktime.calendar)."""

    class Kind(models.TextChoices):
        HOLIDAY = "holiday", _("Public holiday (no work)")
        WORKDAY = "workday", _("Make-up working day (调休)")

    day = models.DateField(_("date"), unique=True)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=80, blank=True,
                            help_text=_("For example 国庆节 or 春节调休."))

    class Meta:
        ordering = ["day"]
        verbose_name = _("calendar day")
        verbose_name_plural = _("working calendar")

    def __str__(self) -> str:
        return f"{self.day.isoformat()} {self.get_kind_display()}"


class RoutingRule(models.Model):
    """How new leads get an owner, set by a manager (in the admin): round robin over a
    team of active reps, or left in the pool (公海: no owner, any rep may claim it). One
    rule is active at a time (a partial unique constraint); without an active rule new
    leads stay in the pool. ``return_after_hours``: an open lead its owner has not touched
    (no activity, note or status change) for this many working hours (the team's
    calendar) returns to the pool at the next tick (selector.staff.sweeps.return_to_pool);
    empty means never. ``last_owner`` is the round robin's cursor, moved under the rule's
    row lock (selector.leads.routing)."""

    class Mode(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin over the team")
        POOL = "pool", _("Leave in the pool")

    name = models.CharField(_("rule name"), max_length=80)
    mode = models.CharField(_("routing"), max_length=20, choices=Mode.choices,
                            default=Mode.POOL)
    team = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+",
                                  verbose_name=_("team"))
    active = models.BooleanField(_("active"), default=True)
    return_after_hours = models.PositiveIntegerField(
        _("return to the pool after (working hours)"), null=True, blank=True,
        help_text=_("An open lead its owner has not touched for this many working hours "
                    "returns to the pool. Empty: never."))
    last_owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+", editable=False)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("routing rule")
        verbose_name_plural = _("routing rules")
        ordering = ["-active", "name"]
        constraints = [models.UniqueConstraint(fields=["active"],
                                               condition=models.Q(active=True),
                                               name="routingrule_one_active")]

    def __str__(self) -> str:
        return self.name
