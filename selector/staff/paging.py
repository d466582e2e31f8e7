"""Keyset pagination of the lead list: every matching lead is reachable, at the cost of
one index walk per page whatever its depth (no OFFSET, no count of the whole set).

A page is addressed by the lead it starts after (``after=<public_id>``) or ends before
(``before=<public_id>``). The sort key of that lead is read once (by its unique
public_id), and the page is the next PAGE_SIZE rows in the sort order, read in at most
two index walks that each start exactly at the cursor:

1. the rows sharing the cursor's first key: k1 = v1 AND ((k2 > v2) OR (k2 = v2 AND
   k3 > v3) ...), with the redundant bound k2 >= v2;
2. if the page is not full yet, the rows beyond it: k1 > v1.

(One query with (k1 > v1) OR (k1 = v1 AND ...) can only start the walk at k1 >= v1: for a
sort whose first key has a handful of values, score or status, that is the start of the
cursor's whole score group, tens of thousands of rows before the cursor.) Every sort in
forms.SORTS ends with the primary key, so the order is total and no row is skipped or
repeated between pages, also when leads are added meanwhile.

The count shown above the list is the capped probe of views.CappedCount (exact up to
COUNT_CAP, "more than …" beyond).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import reduce
from operator import or_

from django.db.models import Q, QuerySet

from selector.leads.models import Lead


@dataclass
class KeysetPage:
    object_list: list
    has_next: bool
    has_previous: bool
    after: str | None  # cursor for the next page
    before: str | None  # cursor for the previous page
    first: bool


def _fields(ordering: tuple[str, ...]) -> list[tuple[str, bool]]:
    """("-created_at", "-pk") -> [("created_at", True), ("pk", True)] (name, descending)."""
    return [(name.lstrip("-"), name.startswith("-")) for name in ordering]


def _after(fields: list[tuple[str, bool]], values: dict) -> Q:
    terms = []
    for i, (name, desc) in enumerate(fields):
        equal = {f: values[f] for f, _d in fields[:i]}
        terms.append(Q(**equal, **{f"{name}__{'lt' if desc else 'gt'}": values[name]}))
    first, desc = fields[0]
    bound = Q(**{f"{first}__{'lte' if desc else 'gte'}": values[first]})
    return bound & reduce(or_, terms)


def _following(qs: QuerySet, fields: list[tuple[str, bool]], values: dict,
               ordering: tuple[str, ...], limit: int) -> list:
    """Up to ``limit`` rows of ``qs`` after the cursor ``values`` in ``ordering``."""
    first, desc = fields[0]
    rows = []
    if len(fields) > 1:
        same = Q(**{first: values[first]}) & _after(fields[1:], values)
        rows = list(qs.filter(same).order_by(*ordering)[:limit])
    if len(rows) < limit:
        beyond = Q(**{f"{first}__{'lt' if desc else 'gt'}": values[first]})
        rows += list(qs.filter(beyond).order_by(*ordering)[:limit - len(rows)])
    return rows


def _reverse(ordering: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(name[1:] if name.startswith("-") else f"-{name}" for name in ordering)


def cursor_lead(value: str | None):
    try:
        return uuid.UUID(str(value)) if value else None
    except ValueError:
        return None


def page(qs: QuerySet, ordering: tuple[str, ...], *, size: int, after=None,
         before=None) -> KeysetPage:
    """The page of ``qs`` (already filtered) in ``ordering`` after/before a cursor lead."""
    fields = _fields(ordering)
    names = [name for name, _desc in fields]
    cursor_id = cursor_lead(after) or cursor_lead(before)
    backwards = cursor_lead(after) is None and cursor_lead(before) is not None
    values = None
    if cursor_id is not None:
        values = Lead.objects.filter(public_id=cursor_id).values(*names).first()
    if values is None:
        rows = list(qs.order_by(*ordering)[: size + 1])
        return _make(rows, size, has_previous=False, first=True)
    if backwards:
        rev = _fields(_reverse(ordering))
        rows = _following(qs, rev, values, _reverse(ordering), size + 1)
        more = len(rows) > size
        rows = rows[:size][::-1]
        result = _make(rows, size, has_previous=more, first=not more)
        result.has_next = True
        result.after = str(rows[-1].public_id) if rows else None
        return result
    rows = _following(qs, fields, values, ordering, size + 1)
    return _make(rows, size, has_previous=True, first=False)


def _make(rows: list, size: int, *, has_previous: bool, first: bool) -> KeysetPage:
    has_next = len(rows) > size
    rows = rows[:size]
    return KeysetPage(
        object_list=rows, has_next=has_next, has_previous=has_previous and bool(rows),
        after=str(rows[-1].public_id) if rows and has_next else None,
        before=str(rows[0].public_id) if rows and has_previous else None, first=first)
