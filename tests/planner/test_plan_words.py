"""Words that do not overstate (issue 22 finding 12), in English and Chinese."""

from __future__ import annotations

from django.utils import translation

from selector.domain import DEFAULT_CATALOGUE, Answers, recommend
from selector.planner import words


def test_the_redundant_pair_says_a_running_job_restarts():
    rec = recommend(Answers(64, throughput_limited=True), DEFAULT_CATALOGUE)
    plan = rec.recommended.plan
    note = next(n for n in plan.notes if n.key == "redundant_pair")
    with translation.override("en"):
        text = words.note_text(note, plan)
    assert "stops with a network error and must be restarted" in text
    assert "halves the bandwidth and leaves every server connected" not in text
    assert "half the bandwidth" in text
    with translation.override("zh-hans"):
        zh = words.note_text(note, plan)
    assert "中止" in zh and "重新启动" in zh


def test_inference_says_what_it_needs_and_the_plan_is_pods():
    """Finding 12: R4 keeps the article's sentence, but the engine's own sentence says what
    inference needs, and a large inference cluster is planned as independent pods."""
    from selector.core import explain
    from selector.domain import Reason

    with translation.override("en"):
        reason = str(explain._REASONS["inference"])
    assert "a 400G fabric carries it" not in reason
    assert "independent two-tier pods" in reason
    rec = recommend(Answers(100_000, workload="inference"), DEFAULT_CATALOGUE)
    plan = rec.recommended.plan
    assert rec.decision.rule == "R4" and plan.pods > 1 and plan.tiers == 2
    assert Reason("inference", {}) in rec.decision.reasons
    note = next(n for n in plan.notes if n.key == "inference_pods")
    with translation.override("en"):
        text = words.note_text(note, plan)
        design = words.design_text(plan)
    assert f"{plan.pods} identical, independent two-tier pods" in text
    assert "HGX AI Factory" in text and f"{plan.pods} independent pods" in design
    with translation.override("zh-hans"):
        zh = words.note_text(note, plan)
        zh_reason = str(explain._REASONS["inference"])
        zh_design = words.design_text(plan)
    assert f"{plan.pods} 个相同且相互独立的两层分区" in zh
    assert "两层分区" in zh_reason and "独立分区" in zh_design


def test_the_pods_note_cites_nvidias_reference_architecture(client, content):
    from selector.core.sharing import share_token

    token = share_token(Answers(100_000, workload="inference"))
    for prefix in ("", "/en"):
        html = client.get(f"{prefix}/wizard/r/{token}/").content.decode()
        assert "docs.nvidia.com/enterprise-reference-architectures/hgx-ai-factory" in html
    body = client.get("/api/recommend", {"gpus": "100000", "workload": "inference",
                                         "budget": "balanced", "determinism": "standard"},
                      HTTP_ACCEPT_LANGUAGE="en").json()
    fabric = body["fabric"]
    assert fabric["pods"] > 1 and fabric["tiers"] == 2
    assert fabric["switches"] == sum(line["count"] for line in fabric["bom"]
                                     if line["kind"] == "switch")


def test_the_platform_is_asked_in_the_api_and_the_dgx_note_is_in_words(client, content):
    body = client.get("/api/recommend", {"gpus": "2048", "workload": "training",
                                         "budget": "balanced", "determinism": "standard",
                                         "platform": "dgx"},
                      HTTP_ACCEPT_LANGUAGE="en").json()
    fabric = body["fabric"]
    listed = sum(line["count"] for line in fabric["bom"] if line["kind"] == "module")
    assert fabric["modules"] == listed + 2048 * 2 // 4  # 8 NICs a server, 4 twin-port cages
    bad = client.get("/api/recommend", {"gpus": "2048", "workload": "training",
                                        "budget": "balanced", "determinism": "standard",
                                        "platform": "mainframe"})
    assert bad.status_code == 400 and "platform" in bad.json()["errors"]
    plan = recommend(Answers(2048, platform="dgx"), DEFAULT_CATALOGUE).recommended.plan
    note = next(n for n in plan.notes if n.params.get("form") == "twin-port-osfp")
    with translation.override("en"):
        assert "1,024 twin-port OSFP modules" in words.note_text(note, plan)
    with translation.override("zh-hans"):
        assert "1,024 个双端口 OSFP 光模块" in words.note_text(note, plan)
    fab = client.get("/api/fabric", {"gpus": "512", "fabric": "roce-v2-400g",
                                     "platform": "bluefield3"}).json()
    assert any(line["model"] == "MMA1Z00-NS400" for line in fab["bom"])
