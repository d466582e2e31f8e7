"""The content's stamp on PostgreSQL (selector.content.snapshot, migration content/0011):
one row, ``content_state.token``, that the content tables' triggers move in the same
transaction as any change to their rows, however it is made.

The invariant, checked over random sequences of edits: the token moves exactly when the
rows change, i.e. when PostgreSQL's digest of every column of every content row changes.
A stamp that stayed while the rows changed would serve old content from every cache keyed
by it (pages, fragments, PDFs); one that moved without a change only costs a cache miss,
and writing the same values is what ``load_content`` does at every deploy."""

import itertools

import pytest
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from selector.content import snapshot
from selector.content.models import ComparisonRow, FaqEntry

pytestmark = [pytest.mark.django_db, pytest.mark.skipif(
    connection.vendor != "postgresql", reason="elsewhere the stamp is the rows themselves")]

TRIGGERS = {"content_state_rows", "content_state_changes", "content_state_truncate"}


def _token() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT token::text FROM content_state WHERE id = 1")
        return cursor.fetchone()[0]


def _sql(sql: str, params: tuple = ()) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_every_content_table_has_the_triggers():
    """A content model added to snapshot.TABLES without its triggers would never move the
    token: copy ``table_sql`` of migration content/0011 into a new migration."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname, t.tgname FROM pg_trigger t "
                       "JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal")
        found = cursor.fetchall()
    for model in snapshot.TABLES:
        table = model._meta.db_table
        assert {name for rel, name in found if rel == table} == TRIGGERS, table


def test_the_stamp_is_the_token_in_one_query(content):
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        stamp = snapshot._stamp()
    assert stamp == _token()
    assert len(queries) == 1 and '"content_state"' in queries[0]["sql"]


def test_each_kind_of_change_moves_the_token_and_writing_the_same_values_does_not(content):
    row = ComparisonRow.objects.order_by("pk").first()
    before = _token()
    ComparisonRow.objects.filter(pk=row.pk).update(dimension_en=row.dimension_en)
    _sql("UPDATE content_faqentry SET question_en = question_en")
    assert _token() == before, "the same values written again"

    ComparisonRow.objects.filter(pk=row.pk).update(dimension_en=row.dimension_en + "!")
    assert _token() != before, "queryset update()"
    changed = _token()
    _sql("UPDATE content_companyprofile SET name_en = name_en || '.'")
    assert _token() != changed, "SQL by hand"
    changed = _token()
    entry = FaqEntry.objects.order_by("pk").first()
    entry.delete()
    assert _token() != changed, "delete"
    changed = _token()
    entry.pk = None
    entry.save()
    assert _token() != changed, "insert"
    changed = _token()
    _sql("TRUNCATE content_faqentry")
    assert _token() != changed, "truncate"


def test_an_edit_by_hand_shows_on_the_next_page(client, content):
    assert "Which is faster" in client.get("/en/faq/").content.decode()
    _sql("UPDATE content_faqentry SET question_en = replace(question_en, 'Which is faster',"
         " 'Which one is quicker')")
    html = client.get("/en/faq/").content.decode()
    assert "Which one is quicker" in html and "Which is faster" not in html


def test_without_the_state_row_the_stamp_is_the_digest_and_follows_edits(content):
    _sql("DELETE FROM content_state")
    first = snapshot._stamp()
    assert first.startswith("digest:")
    ComparisonRow.objects.update(dimension_en="Changed")
    assert snapshot._stamp() != first


EDITS = st.lists(st.tuples(st.sampled_from(["same", "toggle", "insert", "delete"]),
                           st.sampled_from(["faq", "comparison"])), min_size=1, max_size=8)
_copies = itertools.count(1)


# The content is loaded once; each example edits on from where the last one left it.
@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=EDITS)
def test_the_token_moves_exactly_when_the_rows_change(content, edits):
    """Each edit: the token moved if and only if the digest of every content row did."""
    models = {"faq": (FaqEntry, "question_en"), "comparison": (ComparisonRow, "dimension_en")}
    for kind, which in edits:
        model, field = models[which]
        row = model.objects.order_by("pk").first()
        value = getattr(row, field)
        token, digest = _token(), snapshot._digest()
        if kind == "same":
            model.objects.filter(pk=row.pk).update(**{field: value})
        elif kind == "toggle":  # a trailing "+" added or taken away: always a change
            model.objects.filter(pk=row.pk).update(
                **{field: value[:-1] if value.endswith("+") else value + "+"})
        elif kind == "insert":
            row.pk, row.slug = None, f"{row.slug[:50]}-{next(_copies)}"
            row.save()
        elif kind == "delete" and model.objects.count() > 1:  # keep a row to edit
            model.objects.filter(pk=model.objects.order_by("-pk").first().pk).delete()
        assert (_token() != token) == (snapshot._digest() != digest), (kind, which)
