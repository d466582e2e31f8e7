"""A lead's quote versions as the workspace lists them: each with its totals and what
changed since the version before (lines added, removed or changed, the discount, the
total)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from selector.quotes.models import Quote, QuoteLine


def _key(line: QuoteLine) -> str:
    return line.part_key or f"~{line.kind}:{line.description}"


@dataclass
class VersionRow:
    quote: Quote
    delta: Decimal | None  # total with VAT minus the previous version's (None for v1)
    changes: list[str] = field(default_factory=list)


def differences(old: list[QuoteLine], new: list[QuoteLine], old_quote: Quote,
                new_quote: Quote) -> list[str]:
    before = {_key(ln): ln for ln in old}
    after = {_key(ln): ln for ln in new}
    added = [k for k in after if k not in before]
    removed = [k for k in before if k not in after]
    changed = [k for k in after if k in before and (
        (after[k].quantity, after[k].unit_price, after[k].discount_percent)
        != (before[k].quantity, before[k].unit_price, before[k].discount_percent))]
    out = []
    if added:
        out.append(ngettext("%(n)s line added", "%(n)s lines added", len(added))
                   % {"n": len(added)})
    if removed:
        out.append(ngettext("%(n)s line removed", "%(n)s lines removed", len(removed))
                   % {"n": len(removed)})
    if changed:
        out.append(ngettext("%(n)s line changed", "%(n)s lines changed", len(changed))
                   % {"n": len(changed)})
    if old_quote.total_discount_percent != new_quote.total_discount_percent:
        out.append(_("total discount %(old)s %% → %(new)s %%") % {
            "old": old_quote.total_discount_percent, "new": new_quote.total_discount_percent})
    if old_quote.valid_until != new_quote.valid_until:
        out.append(_("valid until %(date)s") % {"date": new_quote.valid_until.isoformat()})
    if old_quote.terms != new_quote.terms:
        out.append(_("terms changed"))
    return out


def version_rows(lead) -> list[VersionRow]:
    """The lead's versions, newest first, each compared with the one before it."""
    quotes = list(Quote.objects.filter(lead=lead).prefetch_related("lines")
                  .order_by("version"))
    rows: list[VersionRow] = []
    previous: Quote | None = None
    for quote in quotes:
        if previous is None:
            rows.append(VersionRow(quote, None))
        else:
            rows.append(VersionRow(
                quote, quote.total_amount - previous.total_amount,
                differences(list(previous.lines.all()), list(quote.lines.all()), previous,
                            quote)))
        previous = quote
    return rows[::-1]
