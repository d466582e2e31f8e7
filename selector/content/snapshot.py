"""All the marketing content as one read-only snapshot, built once per process for each
state of the content tables and checked with one query per request.

The wizard's result page showed the company profile, the comparison table, the FAQ, the
switch catalogue and the price list: six queries on every request. Now one query reads the
content's ``stamp`` and the rows are read again only when it changes. On PostgreSQL the
stamp is ``content_state.token``, which triggers on every content table move in the same
transaction as any change to a row (migration content/0011); elsewhere it is the rows
themselves. So an edit shows up on the next request in every process, however it was
made: the admin, ``load_content``, a queryset ``update()`` that sends no signal, or SQL by
hand.

Within a request the stamp is asked once (reset when a request starts and ends, and when
this process saves or deletes a content row); outside a request (commands, tests calling
the helpers directly) it is asked on every call, so nothing there can read stale rows.

The rows are shared by every request of the process: callers read them, never change them.
"""

from __future__ import annotations

from dataclasses import dataclass

from asgiref.local import Local
from django.core.signals import request_finished, request_started
from django.db import connection, models
from django.db.models.signals import post_delete, post_save

from selector.content.models import (
    CompanyProfile,
    ComparisonRow,
    ContentBlock,
    FaqEntry,
    Part,
    PriceList,
    Switch,
    UnitPrice,
)
from selector.domain.bom import Prices
from selector.domain.catalogue import Catalogue

# Every table whose rows some page shows. A new content model belongs here.
TABLES: tuple[type[models.Model], ...] = (
    CompanyProfile, ContentBlock, FaqEntry, ComparisonRow, Switch, Part, PriceList, UnitPrice)


@dataclass(frozen=True)
class Content:
    stamp: str
    company: CompanyProfile
    comparison_rows: tuple[ComparisonRow, ...]
    faq: tuple[FaqEntry, ...]  # published entries, in order
    blocks: tuple[ContentBlock, ...]
    catalogue: Catalogue
    prices: Prices | None

    def block(self, key: str) -> ContentBlock | None:
        return next((b for b in self.blocks if b.key == key), None)


_local = Local()
_BY_STAMP: dict[str, Content] = {}


def current() -> Content:
    """The content as it is now (see the module docstring for what "now" costs)."""
    memo = getattr(_local, "content", None)
    if memo is not None:
        return memo
    stamp = _stamp()
    content = _BY_STAMP.get(stamp)
    if content is None:
        content = _build(stamp)
    if getattr(_local, "in_request", False):
        _local.content = content
    return content


def _build(stamp: str) -> Content:
    switches = tuple(s.to_spec() for s in Switch.objects.filter(is_active=True))
    parts = tuple(p.to_spec() for p in Part.objects.filter(is_active=True))
    content = Content(
        stamp=stamp,
        company=CompanyProfile.current(),
        comparison_rows=tuple(ComparisonRow.objects.all()),
        faq=tuple(FaqEntry.objects.filter(is_published=True)),
        blocks=tuple(ContentBlock.objects.all()),
        catalogue=Catalogue(switches, parts),
        prices=PriceList.current(),
    )
    # Kept only if nothing changed while the rows were read (else the next request reads
    # them again): a stamp must never stand for other rows than its own.
    if _stamp() == stamp:
        _BY_STAMP.clear()  # only the current state is worth keeping
        _BY_STAMP[stamp] = content
    return content


def _stamp() -> str:
    """The content's state: on PostgreSQL the token the content tables' triggers keep (one
    row, ~0.1 ms), elsewhere every column of every row of TABLES."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute('SELECT token::text FROM "content_state" WHERE id = 1')
            row = cursor.fetchone()
        if row is not None:
            return str(row[0])
        return _digest()  # the state row was deleted by hand: the rows' digest instead
    return repr([list(model._default_manager.order_by("pk").values_list(
        *[f.attname for f in model._meta.concrete_fields])) for model in TABLES])


def _digest() -> str:
    """Every column of every row of TABLES, digested by PostgreSQL."""
    qn = connection.ops.quote_name
    # Table names from the models, quoted; no value comes from outside.
    parts = ", ".join(
        f"(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t.id), '')) "  # noqa: S608
        f"FROM {qn(model._meta.db_table)} t)" for model in TABLES)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 'digest:' || concat_ws(',', {parts})")  # noqa: S608 - see above
        row = cursor.fetchone()
    return str(row[0])


def _forget(**kwargs: object) -> None:
    _local.content = None


def _request_started(**kwargs: object) -> None:
    _local.in_request = True
    _local.content = None


def _request_finished(**kwargs: object) -> None:
    _local.in_request = False
    _local.content = None


request_started.connect(_request_started, dispatch_uid="content-snapshot-start")
request_finished.connect(_request_finished, dispatch_uid="content-snapshot-finish")
for _model in TABLES:
    post_save.connect(_forget, sender=_model, dispatch_uid=f"content-snapshot-{_model.__name__}")
    post_delete.connect(_forget, sender=_model,
                        dispatch_uid=f"content-snapshot-del-{_model.__name__}")
