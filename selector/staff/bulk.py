"""The lead list's bulk change on "all N leads that match this filter", not only the
page's ticked rows (issue 24): one background job on the hand-over's machinery (a
staff.Handover row of kind "bulk", its progress and its summary to the new owner), run by
the task worker (``bulk_change``, a task of this module: it builds on staff.tasks).

- **Which leads**: the list's filter as posted (its query parameters, kept on the job and
  validated again by LeadFilterForm), as the actor sees it at the moment the job was
  queued (``created_at``: "overdue" is counted then, leads created later are out), cut to
  the leads the actor may work on (access.workable_scope: a rep's own, a manager's all).
  ``total`` is one COUNT of that set when the job is queued.
- **Each lead** goes through services.lead_bulk_change (lead_change_status /
  lead_assign: the role rules, the row lock, an audited event carrying the job's id),
  checked against the version the job read: a lead changed meanwhile, or one the
  services refuse, is left as it is and counted in ``skipped``.
- **Batches** of BATCH leads in primary-key order, a transaction each, which also moves
  ``done`` and ``last_pk``: a worker that dies mid-job resumes after the last batch, and
  a second run of a finished job changes nothing.
- **Messages**: once the job is done (claimed by one conditional UPDATE, so only one run
  sends them), the new owner gets one summary of the leads now theirs
  (staff.tasks.assigned_many, as after a hand-over), and each other person whose leads
  changed gets one message about them; the actor is not told of their own change.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, QuerySet
from django.http import QueryDict
from django.tasks import task
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from selector.core.siteurl import site_url
from selector.leads import notify, people
from selector.leads.models import Lead, LeadEvent, Status
from selector.staff import messaging, permissions, queries, services, tasks
from selector.staff.access import workable_scope
from selector.staff.forms import LeadFilterForm
from selector.staff.models import Handover

BATCH = 200
# The list's own paging parameters are not part of the filter.
NOT_FILTERS = ("after", "before")
SUMMARY_LINES = 10
REFUSED = (services.StaleLead, services.AlreadyTaken, PermissionDenied, ValidationError)


def filter_params(query_string: str) -> dict[str, list[str]]:
    """The list's filter from its query string (the bulk form's ``next_query``)."""
    params = QueryDict(query_string[:2000])
    return {name: params.getlist(name) for name in params if name not in NOT_FILTERS}


def matching_leads(filters: dict[str, list[str]], user, now) -> QuerySet[Lead]:
    """The leads a bulk job on ``filters`` changes for ``user`` (see the module doc)."""
    data = QueryDict(mutable=True)
    for name, values in filters.items():
        data.setlist(name, values)
    form = LeadFilterForm(data, user=user)
    if not form.is_valid():
        raise ValidationError(gettext_lazy("Some filters are not valid; correct them to "
                                           "see leads."))
    qs = queries.filtered_leads(form.cleaned_data, user, now).filter(created_at__lte=now)
    scope = workable_scope(user)
    return (qs if scope is None else qs.filter(scope)).order_by("pk")


def bulk_job_start(*, actor, filters: dict[str, list[str]], status: str = "", owner=None,
                   set_owner: bool = False, expected: int | None = None) -> Handover:
    """Queue the bulk change of every lead matching ``filters`` (status and/or owner;
    ``owner`` None with ``set_owner``: unassign). ``expected``: the count the person was
    shown; a filter that matches another number now is refused, so nobody changes a set
    they did not see."""
    if not permissions.can_bulk_change(actor):
        raise PermissionDenied
    if not status and not set_owner:
        raise ValidationError(gettext_lazy("Choose a status or an owner to set."))
    if status and status not in Status.values:
        raise ValidationError({"status": "Unknown status."})
    if owner is not None and not permissions.is_staff_member(owner):
        raise ValidationError({"owner": "The owner must be a member of the sales team."})
    with transaction.atomic():
        job = Handover.objects.create(kind=Handover.Kind.BULK, actor=actor,
                                      to_user=owner if set_owner else None,
                                      set_owner=set_owner, new_status=status or "",
                                      filters=filters)
        total = matching_leads(filters, actor, job.created_at).count()
        if expected is not None and total != expected:
            raise ValidationError(
                gettext_lazy("The filter now matches %(now)s leads, not %(shown)s: look at "
                             "the list again and repeat the change."),
                params={"now": total, "shown": expected})
        Handover.objects.filter(pk=job.pk).update(total=total)
        job.total = total
        pk = job.pk
        transaction.on_commit(lambda: bulk_change.enqueue(pk), robust=True)
    return job


@task
def bulk_change(job_pk: int) -> str:
    job = Handover.objects.select_related("actor", "to_user").filter(
        pk=job_pk, kind=Handover.Kind.BULK).first()
    return "gone" if job is None else run_bulk_job(job)


def run_bulk_job(job: Handover) -> str:
    """Run (or resume) a queued bulk job; see the module doc."""
    if job.status == Handover.Status.DONE:
        return "done"
    actor = job.actor
    owner = job.to_user if job.set_owner else None
    try:
        if actor is None or not permissions.can_bulk_change(actor):
            raise PermissionDenied
        leads = matching_leads(job.filters, actor, job.created_at)
    except (PermissionDenied, ValidationError):
        Handover.objects.filter(pk=job.pk).update(status=Handover.Status.FAILED,
                                                  finished_at=timezone.now())
        return "failed"
    Handover.objects.filter(pk=job.pk).exclude(status=Handover.Status.DONE).update(
        status=Handover.Status.RUNNING)
    audit = {"bulk_job": job.pk}
    cursor = job.last_pk
    while True:
        batch = list(leads.filter(pk__gt=cursor).select_related("owner")[:BATCH])
        if not batch:
            break
        skipped = 0
        with transaction.atomic():
            for lead in batch:
                try:
                    services.lead_bulk_change(
                        lead=lead, actor=actor, status=job.new_status or None, owner=owner,
                        set_owner=job.set_owner, version=lead.version, audit=audit)
                except REFUSED:
                    skipped += 1
            cursor = batch[-1].pk
            Handover.objects.filter(pk=job.pk).update(
                done=F("done") + len(batch), skipped=F("skipped") + skipped, last_pk=cursor)
    claimed = Handover.objects.filter(pk=job.pk).exclude(status=Handover.Status.DONE).update(
        status=Handover.Status.DONE, finished_at=timezone.now())
    if claimed:
        _tell(job, actor, owner)
    return "done"


def _tell(job: Handover, actor, owner) -> None:
    """One message per person whose leads the job changed (see the module doc)."""
    events = list(LeadEvent.objects.filter(actor_id=actor.pk, data__bulk_job=job.pk)
                  .order_by("pk").values_list("pk", "kind", "lead_id", "lead__public_id",
                                              "lead__owner_id", "data"))
    moved = [(pk, public_id) for pk, kind, _lead, public_id, _owner, _data in events
             if kind == LeadEvent.Kind.OWNER_CHANGED]
    if owner is not None and owner.pk != actor.pk and moved:
        tasks.schedule_assigned_many(owner.pk, [str(public_id) for _pk, public_id in moved],
                                     moved[0][0])
    # Whose lead each changed lead was: the previous owner of a moved lead, else its owner.
    before: dict[int, str | int | None] = {}
    for _pk, kind, lead_id, _public_id, owner_id, data in events:
        if kind == LeadEvent.Kind.OWNER_CHANGED:
            before[lead_id] = data.get("from")
        else:
            before.setdefault(lead_id, owner_id)
    names = {value for value in before.values() if isinstance(value, str)}
    users = {user.get_username(): user for user in get_user_model().objects.filter(
        username__in=names)} if names else {}
    ids = {value for value in before.values() if isinstance(value, int)}
    by_pk = get_user_model().objects.in_bulk(ids) if ids else {}
    affected: dict[int, tuple[Any, list[int]]] = {}
    for lead_id, who in before.items():
        user = users.get(who) if isinstance(who, str) else by_pk.get(who) \
            if isinstance(who, int) else None
        if user is None or user.pk == actor.pk or (owner is not None and user.pk == owner.pk):
            continue
        affected.setdefault(user.pk, (user, []))[1].append(lead_id)
    for person, lead_ids in affected.values():
        with translation.override(messaging.profile(person).language):
            message = _changed_message(job, actor, owner, person, lead_ids)
        messaging.send(person, message, message.title)


def change_text(job: Handover, owner) -> list[str]:
    """What the job sets, in the active language ("Status: Contacted", "Owner: 王芳")."""
    parts = []
    if job.new_status:
        parts.append(_("Status: %(status)s") % {"status": Status(job.new_status).label})
    if job.set_owner:
        parts.append(_("Owner: %(owner)s") % {
            "owner": permissions.display_name(owner) if owner else _("Unassigned")})
    return parts


def _changed_message(job: Handover, actor, owner, user, lead_ids: list[int]):
    mention = people.mentions([user])
    leads = list(Lead.objects.filter(pk__in=lead_ids).order_by("-score_rank", "created_at")
                 [:SUMMARY_LINES])
    lines = [" · ".join(change_text(job, owner)), *(messaging.lead_line(lead) for lead in leads)]
    if len(lead_ids) > len(leads):
        lines.append(_("… and %(count)s more.") % {"count": len(lead_ids) - len(leads)})
    with translation.override(settings.LANGUAGE_CODE):
        link = site_url() + reverse("staff:lead_list") + "?owner=mine"
    return notify.Message(
        title=_("%(actor)s changed %(count)s of your leads") % {
            "actor": permissions.display_name(actor), "count": len(lead_ids)},
        lines=tuple(lines), link=link, link_text=_("Open the lead list"), **mention,
        event="lead.bulk_changed", facts={"count": len(lead_ids)})
