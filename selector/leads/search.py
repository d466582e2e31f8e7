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
from django.core.exceptions import ValidationError
from django.db.models import F, Func, TextField, Value
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
