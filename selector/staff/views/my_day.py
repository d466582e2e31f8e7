"""My day (/staff/): the rep's landing page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from selector.leads.models import NextActionKind
from selector.staff import queries
from selector.staff.access import staff_required
from selector.staff.forms import NextActionForm
from selector.staff.views.lead_list import _label_rows
from selector.staff.views.lead_page import _tomorrow_morning


@require_safe
@staff_required
@never_cache
def my_day(request: HttpRequest) -> HttpResponse:
    """The rep's landing page in /staff/."""
    parts = queries.my_day(request.user)
    _label_rows([lead for key in ("overdue", "today", "hot_unassigned", "open")
                 for lead in parts[key]])
    return render(request, "staff/my_day.html", {
        **parts, "next_form": NextActionForm(initial={"kind": NextActionKind.CALL,
                                                      "due": _tomorrow_morning()}),
        "now": timezone.now()})
