"""The columns of the staff lead list and of its exports, each defined once: header label,
list cell, sort orders, the filter that selects one of its values, and its export value.

``LIST_COLUMNS`` is what /staff/leads/ shows, in order (the page's header and cells loop
over it: templates/staff/lead_list.html, _table_rows.html); ``EXPORT_COLUMNS`` is what the
CSV and XLSX files hold, in order (selector.staff.export). A column in both is one object,
so its label cannot drift between the page and the file. Adding a column: define it here,
put it in one or both tuples, translate its label (locale/zh_Hans).

List cells are drawn in Python, once per page (``list_cells``), not by fifty template
includes per page: each is the ``<td>`` the template used to write, user text escaped by
format_html. The sorts (``Sort``) are the only ``?sort=`` values the filter form accepts
(forms.SORTS / SORT_CHOICES come from here); each ends with the primary key, so the order
is total (keyset paging needs that, selector.staff.paging). Export values are text cells
(or the GPU count as int); the spreadsheet writers make every text cell formula-safe
(selector.core.spreadsheet).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from selector.core.explain import FABRIC_SHORT
from selector.core.money import yuan_text
from selector.domain import Fabric
from selector.leads.models import LostReason, NextActionKind, Score, Status, Timeline
from selector.leads.validators import phone_text
from selector.staff.permissions import display_name


@dataclass(frozen=True)
class Sort:
    """One ``?sort=`` value: the ORDER BY it stands for and its name in the sort menu."""

    key: str
    order_by: tuple[str, ...]
    label: str | Promise


@dataclass
class ExportContext:
    """What export values need, made once per file (labels in the file's language)."""

    tz: dt.tzinfo
    labels: dict[str, dict[str, str]]


ListCell = Callable[[Any, Mapping[str, str]], str]
ExportValue = Callable[[Mapping[str, Any], ExportContext], object]


@dataclass(frozen=True, eq=False)
class Column:
    """``field``: the Lead field (a values_list name) the column exports and that its
    filter selects on; ``reads``: the further fields its list cell or export value needs
    (the list reads only the columns it shows: views.lead_list.LIST_FIELDS)."""

    key: str
    label: str | Promise
    field: str = ""
    cell: ListCell | None = None  # the list cell's inner HTML (None: not in the list)
    css: str = ""  # the list cell's class (default cell-<key>)
    data_label: bool = True  # the cell names its column (the narrow layout shows it)
    sorts: tuple[Sort, ...] = ()  # the header's first click, then the second
    filter: str = ""  # the LeadFilterForm field that selects one value of ``field``
    export: ExportValue | None = None  # None: the plain value
    reads: tuple[str, ...] = ()
    contact: bool = False  # exported empty for a lead whose contact the user does not see
    # code -> label, for the export value
    choices: Mapping[str, object] = dataclasses.field(default_factory=dict)

    @property
    def css_class(self) -> str:
        return self.css or f"cell-{self.key}"


# --- list cells (inner HTML of each <td>; ``words``: the page's translated words) ----------

def _created_cell(lead, words) -> str:
    return format_html('<time datetime="{}">{}</time> <span class="muted age">{}</span>',
                       lead.created_iso, lead.created_at_text, lead.age_text)


def _name_cell(lead, words) -> str:
    dup = format_html(' <span class="badge dup">{}</span>', words["dup"]) \
        if lead.possible_duplicate else ""
    return format_html('<a href="{}">{}</a>{}<span class="muted small report-no">{}</span>',
                       lead.detail_url, lead.name, dup, lead.report_number)


def _score_cell(lead, words) -> str:
    sla = format_html(' <span class="badge sla-late" title="{}">SLA</span>', words["sla"]) \
        if lead.sla_breached else ""
    return format_html('<span class="badge score-{}">{}</span>{}', lead.score,
                       lead.score_label, sla)


def _status_cell(lead, words) -> str:
    return format_html('<span class="badge status-{}">{}</span>', lead.status,
                       lead.status_label)


def _owner_cell(lead, words) -> str:
    if lead.owner:
        return format_html("{}", display_name(lead.owner))
    return format_html('<span class="muted">{}</span>', words["unassigned"])


def _next_cell(lead, words) -> str:
    if not lead.next_action_due:
        return mark_safe('<span class="muted">—</span>')
    overdue = format_html('<span class="badge overdue">{}</span> ', words["overdue"]) \
        if lead.overdue else ""
    return format_html('{}{} <time datetime="{}">{}</time>', overdue, lead.next_action_label,
                       lead.due_iso, lead.due_text)


def _source_cell(lead, words) -> str:
    campaign = format_html(" / {}", lead.utm_campaign) if lead.utm_campaign else ""
    return format_html("{}{}", lead.utm_source or "—", campaign)


def _attr(name: str) -> ListCell:
    return lambda lead, words: format_html("{}", getattr(lead, name))


def list_words() -> dict[str, str]:
    """The words list cells repeat, translated once per page."""
    return {"dup": _g("Possible duplicate"), "sla": _g("First-contact SLA missed"),
            "unassigned": _g("Unassigned"), "overdue": _g("Overdue")}


# --- export values -------------------------------------------------------------------------

def _local(name: str) -> ExportValue:
    def value(row, ctx):
        moment = row[name]
        return moment.astimezone(ctx.tz).strftime("%Y-%m-%d %H:%M") if moment else ""
    return value


def _label(name: str) -> ExportValue:
    return lambda row, ctx: ctx.labels[name].get(row[name], row[name])


def _gpus(row, ctx) -> object:
    value = row["gpus"]
    return int(value) if isinstance(value, int | float) else ""


def _deal_value(row, ctx) -> str:
    return yuan_text(row["deal_value"]) if row["deal_value"] is not None else ""


def _next_action(row, ctx) -> str:
    """"电话 · 2026-12-04 10:00 · note" (the kind's label first: never a formula)."""
    kind, due, note = row["next_action_kind"], row["next_action_due"], row["next_action_note"]
    if not kind and due is None:
        return ""
    parts = [ctx.labels["next_action_kind"].get(kind, kind)]
    if due is not None:
        parts.append(due.astimezone(ctx.tz).strftime("%Y-%m-%d %H:%M"))
    if note:
        parts.append(note)
    return " · ".join(parts)


# --- the columns -----------------------------------------------------------------------------

REPORT_NUMBER = Column("report_number", _("Report number"), "report_number")
CREATED = Column(
    "created", pgettext_lazy("staff: when the lead was created", "Created"), "created_at",
    cell=_created_cell, export=_local("created_at"),
    sorts=(Sort("-created", ("-created_at", "-pk"), _("Newest first")),
           Sort("created", ("created_at", "pk"), _("Oldest first"))))
NAME = Column("name", _("Name"), "name", cell=_name_cell, data_label=False,
              reads=("possible_duplicate", "report_number"),
              sorts=(Sort("name", ("name", "pk"), _("Name A–Z")),
                     Sort("-name", ("-name", "-pk"), _("Name Z–A"))))
COMPANY = Column("company", _("Company"), "company", cell=_attr("company"),
                 sorts=(Sort("company", ("company", "pk"), _("Company A–Z")),
                        Sort("-company", ("-company", "-pk"), _("Company Z–A"))))
ROLE = Column("role", _("Job role"), "role")
PHONE = Column("phone", _("Phone"), "phone", contact=True,
               export=lambda row, ctx: phone_text(row["phone"] or ""))
EMAIL = Column("email", _("E-mail"), "email", contact=True)
WECHAT = Column("wechat", _("WeChat ID"), "wechat", contact=True)
TIMELINE = Column("timeline", _("Project timeline"), "timeline", export=_label("timeline"),
                  choices=dict(Timeline.choices))
GPUS = Column("gpus", _("Total GPUs"), "gpus", cell=_attr("gpus"), css="num cell-gpus",
              export=_gpus)
RECOMMENDATION = Column("rec", pgettext_lazy("staff", "Recommendation"), "recommendation",
                        cell=_attr("recommendation_label"), filter="recommendation",
                        export=_label("recommendation"),
                        choices={f.value: FABRIC_SHORT[f] for f in Fabric})
RULE = Column("rule", _("Rule"), "rule")
# Score: hot > warm > cold, newest first within a score; status: pipeline order, newest
# first within a stage. The "-" sorts are the exact reverse order, so both walk the same
# index (lead_score_rank_idx / lead_status_rank_idx, leads/0004), one backwards.
SCORE = Column("score", _("Score"), "score", cell=_score_cell, filter="score",
               export=_label("score"), choices=dict(Score.choices),
               reads=("sla_due", "first_contact_at"),
               sorts=(Sort("score", ("score_rank", "-created_at", "-pk"), _("Hottest first")),
                      Sort("-score", ("-score_rank", "created_at", "pk"),
                           _("Coldest first"))))
STATUS = Column("status", _("Status"), "status", cell=_status_cell, filter="status",
                export=_label("status"), choices=dict(Status.choices),
                sorts=(Sort("status", ("status_rank", "-created_at", "-pk"),
                            _("Pipeline order")),
                       Sort("-status", ("-status_rank", "created_at", "pk"),
                            _("Pipeline order, reversed"))))
DEAL_VALUE = Column("deal_value", _("Deal value"), "deal_value", export=_deal_value)
LOST_REASON = Column("lost_reason", _("Lost because"), "lost_reason",
                     export=_label("lost_reason"), choices=dict(LostReason.choices))
NEXT_ACTION = Column("next", _("Next action"), "next_action_kind", cell=_next_cell,
                     export=_next_action, reads=("next_action_due", "next_action_note"),
                     choices=dict(NextActionKind.choices))
FIRST_CONTACT = Column("first_contact_at", _("First contact at"), "first_contact_at",
                       export=_local("first_contact_at"))
OWNER = Column("owner", _("Owner"), "owner__username", cell=_owner_cell)
LANGUAGE = Column("language", _("Language"), "language", filter="language")
SOURCE = Column("source", _("Source"), "utm_source", cell=_source_cell,
                reads=("utm_campaign",))
UTM_SOURCE = Column("utm_source", "utm_source", "utm_source", filter="source")
UTM_MEDIUM = Column("utm_medium", "utm_medium", "utm_medium")
UTM_CAMPAIGN = Column("utm_campaign", "utm_campaign", "utm_campaign", filter="campaign")
MESSAGE = Column("message", _("Message"), "message")

LIST_COLUMNS: tuple[Column, ...] = (CREATED, NAME, COMPANY, GPUS, RECOMMENDATION, SCORE,
                                    STATUS, OWNER, NEXT_ACTION, SOURCE)
EXPORT_COLUMNS: tuple[Column, ...] = (
    REPORT_NUMBER, CREATED, NAME, COMPANY, ROLE, PHONE, EMAIL, WECHAT, TIMELINE, GPUS,
    RECOMMENDATION, RULE, SCORE, STATUS, DEAL_VALUE, LOST_REASON, NEXT_ACTION, FIRST_CONTACT,
    OWNER, LANGUAGE, UTM_SOURCE, UTM_MEDIUM, UTM_CAMPAIGN, MESSAGE)
# Every column, once (the list's and the export's).
LEAD_COLUMNS: tuple[Column, ...] = tuple(dict.fromkeys((*LIST_COLUMNS, *EXPORT_COLUMNS)))

# The accepted ``?sort=`` values, in the sort menu's order; the default first.
SORTS: dict[str, tuple[str, ...]] = {s.key: s.order_by for c in LIST_COLUMNS for s in c.sorts}
SORT_CHOICES: tuple[tuple[str, str | Promise], ...] = tuple(
    (s.key, s.label) for c in LIST_COLUMNS for s in c.sorts)
DEFAULT_SORT = "-created"
# Filter form field -> the column it selects one value of (queries.filtered_leads).
EXACT_FILTERS: dict[str, str] = {c.filter: c.field for c in LEAD_COLUMNS if c.filter}


def list_fields() -> tuple[str, ...]:
    """The Lead fields the list's cells read, besides the row's own (queries.ROW_COLUMNS)."""
    return tuple(dict.fromkeys(
        name for c in LIST_COLUMNS for name in (c.field, *c.reads)
        if c.field and "__" not in name))


def headers(sort: str, base_query: str) -> list[dict]:
    """The list's header cells: label, and for a sortable column the link that sorts by it
    (first click: its first sort; on a column sorted so, the reverse) and its aria-sort."""
    out = []
    for column in LIST_COLUMNS:
        head: dict[str, object] = {"label": column.label, "url": "", "state": ""}
        if column.sorts:
            first, second = column.sorts[0].key, column.sorts[1].key
            target = second if sort == first else first
            state = "ascending" if sort == first else "descending" if sort == second \
                else "none"
            if first.startswith("-"):  # newest first is "descending" in time
                state = {"ascending": "descending", "descending": "ascending"}.get(state, state)
            head["url"] = "?" + (base_query + "&" if base_query else "") + f"sort={target}"
            head["state"] = state
        out.append(head)
    return out


def list_cells(leads: Iterable) -> None:
    """``lead.cells``: each list column's ``<td>`` of each row (after
    views.lead_list._label_rows gave the rows their per-page texts)."""
    words = list_words()
    shells = [(c.cell, c.css_class, str(c.label) if c.data_label else None)
              for c in LIST_COLUMNS if c.cell is not None]
    for lead in leads:
        cells = []
        for cell, css, label in shells:
            inner = cell(lead, words)
            if label is None:
                cells.append(format_html('<td class="{}">{}</td>', css, inner))
            else:
                cells.append(format_html('<td class="{}" data-label="{}">{}</td>', css, label,
                                         inner))
        lead.cells = SafeString("\n        ".join(cells))


def export_context(tz: dt.tzinfo) -> ExportContext:
    return ExportContext(tz=tz, labels={
        c.field: {code: str(label) for code, label in c.choices.items()}
        for c in EXPORT_COLUMNS if c.choices})
