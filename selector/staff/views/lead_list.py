"""The lead list (/staff/leads/): filters, sorting, keyset pages, bulk edits; and the
per-page labels its rows and My day's share (``_label_rows``)."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.timesince import TIME_STRINGS, timesince
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from selector.core.explain import FABRIC_SHORT
from selector.core.htmx import HtmxHttpRequest
from selector.domain import Fabric
from selector.leads.models import Lead, NextActionKind, Score, Status
from selector.staff import bulk, columns, paging, permissions, queries, services
from selector.staff.access import staff_required, workable_scope
from selector.staff.forms import BulkForm, LeadFilterForm, owner_choices

PAGE_SIZE = 50
_ZERO_UUID = uuid.UUID(int=0)
# Counting every match of a broad filter over 200,000 leads costs more than the page; the
# count stops here and the page says "more than 1,000". Paging is by keyset
# (selector.staff.paging), so every matching lead stays reachable whatever the count.
COUNT_CAP = 1_000


# The fields the list reads (the row's own, the owner's name, and what its columns show,
# selector.staff.columns): the rest of the row, the big JSON snapshot above all, stays in
# the database.
LIST_FIELDS = tuple(dict.fromkeys((*queries.ROW_COLUMNS, *queries.OWNER_NAME_COLUMNS,
                                   *columns.list_fields())))


class CappedCount:
    """The number of matches, exact up to COUNT_CAP.

    One unordered probe, ``SELECT id ... LIMIT cap + 1`` (nothing to sort to count, so a
    broad filter stops at its first matches and a narrow search reads only its trigram
    candidates). When it found them all (a narrow filter), pages are read by primary key
    from those ids, so the page query cannot walk the created_at index through 200,000
    rows looking for 50 rare matches."""

    def __init__(self, qs):
        self.probe = list(qs.order_by().values_list("pk", flat=True)[: COUNT_CAP + 1])
        self.count = len(self.probe)
        self.capped = self.count > COUNT_CAP

    def narrowed(self, qs):
        return qs if self.capped else qs.filter(pk__in=self.probe)



def _filter_form(request, owners=None):
    return LeadFilterForm(request.GET or None, user=request.user, owners=owners)


def _query_without(request, *names: str) -> str:
    params = request.GET.copy()
    for name in names:
        params.pop(name, None)
    return params.urlencode()


@require_safe
@staff_required
@never_cache
def lead_list(request: HtmxHttpRequest) -> HttpResponse:
    is_manager = permissions.is_manager(request.user)
    owners = owner_choices() if is_manager else []
    form = _filter_form(request, owner_choices(former=True) if is_manager else [])
    status = 200
    page = counted = None
    can_bulk = permissions.can_bulk_change(request.user)
    total: int | None = 0
    sort = columns.DEFAULT_SORT
    if form.is_bound and not form.is_valid():
        status = 400
    else:
        cleaned = form.cleaned_data if form.is_bound else {}
        sort = cleaned.get("sort") or columns.DEFAULT_SORT
        qs = queries.filtered_leads(cleaned, request.user)
        counted = CappedCount(qs)
        page = paging.page(counted.narrowed(qs).select_related("owner").only(*LIST_FIELDS),
                           queries.SORTS[sort], size=PAGE_SIZE,
                           after=request.GET.get("after"), before=request.GET.get("before"))
        _label_rows(page.object_list)
        columns.list_cells(page.object_list)
        if can_bulk and page.object_list:
            total = bulk_total(qs, counted, request.user)
    context = {
        "form": form,
        "page": page,
        "counted": counted,
        "query": _query_without(request, "after", "before"),
        "query_no_sort": _query_without(request, "after", "before", "sort"),
        "sort": sort,
        "headers": columns.headers(sort, _query_without(request, "after", "before", "sort")),
        "count_cap": COUNT_CAP,
        "is_manager": is_manager,
        "can_export": permissions.can_export(request.user),
        "bulk_form": BulkForm(owners=owners) if can_bulk else None,
        "bulk_total": total,
        "bulk_mine_only": workable_scope(request.user) is not None,
    }
    template = "staff/lead_list.html"
    if request.htmx and not request.htmx.history_restore_request:
        template += "#results"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


class _UnitText:
    """One of timesince()'s unit strings ("%(num)d days") for one page: each number is
    translated once, where Django's own resolves a lazy ngettext for every row."""

    def __init__(self, text):
        self.text = text
        self.done: dict[int, str] = {}

    def __mod__(self, params: dict) -> str:
        num = params["num"]
        done = self.done.get(num)
        if done is None:
            done = self.done[num] = str(self.text % params)
        return done


def page_time_strings() -> dict:
    """time_strings for django.utils.timesince.timesince: the same text, made once per page."""
    return {name: _UnitText(text) for name, text in TIME_STRINGS.items()}


