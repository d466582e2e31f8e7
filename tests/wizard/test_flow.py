import pytest

from selector.wizard.models import WizardSession
from tests.wizard.conftest import EXPECTED, RULE_CASES, checked, walk


@pytest.mark.parametrize("rule", sorted(RULE_CASES))
def test_it_walks_to_each_rule_without_javascript(client_en, session_of, rule):
    response = walk(client_en, RULE_CASES[rule])
    assert response["Location"] == "/en/wizard/result/"
    page = client_en.get("/en/wizard/result/")
    html = page.content.decode()
    assert f"Rule {rule}</span>" in html
    assert page.context["decision"].recommendation.value == EXPECTED[rule]
    ws = session_of(client_en)
    assert ws.result_at is not None
    assert ws.furthest_step == "result"
    assert ws.answers["gpus"] == int(RULE_CASES[rule]["gpus"])
    assert ws.answers["nic_speed"] == (None if RULE_CASES[rule]["nic_speed"] == "unsure"
                                       else int(RULE_CASES[rule]["nic_speed"]))


def test_it_goes_through_the_steps_in_order(client_en, session_of):
    client_en.get("/en/wizard/")
    r = client_en.post("/en/wizard/scale/", {"gpus": "64", "gpus_per_server": "8"})
    assert r["Location"] == "/en/wizard/workload/"
    assert session_of(client_en).answers == {"gpus": 64, "gpus_per_server": 8}
    r = client_en.get("/en/wizard/workload/")
    assert session_of(client_en).furthest_step == "workload"
    assert "Step 2 of 5" in r.content.decode()


def test_it_keeps_answers_when_going_back(client_en):
    walk(client_en, RULE_CASES["R7"])
    html = client_en.get("/en/wizard/scale/").content.decode()
    assert 'value="64"' in html
    html = client_en.get("/en/wizard/budget/").content.decode()
    assert checked(html, "budget") == ["sensitive"]


def test_it_returns_to_the_result_after_editing_a_finished_wizard(client_en, session_of):
    walk(client_en, RULE_CASES["R7"])
    client_en.get("/en/wizard/result/")
    r = client_en.post("/en/wizard/budget/", {"budget": "performance"})
    assert r["Location"] == "/en/wizard/result/"
    assert client_en.get(r["Location"]).context["decision"].rule == "R5"
    assert session_of(client_en).answers["budget"] == "performance"


def test_it_asks_throughput_only_where_it_can_change_the_answer(client_en):
    client_en.get("/en/wizard/")
    for gpus, asked in (("8", False), ("9", True), ("56", True), ("57", False), ("1024", False)):
        client_en.post("/en/wizard/scale/", {"gpus": gpus, "gpus_per_server": "8"})
        html = client_en.get("/en/wizard/workload/").content.decode()
        assert ('name="throughput_limited"' in html) is asked, gpus


def test_it_requires_the_throughput_answer_for_small_clusters(client_en, session_of):
    client_en.get("/en/wizard/")
    client_en.post("/en/wizard/scale/", {"gpus": "32", "gpus_per_server": "8"})
    r = client_en.post("/en/wizard/workload/", {"workload": "training"}, follow=True)
    assert r.redirect_chain == [("/en/wizard/workload/", 303)]
    assert "This field is required." in r.content.decode()
    assert "workload" not in session_of(client_en).answers


def test_a_changed_scale_can_reopen_the_workload_step(client_en):
    walk(client_en, RULE_CASES["R7"])  # 8 servers: throughput not asked
    client_en.post("/en/wizard/scale/", {"gpus": "32", "gpus_per_server": "8"})
    r = client_en.get("/en/wizard/result/")
    assert r.status_code == 302 and r["Location"] == "/en/wizard/workload/"


def test_chinese_is_the_default_language(client_en):
    client_en.get("/wizard/")
    html = client_en.get("/wizard/scale/").content.decode()
    assert "集群将有多少张 GPU？" in html
    assert "小集群需要无损网络吗？" in html  # the seed FAQ that explains step 1


def test_every_step_explains_why_it_matters(client_en):
    walk(client_en, RULE_CASES["R3"])
    for step in ("scale", "workload", "budget", "determinism", "nic-speed"):
        html = client_en.get(f"/en/wizard/{step}/").content.decode()
        assert 'class="wizard-why"' in html, step
        assert "<details" in html, step


def test_it_counts_one_session_per_visitor(client_en):
    client_en.get("/en/wizard/")
    client_en.get("/en/wizard/")
    client_en.get("/en/wizard/scale/")
    assert WizardSession.objects.count() == 1
