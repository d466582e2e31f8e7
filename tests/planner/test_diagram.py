"""THE fabric diagram (selector.planner.diagram): one drawing for page and PDF."""

import re

import pytest
from django.utils import translation

from selector.domain import DEFAULT_CATALOGUE, Answers, recommend
from selector.planner.diagram import HALO, fabric_svg


def _svg(gpus, gps=8, variant="web", **kw):
    # throughput_limited: small clusters get a back-end fabric too (rule R3 does not apply)
    answers = Answers(gpus=gpus, gpus_per_server=gps, throughput_limited=True, **kw)
    rec = recommend(answers, DEFAULT_CATALOGUE)
    with translation.override("en"):
        return rec, str(fabric_svg(rec.recommended, "t", variant=variant))


@pytest.mark.parametrize("gpus", [16, 64, 1024, 4096, 16000, 100_000, 1_000_000])
def test_it_draws_groups_with_counts_at_any_scale(gpus):
    rec, svg = _svg(gpus)
    plan = rec.recommended.plan
    size = plan.largest_plane
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    # Groups, not one box per switch: a handful of boxes whatever the size.
    assert svg.count("<rect") <= 10
    assert f"Servers ×{plan.servers:,}" in svg
    assert f"{size.links['gpu_leaf']:,} × {plan.port_gbps}G links" in svg
    assert (f"Core ×{size.core:,}" in svg) == (size.tiers == 3)
    assert (f"Spine ×{size.spine:,}" in svg) == (size.tiers >= 2)
    assert (f"One of {plan.plane_count} identical planes" in svg) == (plan.plane_count > 1)
    # One plane: the switch total in the corner (not a speed that reads as the leaves').
    assert (f">{size.switches:,} switches<" in svg) == (plan.plane_count == 1)
    assert "style=" not in svg and "<script" not in svg
    height = int(re.search(r'viewBox="0 0 360 (\d+)"', svg).group(1))
    assert height < 400


def test_a_redundant_pair_is_drawn_as_one_switch_per_plane():
    rec, svg = _svg(64)
    assert rec.recommended.plan.design == "switch-per-plane"
    assert "Switch ×1" in svg and "One of 2 identical planes" in svg and "Spine" not in svg


def test_it_labels_the_rails_and_the_uplink_speed():
    _, svg = _svg(2048, vendor="arista")  # R6 on Tomahawk 5: 800G core, 400G GPU links
    assert "Rail 1" in svg and "Rail 8" in svg and "…" in svg
    assert "× 800G links" in svg and "× 400G links" in svg


def test_print_variant_is_the_same_drawing_in_the_report_font():
    _, web = _svg(4096)
    _, printed = _svg(4096, variant="print")
    strip = re.compile(r'font-family="[^"]*"|class="[^"]*"|' + re.escape(HALO["web"]))
    assert strip.sub("", web) == strip.sub("", printed)
    assert "Noto Sans CJK SC Report" in printed


def test_print_labels_have_no_halo_that_weasyprint_would_paint_over_them():
    # WeasyPrint ignores paint-order: a white stroke on a label covers its glyphs.
    _, web = _svg(4096)
    _, printed = _svg(4096, variant="print")
    assert web.count('paint-order="stroke"') == 2  # the spine and leaf link labels
    assert "stroke=" not in "".join(re.findall(r"<text[^>]*>", printed))


def test_it_is_accessible_and_translated():
    answers = Answers(gpus=16000, throughput_limited=True)
    with translation.override("zh-hans"):
        svg = str(fabric_svg(recommend(answers, DEFAULT_CATALOGUE).recommended, "t"))
    assert 'role="img"' in svg and 'aria-labelledby="t-title t-desc"' in svg
    assert "<title" in svg and "<desc" in svg
    assert "轨道" in svg


def test_it_draws_nothing_without_a_plan():
    rec = recommend(Answers(gpus=8), DEFAULT_CATALOGUE)
    assert fabric_svg(rec.recommended) == ""