def _local_texts(value: datetime, formats: tuple[str, ...]) -> tuple[str, ...]:
    """``value|date:'c'`` and other ``|date`` formats of a row, from one conversion to
    local time (the filter converts and parses its format once per cell)."""
    local = timezone.localtime(value)
    return tuple(local.isoformat() if f == "c" else local.strftime(f) for f in formats)


def _label_rows(leads) -> None:
    """Translated labels, flags, times and the detail link made once per page, not per row
    in the template (one reverse() and a string replace instead of fifty reverse() calls;
    each word translated once)."""
    placeholder = str(_ZERO_UUID)
    detail_url = reverse("staff:lead_detail", args=[placeholder])
    take_url = reverse("staff:lead_take", args=[placeholder])
    fabrics = {f.value: str(FABRIC_SHORT[f]) for f in Fabric}
    statuses = {k: str(v) for k, v in Status.choices}
    scores = {k: str(v) for k, v in Score.choices}
    actions = {k: str(v) for k, v in NextActionKind.choices}
    ago, created_ago = _("%(age)s ago"), _("created %(age)s ago")
    units = page_time_strings()
    now = timezone.now()
    for lead in leads:
        lead.recommendation_label = fabrics.get(lead.recommendation, lead.recommendation)
        lead.status_label = statuses.get(lead.status, lead.status)
        lead.score_label = scores.get(lead.score, lead.score)
        lead.detail_url = detail_url.replace(placeholder, str(lead.public_id))
        lead.take_url = take_url.replace(placeholder, str(lead.public_id))
        age = timesince(lead.created_at, now, time_strings=units)
        lead.age_text = ago % {"age": age}
        lead.created_text = created_ago % {"age": age}
        lead.created_iso, lead.created_at_text = _local_texts(
            lead.created_at, ("c", "%Y-%m-%d %H:%M"))
        lead.next_action_label = actions.get(lead.next_action_kind, "")
        lead.due_iso = lead.due_text = ""
        if lead.next_action_due:
            lead.due_iso, lead.due_text = _local_texts(lead.next_action_due,
                                                        ("c", "%m-%d %H:%M"))
        lead.overdue = bool(lead.next_action_due and lead.next_action_due < now)
        lead.sla_breached = bool(lead.first_contact_at is None and lead.sla_due
                                 and lead.sla_due < now and lead.status in OPEN)


OPEN = {s.value for s in Status if s not in (Status.WON, Status.LOST)}


@require_POST
@staff_required
def lead_bulk(request: HtmxHttpRequest) -> HttpResponse:
    """The bulk change: the ticked leads at once (all or nothing), or all that match the
    list's filter as one background job (selector.staff.bulk), whose progress page
    follows (an htmx post is sent there with HX-Redirect)."""
    if not permissions.can_bulk_change(request.user):
        raise PermissionDenied
    form = BulkForm(request.POST, owners=None if permissions.is_manager(request.user) else [])
    next_query = request.POST.get("next_query", "")[:2000]
    back = reverse("staff:lead_list") + ("?" + next_query if next_query else "")
    if not form.is_valid():
        for error in form.errors.values():
            messages.error(request, " ".join(str(message) for message in error))
        return _go(request, back)
    owner_choice = form.cleaned_data.get("owner")
    change = {"status": form.cleaned_data.get("status") or "", "owner": form.owner_user(),
              "set_owner": bool(owner_choice)}
    try:
        if form.cleaned_data["scope"] == BulkForm.ALL:
            job = bulk.bulk_job_start(actor=request.user, filters=bulk.filter_params(next_query),
                                      expected=form.cleaned_data.get("expected"), **change)
            return _go(request, reverse("staff:bulk_job", args=[job.pk]))
        leads = list(Lead.objects.filter(public_id__in=form.cleaned_data["leads"])
                     .select_related("owner"))
        changed = services.leads_bulk_update(leads=leads, actor=request.user,
                                             status=change["status"] or None,
                                             owner=change["owner"],
                                             set_owner=change["set_owner"])
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return _go(request, back)
    messages.success(request, _("%(count)s leads changed.") % {"count": changed})
    return _go(request, back)


def _go(request: HtmxHttpRequest, url: str) -> HttpResponse:
    """After the bulk form: the page ``url``, the whole page for an htmx post too."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


def bulk_total(qs, counted: CappedCount, user) -> int | None:
    """N of the bulk form's "all N leads that match this filter", where it costs no COUNT
    over the table: the probe's count when it found every match, narrowed to what the user
    may change (a rep: his own, counted among the probe's ids). None when there are more
    than COUNT_CAP: the form then offers "all that match" without a number, and the job
    counts them when it is queued and shows N on its page (an exact COUNT on every list
    page cost 100-250 ms at 200,000 leads, over the list's budget)."""
    if counted.capped:
        return None
    scope = workable_scope(user)
    if scope is None:
        return counted.count
    return qs.filter(scope, pk__in=counted.probe).order_by().count()
