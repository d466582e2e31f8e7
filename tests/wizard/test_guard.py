"""Skipped or tampered steps never yield a result."""

import pytest

from selector.wizard.models import WizardSession
from selector.wizard.state import completed_answers, get_wizard_session
from tests.wizard.conftest import RULE_CASES, walk


@pytest.mark.parametrize("url", ["/en/wizard/workload/", "/en/wizard/budget/",
                                 "/en/wizard/determinism/", "/en/wizard/nic-speed/",
                                 "/en/wizard/result/"])
def test_a_later_step_redirects_to_the_first_incomplete_one(client_en, url):
    r = client_en.get(url)
    assert r.status_code == 302 and r["Location"] == "/en/wizard/scale/"


def test_a_post_to_a_skipped_step_stores_nothing(client_en, session_of):
    client_en.get("/en/wizard/")
    r = client_en.post("/en/wizard/nic-speed/", {"nic_speed": "800"})
    assert r["Location"] == "/en/wizard/scale/"
    assert session_of(client_en).answers == {}


def test_the_result_ignores_posted_answers(client_en, session_of):
    client_en.get("/en/wizard/")
    r = client_en.post("/en/wizard/result/", {"gpus": "64", "gpus_per_server": "8",
                                              "workload": "training", "budget": "balanced",
                                              "determinism": "standard", "nic_speed": "400"})
    assert r.status_code == 302 and r["Location"] == "/en/wizard/scale/"
    assert session_of(client_en).answers == {}
    assert session_of(client_en).result_at is None


def test_an_unknown_step_is_a_404(client_en):
    assert client_en.get("/en/wizard/price/").status_code == 404


@pytest.mark.parametrize("tampered", [
    {"gpus": 0},
    {"gpus": "64"},
    {"gpus": True},
    {"workload": "mining"},
    {"nic_speed": 100},
    {"budget": None},
    {"determinism": ["standard"]},
])
def test_tampered_stored_answers_never_yield_a_result(client_en, session_of, tampered):
    walk(client_en, RULE_CASES["R7"])
    ws = session_of(client_en)
    ws.answers = {**ws.answers, **tampered}
    ws.save()
    r = client_en.get("/en/wizard/result/")
    assert r.status_code == 302
    assert completed_answers(WizardSession.objects.get(pk=ws.pk)) is None


def test_non_dict_answers_are_treated_as_empty(client_en, session_of):
    client_en.get("/en/wizard/scale/")
    ws = session_of(client_en)
    ws.answers = ["not", "a", "dict"]
    ws.save()
    assert client_en.get("/en/wizard/result/")["Location"] == "/en/wizard/scale/"
    assert completed_answers(ws) is None


def test_a_forged_session_id_starts_a_new_session(client_en):
    session = client_en.session
    session["wizard_session_id"] = "not-a-uuid"
    session.save()
    r = client_en.get("/en/wizard/scale/")
    assert r.status_code == 200
    assert WizardSession.objects.count() == 1


def test_state_helpers(client_en, rf, session_of):
    walk(client_en, RULE_CASES["R3"])
    ws = session_of(client_en)
    request = rf.get("/")
    request.session = {"wizard_session_id": str(ws.pk)}
    assert get_wizard_session(request) == ws
    answers = completed_answers(ws)
    assert answers.gpus == 32 and answers.throughput_limited is False
    request.session = {}
    assert get_wizard_session(request) is None
    assert WizardSession.objects.count() == 1  # never creates one
