"""Latency and determinism (issue 26, finding 10): InfiniBand and strict-determinism results
say, on the page and in the PDF, that reproducible training is a software setting, with
the settings Megatron Core documents, each cited; RoCE results do not carry the section."""

import itertools

import pytest
from django.utils import translation

from selector.domain import Answers, Budget, Determinism, Fabric, decide
from selector.domain.determinism import (
    MEGATRON_DETERMINISM,
    SETTINGS,
    determinism_applies,
    determinism_settings,
)
from selector.leads.report.render import render_pdf_document
from selector.leads.report.samples import sample_report
from selector.planner.presenter import present
from selector.planner.services import fresh
from selector.planner.words import remark

from .conftest import pdf_text, squash

VALUES = ["--deterministic-mode", "NCCL_ALGO=Ring", "NVTE_ALLOW_NONDETERMINISTIC_ALGO=0",
          "CUBLAS_WORKSPACE_CONFIG=:4096:8"]


def test_every_setting_is_cited_from_megatron_core_and_its_remark_translated():
    assert [s.value for s in SETTINGS] == VALUES
    for setting in SETTINGS:
        assert setting.citation.source == MEGATRON_DETERMINISM
        with translation.override("zh-hans"):
            assert remark(setting.citation.remark) != setting.citation.remark
    assert MEGATRON_DETERMINISM.url == "https://docs.nvidia.com/megatron/deterministic-training"
    assert MEGATRON_DETERMINISM.date


@pytest.mark.parametrize(("gpus", "budget", "determinism"), list(itertools.product(
    (8, 16, 64, 512, 2048), tuple(Budget), tuple(Determinism))))
def test_the_section_is_for_infiniband_and_strict_results_only(gpus, budget, determinism):
    answers = Answers(gpus, budget=budget, determinism=determinism)
    fabric = decide(answers).recommendation
    shown = bool(determinism_settings(answers, fabric))
    assert shown == (fabric == Fabric.INFINIBAND or determinism == Determinism.STRICT)
    assert shown == determinism_applies(answers, fabric)


@pytest.mark.django_db
def test_the_result_page_shows_it_for_a_strict_lead(content, client):
    from tests.leads.conftest import attach, make_session
    strict = {"gpus": 64, "gpus_per_server": 8, "workload": "training", "budget": "balanced",
              "determinism": "strict", "throughput_limited": False, "nic_speed": 400}
    attach(client, make_session(answers=strict))
    html = client.get("/wizard/result/").content.decode()
    assert 'id="determinism-heading">时延与确定性</h2>' in html
    for value in VALUES:
        assert value in html
    assert "输入相同的两次运行，每一步的输出都相同" in html
    assert 'href="https://docs.nvidia.com/megatron/deterministic-training"' in html
    html = client.get("/en/wizard/result/").content.decode()
    assert "Latency and determinism" in html
    assert "Ring&#x27;s reduction order is fixed by topology" in html
    # A RoCE result has no such section.
    attach(client, make_session(answers={**strict, "determinism": "standard"}))
    assert 'data-testid="determinism"' not in client.get("/wizard/result/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_pdf_carries_it_with_the_sources_numbers(content, language):
    text = squash(pdf_text(render_pdf_document(sample_report(language, "infiniband")).content))
    heading = "时延与确定性" if language == "zh-hans" else "Latencyanddeterminism"
    assert heading in text
    for value in VALUES:
        assert squash(value) in text
    assert "docs.nvidia.com/megatron/deterministic-training" in text
    with translation.override(language):
        vm = present(fresh(sample_report(language, "infiniband").answers), id_prefix="t")
        number = [s.original for s in vm.sources].index(MEGATRON_DETERMINISM.title) + 1
    assert f"NCCL_ALGO=Ring[{number}]" in text
    roce = squash(pdf_text(render_pdf_document(sample_report(language, "roce")).content))
    assert "NCCL_ALGO=Ring" not in roce
