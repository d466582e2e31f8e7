"""The rows of the lead list and of My day, drawn with Jinja2 (templates/staff/rows/).

A page shows up to 50 (the list) or 170 (My day) rows of a dozen values each; drawn by
the template language those rows were about half of the list's Python calls. Jinja2
compiles a template to Python, so a row costs a few calls per value. The values are
made once per page by views._label_rows; the words every row repeats come translated
(the same messages, with their contexts, as the templates used). Autoescape is on: user
text is escaped by MarkupSafe, and Django's safe strings (the CSRF input) pass as they are
(both understand ``__html__``). tests/staff/test_rows.py compares the markup with what the
template language drew.
"""

from __future__ import annotations

import jinja2
from django.conf import settings
from django.template.backends.utils import csrf_input
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, pgettext

_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(settings.BASE_DIR / "templates" / "staff" / "rows"),
    autoescape=True, auto_reload=settings.DEBUG, undefined=jinja2.StrictUndefined)


def _words() -> dict[str, str]:
    """Words every row repeats, translated once per page (active language)."""
    return {
        "created": pgettext("staff: when the lead was created", "Created"),
        "company": gettext("Company"), "gpus": gettext("Total GPUs"),
        "rec": pgettext("staff", "Recommendation"), "score": gettext("Score"),
        "status": gettext("Status"), "owner": gettext("Owner"),
        "next": gettext("Next action"), "source": gettext("Source"),
        "dup": gettext("Possible duplicate"), "sla": gettext("First-contact SLA missed"),
        "unassigned": gettext("Unassigned"), "overdue": gettext("Overdue"),
        "take": gettext("Take"),
    }


def table_rows(leads, *, bulk: bool) -> SafeString:
    """The list's <tr> rows (with a selection box when bulk editing is offered)."""
    html = _ENV.get_template("table_rows.jinja").render(leads=leads, bulk=bulk, t=_words())
    return mark_safe(html)  # noqa: S308 (autoescaped template)


def day_rows(request, leads, *, empty: str, take: bool = False) -> SafeString:
    """One My day section's list; with ``take``, a "Take" button per lead that comes
    back to this page."""
    html = _ENV.get_template("day_rows.jinja").render(
        leads=leads, empty=empty, take=take, t=_words(),
        csrf_input=csrf_input(request) if take else "",
        next=request.get_full_path() if take else "")
    return mark_safe(html)  # noqa: S308 (autoescaped template)
