"""What-if as a preview (issue 26, finding 4): a what-if shows the other result without
touching the stored answers, "use these answers" applies it (a CSRF-protected POST), Back
returns to the customer's own result, and every what-if offered really changes the
recommendation."""

import re

import pytest
from django.http import QueryDict
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from selector.domain import Answers, Budget, Determinism, Workload, decide
from selector.domain.answers import GPUS_MAX, NIC_SPEEDS
from selector.domain.decision import throughput_matters
from selector.planner.presenter import _as_data
from selector.wizard.views import _changed_answers

HX = {"HTTP_HX_REQUEST": "true"}
ROCE = {"gpus": 64, "gpus_per_server": 8, "workload": "training", "throughput_limited": False,
        "budget": "balanced", "determinism": "standard", "nic_speed": 400}
BIG = {**ROCE, "gpus": 2048}


def _links(html: str) -> list[str]:
    return re.findall(r'class="what-if-btn" href="([^"]+)"', html)


def test_a_what_if_shows_the_other_result_and_stores_nothing(content, finished, session_of):
    client = finished(ROCE)
    before = dict(session_of(client).answers)
    own = client.get("/en/wizard/result/")
    assert own.context["decision"].rule == "R7"
    assert "/en/wizard/result/what-if/?determinism=strict" in _links(own.content.decode())
    r = client.get("/en/wizard/result/what-if/?determinism=strict")
    assert r.status_code == 200
    html = r.content.decode()
    assert r.context["decision"].rule == "R2"
    assert 'data-testid="what-if-preview"' in html
    assert "If you needed strict determinism: the result would be as shown below" in html
    assert "your own result: RoCE v2 400G" in html
    assert "Use these answers" in html and 'href="/en/wizard/result/"' in html
    assert 'name="determinism" value="strict"' in html  # the apply form's hidden field
    assert 'data-testid="report-button' not in html  # the report is of the saved answers
    assert _links(html) == []  # no what-if of a what-if
    assert session_of(client).answers == before
    # Back (the result's own URL, as the browser's Back button loads it): the own result.
    back = client.get("/en/wizard/result/")
    assert back.context["decision"].rule == "R7"
    assert 'data-testid="what-if-preview"' not in back.content.decode()


def test_use_these_answers_applies_the_what_if(content, finished, session_of):
    client = finished(ROCE)
    r = client.post("/en/wizard/result/", {"determinism": "strict"})
    assert r.status_code == 302 and r["Location"] == "/en/wizard/result/"
    assert session_of(client).answers["determinism"] == "strict"
    assert client.get("/en/wizard/result/").context["decision"].rule == "R2"


def test_use_these_answers_needs_the_pages_csrf_token(content, finished, session_of):
    client = finished(ROCE, client=Client(enforce_csrf_checks=True))
    before = dict(session_of(client).answers)
    assert client.post("/en/wizard/result/", {"determinism": "strict"}).status_code == 403
    assert session_of(client).answers == before
    html = client.get("/en/wizard/result/what-if/?determinism=strict").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    r = client.post("/en/wizard/result/", {"determinism": "strict",
                                           "csrfmiddlewaretoken": token})
    assert r.status_code == 302
    assert session_of(client).answers["determinism"] == "strict"


def test_with_htmx_the_preview_swaps_the_region_only(content, finished, session_of):
    client = finished(ROCE)
    before = dict(session_of(client).answers)
    r = client.get("/en/wizard/result/what-if/?budget=performance", **HX)
    html = r.content.decode()
    assert r.status_code == 200 and "<html" not in html
    assert r.context["decision"].rule == "R5"
    assert 'data-hx-post="/en/wizard/result/"' in html
    assert session_of(client).answers == before
    # Applying it from the preview puts the result's own URL back in the address bar.
    r = client.post("/en/wizard/result/", {"budget": "performance"}, **HX)
    assert r["HX-Push-Url"] == "/en/wizard/result/"
    assert "<html" not in r.content.decode()
    assert session_of(client).answers["budget"] == "performance"


