"""What made the result page faster must not change what it shows: the content snapshot
(selector.content.snapshot) follows every edit at once, in both languages, on the full page
and the htmx partial; the page asks for the content once; and the wizard's own writes are
committed without waiting for the disk, never a caller's."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from selector.content import snapshot
from selector.content.models import CompanyProfile, ComparisonRow, FaqEntry, Switch
from selector.wizard import services
from selector.wizard.models import WizardSession
from tests.conftest import content_stamp_sql

HX = {"HTTP_HX_REQUEST": "true"}
# Answers whose result shows the FAQ entry "which-is-faster" (topics compare, determinism)
# and the comparison table (RoCE v2 recommended, InfiniBand runner-up).
STRICT = {"gpus": 64, "gpus_per_server": 8, "workload": "training",
          "throughput_limited": False, "budget": "balanced", "determinism": "strict",
          "nic_speed": 400}
PAGES = [("/wizard/result/", {}), ("/en/wizard/result/", {}),
         ("/wizard/result/", HX), ("/en/wizard/result/", HX)]


def _page(client: Client, path: str, extra: dict) -> str:
    response = client.get(path, **extra)
    assert response.status_code == 200
    html = response.content.decode()
    assert ("<html" in html) == (not extra)  # the htmx partial is the region only
    return html


def _without_tokens(html: str) -> str:
    """The page without what differs on every response: CSRF tokens and CSP nonces."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    return re.sub(r'nonce="[^"]+"', "", html)


@pytest.fixture
def admin_client(db):
    user = get_user_model().objects.create_superuser("boss", "boss@example.com",
                                                     "pw-123456789")
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture
def shown(content, finished):
    """A client whose result page has been shown (content snapshot and plan fragment
    cached) in both languages, full page and htmx partial."""
    client = finished(STRICT)
    for path, extra in PAGES:
        _page(client, path, extra)
    return client


def test_an_admin_edit_of_a_faq_entry_shows_on_the_next_result_page(shown, admin_client):
    entry = FaqEntry.objects.get(slug="which-is-faster")
    assert entry.question_en in _page(shown, "/en/wizard/result/", {})
    response = admin_client.post(f"/admin/content/faqentry/{entry.pk}/change/", {
        "slug": entry.slug, "order": entry.order,
        "question_zh": "RoCE 和 InfiniBand 谁更快（新）？",
        "question_en": "Which is faster now?",
        "answer_zh": entry.answer_zh, "answer_en": entry.answer_en,
        "topics": entry.topics, "is_published": "on",
    })
    assert response.status_code == 302
    for path, extra in PAGES:
        html = _page(shown, path, extra)
        new = ("Which is faster now?" if path.startswith("/en/")
               else "RoCE 和 InfiniBand 谁更快（新）？")
        assert new in html and entry.question_en not in html and entry.question_zh not in html


def test_a_comparison_row_edit_shows_in_the_cached_plan_markup(shown):
    row = ComparisonRow.objects.get(slug="cost")
    row.roce_zh, row.roce_en = "较低（已更新）", "Lower (updated)"
    row.save()
    assert "Lower (updated)" in _page(shown, "/en/wizard/result/", {})
    assert "较低（已更新）" in _page(shown, "/wizard/result/", HX)


def test_a_bulk_update_without_signal_or_timestamp_shows_too(shown):
    """queryset.update() sends no signal and leaves updated_at: the stamp still moves."""
    ComparisonRow.objects.filter(slug="cost").update(infiniband_en="Highest, by our count")
    CompanyProfile.objects.update(short_name_en="SHTC", short_name_zh="深华")
    html = _page(shown, "/en/wizard/result/", {})
    assert "Highest, by our count" in html and "· SHTC" in html
    assert "· 深华" in _page(shown, "/wizard/result/", HX)


def test_a_catalogue_edit_changes_the_plan(shown):
    before = _page(shown, "/en/wizard/result/", {})
    switch = Switch.objects.get(key="nvidia-sn5600")
    assert switch.model in before and "SN5600-TEST" not in before
    Switch.objects.filter(pk=switch.pk).update(model="SN5600-TEST")
    assert "SN5600-TEST" in _page(shown, "/en/wizard/result/", {})
    assert "SN5600-TEST" in _page(shown, "/wizard/result/", HX)


def test_the_page_from_the_kept_content_is_the_page_from_the_rows(shown):
    """The same bytes whether the content was just read from the tables or kept by the
    process, in both languages, full page and partial."""
    kept = [_without_tokens(_page(shown, path, extra)) for path, extra in PAGES]
    snapshot._BY_STAMP.clear()
    read = [_without_tokens(_page(shown, path, extra)) for path, extra in PAGES]
    assert kept == read
    assert "Your answers" in kept[1] and "Your answers" not in kept[0]


def test_a_result_page_asks_for_the_content_once(shown):
    stamp = content_stamp_sql()
    with CaptureQueriesContext(connection) as queries:
        html = _page(shown, "/en/wizard/result/", {})
    sql = [q["sql"] for q in queries]
    assert "Which is faster" in html and "Shenhua Tiancheng" in html
    # Every read of a content table is the one check of the snapshot, nothing else.
    assert [s for s in sql if '"content_' in s] == stamp
    if connection.vendor == "postgresql":  # where the content tables' triggers keep a token
        assert len(stamp) == 1 and '"content_state"' in stamp[0]


def test_outside_a_request_every_read_is_current(content):
    """No request to reset the per-request memo: a helper reads the edit at once."""
    from selector.content.queries import comparison_rows

    assert comparison_rows()[0].dimension_en == "Bandwidth"
    ComparisonRow.objects.filter(slug="bandwidth").update(dimension_en="Link bandwidth")
    assert comparison_rows()[0].dimension_en == "Link bandwidth"


@pytest.mark.django_db(transaction=True)
def test_the_wizards_writes_do_not_wait_for_the_disk_but_later_commits_do():
    if connection.vendor != "postgresql":
        pytest.skip("asynchronous commit is PostgreSQL's")
    with CaptureQueriesContext(connection) as queries:
        ws = services.wizard_session_start(landing_url="/wizard/", referrer="", utm={},
                                           language="en")
        services.wizard_session_store(ws=ws, answers={"gpus": 64}, language="en")
        services.wizard_session_reach(ws=ws, stage="budget")
    sets = [q["sql"] for q in queries if "synchronous_commit" in q["sql"]]
    assert sets == ["SET LOCAL synchronous_commit TO OFF"] * 3
    ws.refresh_from_db()
    assert (ws.answers, ws.furthest_step) == ({"gpus": 64}, "budget")
    with connection.cursor() as cursor:  # SET LOCAL ends with its transaction
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_the_callers_commit_decides():
    if connection.vendor != "postgresql":
        pytest.skip("asynchronous commit is PostgreSQL's")
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        ws = services.wizard_session_start(landing_url="/", referrer="", utm={},
                                           language="zh-hans")
        services.wizard_session_store(ws=ws, answers={"gpus": 8}, language="zh-hans")
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone()[0] == "on"
    assert not [q for q in queries if "SET LOCAL" in q["sql"]]
    assert WizardSession.objects.get(pk=ws.pk).answers == {"gpus": 8}


def test_the_cached_markup_keeps_each_visitors_own_form_token(content, finished):
    """Two visitors with the same answers share the cached head and plan, never the what-if
    form's CSRF token: each visitor's own token is on their page (the what-if preview's
    "use these answers"), and it is accepted."""
    pages = []
    for _ in range(2):
        client = finished(STRICT, client=Client(enforce_csrf_checks=True))
        html = _page(client, "/en/wizard/result/what-if/?determinism=standard", {})
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        pages.append((client, token, html))
    (first, token1, html1), (second, token2, html2) = pages
    assert token1 != token2
    assert _without_tokens(html1) == _without_tokens(html2)
    response = second.post("/en/wizard/result/", {"determinism": "standard",
                                                  "csrfmiddlewaretoken": token2})
    assert response.status_code == 302
    assert WizardSession.objects.get(
        pk=second.session["wizard_session_id"]).answers["determinism"] == "standard"


def test_a_what_if_error_is_shown_on_a_cached_page(shown):
    response = shown.post("/en/wizard/result/", {"gpus": "0"}, **HX)
    html = response.content.decode()
    assert 'class="field-error" role="alert"' in html
    assert "Our recommendation" in html  # the cached head around it
