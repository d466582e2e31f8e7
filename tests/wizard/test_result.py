import re

import pytest

from selector.core.sharing import SALT, answers_from_token
from selector.domain import RULES_BY_ID
from selector.wizard.models import WizardSession

ROCE = {"gpus": 64, "gpus_per_server": 8, "workload": "training", "throughput_limited": False,
        "budget": "balanced", "determinism": "standard", "nic_speed": 400}


@pytest.fixture
def result_of(content, finished):
    def get(answers, lang="/en"):
        client = finished(answers)
        r = client.get(f"{lang}/wizard/result/")
        assert r.status_code == 200
        return client, r, r.content.decode()
    return get


def test_it_explains_the_recommendation(result_of):
    _, r, html = result_of(ROCE)
    assert "Rule R7</span>" in html
    assert "Several servers on a budget: start with RoCE v2 400G" in html
    assert RULES_BY_ID["R7"].seed_quote in html
    assert "64 GPUs is below the thousand-GPU scale" in html
    assert "Runner-up: InfiniBand" in html


def test_it_marks_the_recommended_column(result_of):
    _, r, html = result_of(ROCE)
    assert re.search(r'<th scope="col" class="recommended">RoCE v2 <span class="badge">', html)
    _, r, html = result_of({**ROCE, "budget": "performance"})
    assert re.search(r'<th scope="col" class="recommended">InfiniBand <span class="badge">', html)
    _, r, html = result_of({**ROCE, "gpus": 8})
    assert 'class="recommended">RoCE v2' not in html
    assert 'class="recommended">InfiniBand' not in html


def test_it_shows_both_fabrics_from_the_domain_core(result_of):
    _, r, html = result_of({**ROCE, "gpus": 16384})
    rec = r.context["rec"]
    mine, run = rec.recommended.plan, rec.runner_up.plan
    assert mine.tiers in (2, 3)
    for value in (mine.leaf, mine.spine, mine.core, mine.switches, mine.modules, mine.cables,
                  run.switches):
        assert f"{value:,}" in html
    assert mine.switch.model in html and run.switch.model in html
    assert "<svg" in html


def test_it_shows_a_three_tier_fabric_with_its_core(result_of):
    _, r, html = result_of({**ROCE, "gpus": 100_000})
    mine = r.context["rec"].recommended.plan
    assert mine.tiers == 3 and mine.core > 0
    assert f"Core ×{mine.largest_plane.core:,}" in html
    assert "hundred-thousand-GPU-scale" in html
    assert "—" not in r.context["vm"].table_rows[4].values[0]


def test_the_standard_network_needs_no_back_end_fabric(result_of):
    _, r, html = result_of({**ROCE, "gpus": 8})
    assert "No back-end fabric is needed" in html
    assert "Lossless tuning" not in html
    assert "If you grow, this is the RoCE v2 400G fabric it would take" in html


def test_the_tuning_card_shows_roce_values_with_sources(result_of):
    _, r, html = result_of({**ROCE, "gpus": 1024})
    tuning = r.context["rec"].tuning
    assert tuning.speed_gbps == 400  # the GPU links, not the 800G core
    assert tuning.family == "nvidia-spectrum"
    assert "min 150,000 bytes, max 1,500,000 bytes" in html
    assert "RoCE DSCP 26 → priority 3" in html
    assert "nv set qos roce mode lossless" in html
    assert "nv set qos pfc roce-gpu cable-length 50" in html
    assert "default-global" not in html
    assert "Cumulus Linux 5.18 User Guide" in html and "SIGCOMM 2016" in html
    # One ECN maximum: no rule-of-thumb second value.
    assert html.count("1,500,000 bytes") >= 1 and "2-3 x BDP" not in html
    _, r, html = result_of({**ROCE, "budget": "performance"})
    assert "Lossless tuning" not in html


def test_it_lists_relevant_faq_entries(result_of):
    _, r, html = result_of({**ROCE, "determinism": "strict"})
    assert "Which is faster, RoCE or InfiniBand?" in html or "RoCE" in html
    topics = {t for faq in r.context["faqs"] for t in faq.topic_list}
    assert {"determinism", "compare"} & topics


def test_it_offers_the_what_ifs(result_of):
    _, r, html = result_of(ROCE)
    assert 'href="/en/wizard/result/what-if/?budget=performance"' in html
    assert 'href="/en/wizard/result/what-if/?determinism=strict"' in html


def test_what_if_without_javascript_posts_and_redirects(result_of, session_of):
    client, _, _ = result_of(ROCE)
    r = client.post("/en/wizard/result/", {"determinism": "strict"})
    assert r.status_code == 302 and r["Location"] == "/en/wizard/result/"
    assert session_of(client).answers["determinism"] == "strict"
    assert client.get("/en/wizard/result/").context["decision"].rule == "R2"