@pytest.mark.parametrize("query", [
    "", "gpus=0", "gpus=" + "9" * 300, "budget=x%00", "gpus=8&budget=performance",
    "unknown=1", "nic_speed=123", "determinism=",
])
def test_a_bad_what_if_is_refused_not_a_500_and_stores_nothing(content, finished, session_of,
                                                                query):
    client = finished(ROCE)
    before = dict(session_of(client).answers)
    r = client.get(f"/en/wizard/result/what-if/?{query}")
    assert r.status_code == 400
    html = r.content.decode()
    assert 'class="field-error" role="alert"' in html
    assert r.context["decision"].rule == "R7"  # the own result, unchanged
    assert session_of(client).answers == before


def test_the_preview_needs_finished_answers(client_db):
    client_db.get("/en/wizard/")
    r = client_db.get("/en/wizard/result/what-if/?budget=performance")
    assert r.status_code == 302 and r["Location"] == "/en/wizard/scale/"


def test_a_big_lead_is_offered_real_alternatives_never_a_smaller_cluster(content, finished):
    client = finished(BIG)
    links = _links(client.get("/en/wizard/result/").content.decode())
    assert links == ["/en/wizard/result/what-if/?budget=performance",
                     "/en/wizard/result/what-if/?determinism=strict"]
    html = client.get("/wizard/result/").content.decode()
    assert "GPU 总数为" not in html


def test_the_next_size_reads_as_a_size_the_customer_could_grow_to(content, finished):
    client = finished(ROCE)
    html = client.get("/wizard/result/").content.decode()
    assert "如果集群扩大到 1,000 张 GPU" in html
    html = client.get("/en/wizard/result/").content.decode()
    assert "If the cluster grew to 1,000 GPUs" in html
    preview = client.get("/wizard/result/what-if/?gpus=1000")
    assert preview.context["decision"].rule == "R6"
    assert "如果集群扩大到 1,000 张 GPU，结果将如下所示" in preview.content.decode()


def test_the_answers_list_shows_only_the_questions_asked(content, finished):
    # 64 GPUs are 8 servers: the throughput question is not asked, so it is not listed,
    # neither on the own result nor on a preview.
    client = finished({**ROCE, "throughput_limited": True})
    for path in ("/wizard/result/", "/wizard/result/what-if/?budget=performance"):
        r = client.get(path)
        assert "throughput_limited" not in [row.field for row, _ in r.context["answer_rows"]]
        assert "训练吞吐受限" not in r.content.decode().split('id="answers-heading"')[1].split(
            "</table>")[0]
    client = finished({**ROCE, "gpus": 32})  # 4 servers: asked
    rows = client.get("/wizard/result/").context["answer_rows"]
    assert "throughput_limited" in [row.field for row, _ in rows]


answers_strategy = st.builds(
    Answers,
    gpus=st.one_of(st.integers(1, 1100), st.integers(1, GPUS_MAX)),
    gpus_per_server=st.sampled_from((1, 2, 4, 8, 16)),
    workload=st.sampled_from(tuple(Workload)),
    budget=st.sampled_from(tuple(Budget)),
    determinism=st.sampled_from(tuple(Determinism)),
    throughput_limited=st.booleans(),
    nic_speed=st.sampled_from((None, *NIC_SPEEDS)),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers_strategy)
def test_every_offered_what_if_changes_the_recommendation(answers):
    """Each what-if the page offers, posted back exactly as its link carries it (through the
    step forms), gives the fabric it names, never the customer's own."""
    if not throughput_matters(answers.servers):
        answers = answers.replace(throughput_limited=False)  # as the wizard builds them
    own = decide(answers).recommendation
    for w in decide(answers).what_if:
        # The link's value as the view-model writes it (presenter.WhatIfView.value).
        value = _as_data(w.value)
        changed, name, error = _changed_answers(QueryDict(f"{w.field}={value}"), answers)
        assert error is None and name == w.field, (w, error)
        assert changed is not None
        got = decide(changed).recommendation
        assert got != own and got == w.recommendation, w
        if w.field == "gpus":
            assert changed.gpus > answers.gpus  # growth only
