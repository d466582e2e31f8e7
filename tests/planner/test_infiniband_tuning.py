"""Finding 9: an InfiniBand recommendation gets its own tuning card (routing engine, SHIELD,
SHARP, service level, what not to change) on the page, in the PDF data and the API, every
value cited."""

from __future__ import annotations

import pytest
from django.utils import translation

from selector.domain import DEFAULT_CATALOGUE, Answers, Budget, recommend
from selector.domain.catalogue import internal_path
from selector.planner.presenter import api_dict, present

IB = Answers(256, budget=Budget.PERFORMANCE)


def test_an_infiniband_plan_has_a_cited_tuning_card():
    rec = recommend(IB, DEFAULT_CATALOGUE)
    assert rec.recommended.plan.switch.technology == "infiniband" and rec.tuning is None
    with translation.override("en"):
        vm = present(rec)
        card = vm.tuning
        assert card is not None and vm.tuning_heading == "InfiniBand tuning"
        keys = [row.key for row in card.rows]
        assert keys == ["routing_engine", "shield", "sharp", "service_level"]
        for row in card.rows:
            assert row.citations, row.key
        assert "routing_engine ftree" in card.config_text
        assert "export NCCL_COLLNET_ENABLE=1" in card.config_text
        for text, cit in card.config:
            assert text.startswith("#") or cit is not None, text
        assert not any(internal_path(s.url) for s in card.sources)
        data = api_dict(rec)
    assert data["tuning"] is None
    ib = data["infiniband_tuning"]
    assert ib["routing_engine"] == "ftree" and ib["service_level"] == 0
    assert [r["key"] for r in ib["rows"]] == keys


def test_the_infiniband_remarks_are_translated():
    rec = recommend(IB, DEFAULT_CATALOGUE)
    with translation.override("zh-hans"):
        card = present(rec).tuning
        assert card.rows[0].label == "子网管理器路由引擎"
        for row in card.rows:
            assert any("\u4e00" <= ch <= "\u9fff" for ch in row.label + row.value)
            for cit in row.citations:
                assert any("\u4e00" <= ch <= "\u9fff" for ch in cit.remark), cit.remark


@pytest.mark.parametrize("answers", [Answers(1024), Answers(64, throughput_limited=True)])
def test_roce_plans_keep_the_roce_card(answers):
    rec = recommend(answers, DEFAULT_CATALOGUE)
    with translation.override("en"):
        vm = present(rec)
        assert vm.tuning_heading == "Lossless tuning for RoCE v2"
    assert api_dict(rec)["infiniband_tuning"] is None
