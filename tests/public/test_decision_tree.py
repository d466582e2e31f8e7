"""The decision-tree diagram: every rule has a leaf, every leaf links to a wizard prefill
that the engine turns into exactly that leaf's rule."""

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from selector.content.models import ContentBlock
from selector.domain import RULES_BY_ID, Answers, decide
from selector.public.tree import LEAF_ANSWERS, SEED_LINE_RULES, prefill_query

PREFILL_FIELDS = {"gpus", "gpus_per_server", "workload", "budget", "determinism",
                  "throughput_limited", "nic_speed"}


def answers_from_prefill(query: str) -> Answers:
    """Read a prefill query string the way the wizard's contract describes it."""
    params = {k: v[0] for k, v in parse_qs(query, strict_parsing=True).items()}
    assert set(params) == PREFILL_FIELDS  # every step pre-filled
    assert params["throughput_limited"] in {"true", "false"}
    return Answers.from_dict({
        "gpus": int(params["gpus"]),
        "gpus_per_server": int(params["gpus_per_server"]),
        "workload": params["workload"],
        "budget": params["budget"],
        "determinism": params["determinism"],
        "throughput_limited": params["throughput_limited"] == "true",
        "nic_speed": int(params["nic_speed"]),
    })


def leaf_links(html: str) -> list[tuple[str, str, str]]:
    """(href, data-rule, data-recommendation) of each leaf in the diagram."""
    return [(unescape(h), r, f) for h, r, f in re.findall(
        r'<a class="tree-leaf[^"]*" href="([^"]+)" data-rule="(R\d)" '
        r'data-recommendation="([^"]+)">', html)]


def test_every_rule_has_a_leaf_whose_answers_reach_it():
    assert list(LEAF_ANSWERS) == list(RULES_BY_ID) == [f"R{i}" for i in range(1, 8)]
    for rule, answers in LEAF_ANSWERS.items():
        assert decide(answers).rule == rule
        assert decide(answers_from_prefill(prefill_query(answers))).rule == rule


@pytest.mark.parametrize("path,wizard", [("/", "/wizard/"), ("/en/", "/en/wizard/")])
def test_each_leaf_link_prefills_the_wizard_with_answers_that_give_its_rule(
        client, content, path, wizard):
    links = leaf_links(client.get(path).content.decode())
    assert [rule for _, rule, _ in links] == [f"R{i}" for i in range(1, 8)]
    for href, rule, recommendation in links:
        url = urlsplit(href)
        assert url.path == wizard
        decision = decide(answers_from_prefill(url.query))
        assert (decision.rule, decision.recommendation.value) == (rule, recommendation)


def test_the_seed_tree_lines_sit_on_the_leaf_they_formalise(client, content):
    assert set(SEED_LINE_RULES) == set(
        ContentBlock.objects.filter(section="decision").values_list("key", flat=True))
    html = client.get("/").content.decode()
    leaves = re.findall(r'<a class="tree-leaf.*?data-rule="(R\d)".*?</a>', html, flags=re.S)
    bodies = dict(zip(leaves, re.findall(r'<a class="tree-leaf.*?</a>', html, flags=re.S),
                      strict=True))
    assert "单机 8卡以内训练" in bodies["R1"] and "常规网络" in bodies["R1"]
    assert "金融高频或强确定性场景" in bodies["R2"] and "InfiniBand" in bodies["R2"]
    assert "千卡级训练" in bodies["R6"] and "RoCE v2 800G" in bodies["R6"]
    assert "多机但预算敏感" in bodies["R7"] and "RoCE v2 400G" in bodies["R7"]


def test_a_new_tree_line_without_a_rule_still_shows(client, content):
    ContentBlock.objects.create(key="tree-new", section="decision", order=9,
                                title_en="Edge sites", body_en="Ask us.")
    html = client.get("/en/").content.decode()
    assert "<li><strong>Edge sites</strong>: Ask us.</li>" in html
    assert len(leaf_links(html)) == 7


def test_the_questions_show_the_engine_thresholds(client, content):
    html = client.get("/en/").content.decode()
    assert "Fewer than 8 servers" in html and "1000 GPUs or more, or 800G NICs?" in html
    assert "少于 8 台服务器" in client.get("/").content.decode()
