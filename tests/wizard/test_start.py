from selector.wizard.models import WizardSession
from tests.wizard.conftest import RULE_CASES, checked, walk


def test_it_records_where_the_visitor_came_from(client_en, session_of):
    r = client_en.get("/en/wizard/?utm_source=baidu&utm_medium=cpc&utm_campaign=ai-net"
                      "&utm_term=roce&utm_content=ad1", HTTP_REFERER="https://www.baidu.com/s?wd=x")
    assert r.status_code == 302 and r["Location"] == "/en/wizard/scale/"
    ws = session_of(client_en)
    assert (ws.utm_source, ws.utm_medium, ws.utm_campaign, ws.utm_term, ws.utm_content) == (
        "baidu", "cpc", "ai-net", "roce", "ad1")
    assert ws.referrer == "https://www.baidu.com/s?wd=x"
    assert ws.landing_url.startswith("/en/wizard/?utm_source=baidu")
    assert ws.language == "en"
    assert ws.furthest_step == "scale" and ws.result_at is None and ws.answers == {}


def test_it_truncates_long_tracking_values(client_en, session_of):
    client_en.get("/en/wizard/?utm_source=" + "s" * 5000 + "&utm_term=a%00b",
                  HTTP_REFERER="https://example.com/" + "r" * 5000)
    ws = session_of(client_en)
    assert ws.utm_source == "s" * 100
    assert ws.utm_term == "ab"
    assert len(ws.referrer) == 500 and len(ws.landing_url) == 500


def test_it_keeps_the_first_touch_on_return(client_en, session_of):
    client_en.get("/en/wizard/?utm_source=first")
    client_en.get("/en/wizard/?utm_source=second")
    assert WizardSession.objects.count() == 1
    assert session_of(client_en).utm_source == "first"


def test_it_resumes_at_the_first_incomplete_step(client_en):
    client_en.get("/en/wizard/")
    client_en.post("/en/wizard/scale/", {"gpus": "64", "gpus_per_server": "8"})
    client_en.post("/en/wizard/workload/", {"workload": "training"})
    r = client_en.get("/en/wizard/")
    assert r["Location"] == "/en/wizard/budget/"


def test_a_finished_wizard_resumes_at_the_result(client_en):
    walk(client_en, RULE_CASES["R6"])
    assert client_en.get("/en/wizard/")["Location"] == "/en/wizard/result/"


def test_prefill_stores_valid_answers_and_starts_at_step_one(client_en, session_of):
    r = client_en.get("/en/wizard/?gpus=32&gpus_per_server=8&workload=training&budget=balanced"
                      "&determinism=standard&throughput_limited=true&nic_speed=400")
    assert r["Location"] == "/en/wizard/scale/"
    assert session_of(client_en).answers == {
        "gpus": 32, "gpus_per_server": 8, "workload": "training", "budget": "balanced",
        "determinism": "standard", "throughput_limited": True, "nic_speed": 400}
    # Walking through with the pre-filled values reaches that recommendation.
    html = client_en.get("/en/wizard/workload/").content.decode()
    assert checked(html, "workload") == ["training"]
    assert checked(html, "throughput_limited") == ["true"]
    for step, data in (("scale", {"gpus": "32", "gpus_per_server": "8"}),
                       ("workload", {"workload": "training", "throughput_limited": "true"}),
                       ("budget", {"budget": "balanced"}),
                       ("determinism", {"determinism": "standard"}),
                       ("nic-speed", {"nic_speed": "400"})):
        client_en.post(f"/en/wizard/{step}/", data)
    assert client_en.get("/en/wizard/result/").context["decision"].rule == "R7"


def test_prefill_ignores_invalid_values(client_en, session_of):
    client_en.get("/en/wizard/?gpus=0&gpus_per_server=99&workload=mining&budget=" + "x" * 10000
                  + "&determinism=strict&throughput_limited=maybe&nic_speed=100")
    assert session_of(client_en).answers == {"determinism": "strict"}


def test_prefill_accepts_not_sure_for_the_nic(client_en, session_of):
    client_en.get("/en/wizard/?nic_speed=unsure&gpus=16")
    assert session_of(client_en).answers == {"nic_speed": None, "gpus": 16}


def test_prefill_with_only_invalid_values_still_starts(client_en, session_of):
    r = client_en.get("/en/wizard/?gpus=%00")
    assert r["Location"] == "/en/wizard/scale/"
    assert session_of(client_en).answers == {}


FOREIGN = "/en/wizard/?gpus=4096&budget=performance&determinism=strict"


def test_a_link_from_another_site_does_not_overwrite_stored_answers(finished, session_of):
    client = finished()
    before = dict(session_of(client).answers)
    response = client.get(FOREIGN, HTTP_REFERER="https://evil.example/")
    assert response.status_code == 200
    assert session_of(client).answers == before
    html = response.content.decode()
    # It asks, showing what would change, with a CSRF-protected form.
    assert "4096" in html and "csrfmiddlewaretoken" in html
    assert 'method="post"' in html


def test_the_visitor_confirms_the_new_answers(finished, session_of):
    client = finished()
    page = client.get(FOREIGN)
    data = {name: value for name, value in page.context["prefill_data"].items()}
    response = client.post("/en/wizard/", data)
    assert response["Location"] == "/en/wizard/scale/"
    answers = session_of(client).answers
    assert (answers["gpus"], answers["budget"], answers["determinism"]) == (
        4096, "performance", "strict")


def test_a_cross_site_post_of_the_confirmation_is_refused(finished, session_of):
    client = finished()
    client.handler.enforce_csrf_checks = True
    before = dict(session_of(client).answers)
    response = client.post("/en/wizard/", {"gpus": "4096"})
    assert response.status_code == 403
    assert session_of(client).answers == before


def test_a_link_that_changes_nothing_goes_straight_on(finished, session_of):
    client = finished()
    response = client.get("/en/wizard/?gpus=32&budget=balanced")
    assert response["Location"] == "/en/wizard/scale/"


def test_a_session_with_no_answers_yet_takes_the_prefill(client_en, session_of):
    client_en.get("/en/wizard/")
    response = client_en.get("/en/wizard/?gpus=64")
    assert response["Location"] == "/en/wizard/scale/"
    assert session_of(client_en).answers == {"gpus": 64}
