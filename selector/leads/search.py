"""The lead list's search text on PostgreSQL: one lower-cased expression over name,
company, e-mail, the phone's digits, the WeChat ID and the report number, served by one
trigram GIN index declared in ``Lead.Meta.indexes`` (``lead_search_trgm``).

An expression index rather than a stored column: the database keeps it in step with every
insert, update and delete (nothing in Python can forget to) and a later type change of one
of the columns just rebuilds it. The model's index and the staff list's query
(selector.staff.queries.search_anywhere) both use ``search_text()``, so the indexed
expression and the searched one cannot drift apart; a changed expression shows up in
``makemigrations`` as a new migration.

Built from Django's own expressions only (no class of ours), so a migration that records
the index holds the whole expression and keeps its meaning when this module changes."""

from __future__ import annotations

import re

import phonenumbers
from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import ValidationError
from django.db.models import ExpressionWrapper, F, Func, TextField, Value
from django.db.models.functions import Lower, Replace

from selector.leads.validators import normalize_phone

INDEX_NAME = "lead_search_trgm"
# What people type around a phone number's digits (half- and full-width), and a "+".
_PHONE_PUNCTUATION = re.compile(r"[\s\-‐–—－.．()（）/+＋]")
# The planner's row estimate for LIKE '%term%' comes from the expression's histogram; a
# finer one picks the better of "walk created_at, stop at 50" and "bitmap of the matches".
# Set by leads/0011 (Django cannot declare per-column index statistics).
STATISTICS = 1000


def search_text() -> Lower:
    # a || ' ' || b ...: the columns are NOT NULL, so no COALESCE per part (Concat adds one
    # around every operand, which each recheck of a candidate row would evaluate).
    # Phones are stored E.164 ("+8613800138000"): drop the "+" so digits typed with or
    # without it, or with spaces, match (see search_term).
    return Lower(Func(F("name"), F("company"), F("email"),
                      Replace(F("phone"), Value("+"), Value("")), F("wechat"),
                      F("report_number"),
                      # Keyword order as migrations write it: Func compares its keywords
                      # in order, and makemigrations would see a change otherwise.
                      arg_joiner=" || ' ' || ", output_field=TextField(),
                      template="(%(expressions)s)"))


# Short searches (1-2 characters: a surname, a two-character Chinese name, a city inside a
# company name such as "星河" in "深圳星河智算") have no trigram: they go through the set of
# the name's and company's characters and character pairs, one GIN index over an IMMUTABLE
# SQL function that leads/0017 creates (PostgreSQL only). "term in grams" is exact for a
# 1-2 character term: the pair is in the set if and only if it occurs in the text. Pairs
# with white space are left out (a stripped term of 2 characters has none).
GRAMS_FUNCTION = "selector_search_grams"
GRAMS_INDEX_NAME = "lead_search_grams"
GRAMS_SQL = r"""
CREATE OR REPLACE FUNCTION selector_search_grams(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}')
  FROM (SELECT substr(t, i, 1) AS g FROM generate_series(1, length(t)) AS i
        UNION ALL
        SELECT substr(t, i, 2) FROM generate_series(1, length(t) - 1) AS i) AS grams
  WHERE g !~ '\s'
$$"""


def search_grams() -> Func:
    """The indexed expression: the characters and character pairs of the lower-cased name
    and company (``||``, not Concat: CONCAT() is not IMMUTABLE, an index cannot use it).
    Without an output field, so that the index compares equal to its migration (two
    ArrayField instances never do); queries wrap it (``grams_of``)."""
    # Keyword order as migrations write it (see search_text).
    return Func(Lower(F("name")), Lower(F("company")), arg_joiner=" || ' ' || ",
                function=GRAMS_FUNCTION)


def grams_of() -> ExpressionWrapper:
    """search_grams() typed as text[], for the ``contains`` (``@>``) lookup."""
    return ExpressionWrapper(search_grams(), output_field=ArrayField(TextField()))


def short_text() -> Func:
    """The text search_grams() is computed from: ``LIKE '%term%'`` on it is the same test as
    ``grams @> ARRAY[term]`` for a 1-2 character term, and far cheaper per row. A short
    search asks both: the index serves the grams, and when the planner walks the newest
    leads instead it evaluates the cheap LIKE first (the function only on its matches)."""
    return Func(Lower(F("name")), Lower(F("company")), arg_joiner=" || ' ' || ",
                template="(%(expressions)s)", output_field=TextField())


def search_term(q: str) -> str:
    """What to look for in search_text(): lower-cased; a phone number, or part of one, typed
    as it was dictated becomes the digits it has in the stored E.164 form:

    - a whole number the contact form would accept ("0755-8888 6666", "(+86)138-0013-8000",
      "138 0013 8000", full-width digits) is normalised like the form does, so a landline's
      trunk 0 becomes the country code ("8675588886666");
    - a part of one keeps its digits, without the spaces, dashes, dots and brackets around
      them; a leading trunk 0 ("0755-8888") is dropped, as E.164 drops it; a leading 00 or +
      (the international prefix) too."""
    compact = _PHONE_PUNCTUATION.sub("", q)
    if compact and compact.isdigit():
        try:
            return normalize_phone(q).lstrip("+")
        except ValidationError:
            digits = phonenumbers.normalize_digits_only(compact)
            return digits[2:] if digits.startswith("00") else digits.removeprefix("0")
    return q.lower()
