import re

import pytest
from django.utils import translation

from selector.core.diagram import fabric_svg
from selector.core.results import compute_result
from selector.domain import DEFAULT_CATALOGUE, Answers


def _svg(gpus, gps=8, **kw):
    # throughput_limited: small clusters get a back-end fabric too (rule R3 does not apply)
    answers = Answers(gpus=gpus, gpus_per_server=gps, throughput_limited=True, **kw)
    result = compute_result(answers, DEFAULT_CATALOGUE)
    with translation.override("en"):
        return result, str(fabric_svg(result.recommended, "t"))


@pytest.mark.parametrize("gpus", [16, 64, 1024, 4096, 16000])
def test_it_draws_groups_with_counts_at_any_scale(gpus):
    result, svg = _svg(gpus)
    size = result.recommended.plan.size
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    # Groups, not one box per switch: a handful of boxes whatever the size.
    assert svg.count("<rect") <= 10
    assert f"Spine ×{size.spine:,}" in svg
    assert f"Servers ×{size.servers:,}" in svg
    assert f"{size.links['gpu_leaf']:,} links" in svg
    assert (f"Core ×{size.core:,}" in svg) == (size.tiers == 3)
    assert "style=" not in svg and "<script" not in svg
    height = int(re.search(r'viewBox="0 0 360 (\d+)"', svg).group(1))
    assert height < 400


def test_it_labels_the_rails():
    with translation.override("en"):
        _, svg = _svg(64, gps=8)
        assert "Rail 1" in svg and "Rail 8" in svg and "…" in svg
        _, svg = _svg(4, gps=2, budget="performance")
        assert "Rail 2" in svg and "…" not in svg


def test_it_is_accessible_and_translated():
    answers = Answers(gpus=16000, throughput_limited=True)
    with translation.override("zh-hans"):
        svg = str(fabric_svg(compute_result(answers, DEFAULT_CATALOGUE).recommended, "t"))
    assert 'role="img"' in svg and 'aria-labelledby="t-title t-desc"' in svg
    assert "<title" in svg and "<desc" in svg
    assert "核心" in svg and "轨道" in svg


def test_it_draws_nothing_without_a_plan():
    result = compute_result(Answers(gpus=8), DEFAULT_CATALOGUE)
    assert fabric_svg(result.recommended) == ""
