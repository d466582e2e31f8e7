"""CSV and XLSX export of the filtered lead list, streamed in bounded memory.

Formula injection (OWASP "CSV Injection"): a cell whose text starts with ``=``, ``@``, a
tab or a carriage return, or with ``+``/``-`` followed by anything but digits and spaces,
could be run as a formula by a spreadsheet. A ``+`` or ``-`` followed only by digits and
spaces is a phone number or a plain number, not a formula: it is left alone. Phone numbers
are written in the international format with spaces (``+86 138 0013 8000``): Excel, WPS
and LibreOffice read that as text (a bare ``+8613800138000`` would become the number
8613800138000, losing the ``+``), and dialling apps ignore the spaces.
(tests/staff/test_export_spreadsheet.py opens both files in LibreOffice to prove it.)

- **CSV**: a dangerous cell is written with one leading apostrophe (``'=1+1``), as OWASP
  recommends; so is a cell that itself starts with an apostrophe, which makes the rule
  reversible. *Exact text* for CSV means: read the file with any CSV reader (UTF-8 with
  BOM), and for every cell that starts with ``'`` drop that one character
  (``unneutralise_csv``) — the result equals the stored text, character for character.
- **XLSX**: every text is written as an explicit string cell (never a formula), and
  the dangerous ones also get Excel's own *quote prefix* cell style — what Excel itself
  does when a user types ``'=1+1`` — so re-editing the cell in Excel keeps it text.
  *Exact text* for XLSX means: the cell value read back equals the stored text with
  nothing to strip (control characters such as CR are stored as the standard OOXML
  ``_x000D_`` escape, which Excel decodes; with openpyxl apply
  ``openpyxl.utils.escape.unescape``).

Both stream rows from ``.iterator(chunk_size=2000)`` through a StreamingHttpResponse, so
the first byte leaves at once whatever the size. XLSX is SpreadsheetML written row by row
(inline strings, no shared-string table) into a ZIP that the standard library's zipfile
writes to a non-seekable stream (data descriptors instead of seeking back).
``on_done(rows)`` is called with the number of data rows when the last byte has been
produced (the export log records it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from selector.core.explain import FABRIC_SHORT
from selector.core.money import yuan_text
from selector.core.spreadsheet import (  # noqa: F401 (re-exported: quotes and the tests)
    DANGEROUS_PREFIXES,
    csv_lines,
    is_dangerous,
    neutralise_csv,
    unneutralise_csv,
    xlsx_parts,
)
from selector.domain import Fabric
from selector.leads.models import LostReason, NextActionKind, Score, Status, Timeline
from selector.leads.validators import phone_text

CHUNK_SIZE = 2000

COLUMNS = (
    ("report_number", _("Report number")),
    ("created_at", pgettext_lazy("staff: when the lead was created", "Created")),
    ("name", _("Name")),
    ("company", _("Company")),
    ("role", _("Job role")),
    ("phone", _("Phone")),
    ("email", _("E-mail")),
    ("wechat", _("WeChat ID")),
    ("timeline", _("Project timeline")),
    ("gpus", _("Total GPUs")),
    ("recommendation", pgettext_lazy("staff", "Recommendation")),
    ("rule", _("Rule")),
    ("score", _("Score")),
    ("status", _("Status")),
    ("deal_value", _("Deal value")),
    ("lost_reason", _("Lost because")),
    ("next_action_kind", _("Next action")),
    ("first_contact_at", _("First contact at")),
    ("owner__username", _("Owner")),
    ("language", _("Language")),
    ("utm_source", "utm_source"),
    ("utm_medium", "utm_medium"),
    ("utm_campaign", "utm_campaign"),
    ("message", _("Message")),
)
# Read for a column without one of their own (the next action's due time and note).
EXTRA_FIELDS = ("next_action_due", "next_action_note")
FIELDS = (*(name for name, _label in COLUMNS), *EXTRA_FIELDS)
# Left empty on the leads whose contact the exporting user does not see (the queryset's
# ``contact_shown`` annotation: selector.staff.views.exports).
CONTACT_FIELDS = frozenset({"phone", "email", "wechat"})


def header() -> list[str]:
    return [str(label) for _name, label in COLUMNS]


def rows(queryset) -> Iterator[list]:
    """Export rows (text cells, GPU count as int) in the active language."""
    choices: dict[str, Mapping[str, object]] = {
        "status": dict(Status.choices), "score": dict(Score.choices),
        "timeline": dict(Timeline.choices), "lost_reason": dict(LostReason.choices),
        "recommendation": {f.value: FABRIC_SHORT[f] for f in Fabric},
    }
    labels = {k: {code: str(v) for code, v in m.items()} for k, m in choices.items()}
    index = {name: i for i, name in enumerate(FIELDS)}
    tz = timezone.get_current_timezone()
    scoped = "contact_shown" in queryset.query.annotations
    fields = (*FIELDS, "contact_shown") if scoped else FIELDS
    for values in queryset.values_list(*fields).iterator(chunk_size=CHUNK_SIZE):
        row = []
        hidden = scoped and not values[-1]
        for name, _label in COLUMNS:
            value = values[index[name]]
            if hidden and name in CONTACT_FIELDS:
                value = ""
            elif name in ("created_at", "first_contact_at"):
                value = value.astimezone(tz).strftime("%Y-%m-%d %H:%M") if value else ""
            elif name == "deal_value":
                value = yuan_text(value) if value is not None else ""
            elif name == "next_action_kind":
                value = _next_action(value, values[index["next_action_due"]],
                                     values[index["next_action_note"]], tz)
            elif name in labels:
                value = labels[name].get(value, value)
            elif name == "gpus":
                value = int(value) if isinstance(value, int | float) else ""
            elif name == "phone":
                value = phone_text(value or "")
            row.append("" if value is None else value)
        yield row


def _next_action(kind: str, due, note: str, tz) -> str:
    """"电话 · 2026-12-04 10:00 · note" (the kind's label first: never a formula)."""
    if not kind and due is None:
        return ""
    parts = [str(dict(NextActionKind.choices).get(kind, kind))]
    if due is not None:
        parts.append(due.astimezone(tz).strftime("%Y-%m-%d %H:%M"))
    if note:
        parts.append(note)
    return " · ".join(parts)


def csv_chunks(queryset, on_done: Callable[[int], None] | None = None) -> Iterator[bytes]:
    """The CSV, streamed. The generator runs after the view returned, so it keeps the
    request's language itself."""
    return _with_language(_csv_lines(queryset, on_done), translation.get_language())


def xlsx_chunks(queryset, title: str,
                on_done: Callable[[int], None] | None = None) -> Iterator[bytes]:
    return _with_language(_xlsx_parts(queryset, str(title), on_done),
                          translation.get_language())


def _with_language(chunks: Iterator[bytes], language: str) -> Iterator[bytes]:
    with translation.override(language):
        yield from chunks


def _csv_lines(queryset, on_done) -> Iterator[bytes]:
    return csv_lines(header(), rows(queryset), on_done)


def _xlsx_parts(queryset, title: str, on_done) -> Iterator[bytes]:
    return xlsx_parts(header(), rows(queryset), title, on_done)
