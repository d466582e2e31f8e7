"""The lead list's search text on PostgreSQL: one lower-cased expression over name,
company, e-mail, the phone's digits, the WeChat ID and the report number, served by one
trigram GIN index (staff/0005, rebuilt by staff/0009).

An expression index rather than a stored column: the database keeps it in step with every
insert, update and delete (nothing in Python can forget to), it adds no column to
selector.leads' table, and a later type change of one of the columns just rebuilds it.
The migration builds the index from ``search_text()`` itself, so the query's expression
and the indexed one cannot drift apart."""

from __future__ import annotations

from django.db.models import F, Func, TextField, Value
from django.db.models.functions import Lower, Replace

INDEX_NAME = "lead_search_trgm"
# The planner's row estimate for LIKE '%term%' comes from the expression's histogram; a
# finer one picks the better of "walk created_at, stop at 50" and "bitmap of the matches".
STATISTICS = 1000


class _SpaceJoined(Func):
    """a || ' ' || b ...: the columns are NOT NULL, so no COALESCE per part (Concat adds
    one around every operand, which each recheck of a candidate row would evaluate)."""

    template = "(%(expressions)s)"
    arg_joiner = " || ' ' || "
    output_field = TextField()


def search_text():
    # Phones are stored E.164 ("+8613800138000"): drop the "+" so digits typed with or
    # without it, or with spaces, match (see search_term).
    return Lower(_SpaceJoined(F("name"), F("company"), F("email"),
                              Replace(F("phone"), Value("+"), Value("")), F("wechat"),
                              F("report_number")))


def search_term(q: str) -> str:
    """What to look for in search_text(): lower-cased; a phone number typed with spaces,
    dashes or a leading + becomes its digits."""
    compact = "".join(q.split()).replace("-", "").lstrip("+")
    if compact.isdigit():
        return compact
    return q.lower()