def test_what_if_to_a_small_cluster_keeps_the_result_reachable(result_of, session_of):
    client, _, _ = result_of({**ROCE, "gpus": 1024})
    r = client.post("/en/wizard/result/", {"gpus": "56"})
    assert r["Location"] == "/en/wizard/result/"
    assert client.get("/en/wizard/result/").context["decision"].rule == "R3"


def test_the_share_link_reproduces_the_result_read_only(result_of, client):
    _, r, html = result_of({**ROCE, "gpus": 1024})
    url = r.context["share_url"]
    assert url.startswith("http://testserver/en/wizard/r/")
    path = url.removeprefix("http://testserver")
    count = WizardSession.objects.count()
    shared = client.get(path)
    assert shared.status_code == 200
    body = shared.content.decode()
    assert "Rule R6</span>" in body
    assert "/wizard/result/what-if/" not in body  # no what-if
    assert "/wizard/scale/" not in body  # no edit links
    assert 'name="robots" content="noindex"' in body
    assert WizardSession.objects.count() == count  # viewing a share creates no session


def test_the_share_token_carries_only_the_answers(result_of):
    from django.core import signing
    _, r, _ = result_of(ROCE)
    token = r.context["share_url"].rstrip("/").rsplit("/", 1)[1]
    assert signing.loads(token, salt=SALT) == {
            **ROCE, "nics_per_server": None, "vendor": "any", "distance": "row",
            "platform": "unsure", "oversubscription": 1}
    assert answers_from_token(token).gpus == 64


def test_the_same_answers_give_the_same_link_and_old_links_still_open(content, client):
    from django.core import signing

    from selector.core.sharing import share_token
    from selector.domain import Answers
    answers = Answers(gpus=64)
    assert share_token(answers) == share_token(Answers(gpus=64))
    assert share_token(answers) != share_token(Answers(gpus=128))
    # A link shared before the token was made stable (signing.dumps, with a timestamp).
    old = signing.dumps(answers.to_dict(), salt=SALT, compress=True)
    assert old != share_token(answers)
    assert answers_from_token(old) == answers
    assert client.get(f"/en/wizard/r/{old}/").status_code == 200


@pytest.mark.parametrize("mutate", [
    lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),
    lambda t: t[:10],
    lambda t: "x" + t,
    lambda t: "a" * 2000,
    lambda t: "%00",
])
def test_a_tampered_share_link_is_a_friendly_404(result_of, client, mutate):
    _, r, _ = result_of(ROCE)
    token = r.context["share_url"].rstrip("/").rsplit("/", 1)[1]
    bad = client.get(f"/en/wizard/r/{mutate(token)}/")
    assert bad.status_code == 404
    assert "This share link is not valid" in bad.content.decode()


def test_a_token_signed_for_something_else_is_refused(content, client):
    from django.core import signing
    token = signing.dumps(ROCE)  # default salt
    assert client.get(f"/en/wizard/r/{token}/").status_code == 404
    token = signing.dumps({"gpus": 0}, salt=SALT, compress=True)
    assert client.get(f"/en/wizard/r/{token}/").status_code == 404


def test_the_call_to_action_appears_when_the_leads_url_exists(result_of):
    from django.urls import NoReverseMatch, reverse
    _, r, html = result_of(ROCE)
    try:
        url = reverse("public:contact")
    except NoReverseMatch:
        assert "Get the full PDF report" not in html
    else:
        assert f'href="{url}"' in html


def test_the_result_page_is_chinese_by_default(result_of):
    _, r, html = result_of(ROCE, lang="")
    assert "规则 R7" in html
    assert "无损" in html


def test_the_platform_answer_reaches_the_plan(result_of):
    """Issue 22 finding 7: the server platform is asked with the hardware and counted."""
    _, _r, html = result_of({**ROCE, "platform": "dgx"})
    assert "Server platform" in html and "NVIDIA DGX / HGX" in html
    assert "twin-port OSFP modules in the servers" in html
    _, _r, plain = result_of(ROCE)
    assert "Not sure (planned as a PCIe NIC with OSFP)" in plain


def test_the_wizard_asks_the_leaf_oversubscription(client_db, content):
    """Issue 22 finding 11: an advanced hardware option, carried to the plan."""
    client = client_db
    client.get("/en/wizard/")
    client.post("/en/wizard/scale/", {"gpus": "2048", "gpus_per_server": "8"})
    client.post("/en/wizard/workload/", {"workload": "training"})
    client.post("/en/wizard/budget/", {"budget": "balanced"})
    client.post("/en/wizard/determinism/", {"determinism": "standard"})
    step = client.get("/en/wizard/nic-speed/").content.decode()
    assert "Leaf oversubscription" in step and "3:1" in step
    client.post("/en/wizard/nic-speed/", {"nic_speed": "400", "oversubscription": "2"})
    html = client.get("/en/wizard/result/").content.decode()
    assert "Leaves at 2:1, as you chose" in html
    bad = client.post("/en/wizard/nic-speed/", {"nic_speed": "400", "oversubscription": "5"},
                      follow=True)
    assert "Choose one of the offered options" in bad.content.decode()
