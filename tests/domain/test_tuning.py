"""One lossless profile per switch family: one value per setting, the vendor's own, each
with its source; a copyable snippet whose every line cites a document; warnings when the
plan needs them."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from selector.domain import DEFAULT_CATALOGUE, Answers, TuningProfile, recommend
from selector.domain.catalogue import internal_path
from selector.domain.tuning import (
    FAMILIES,
    LeafPorts,
    TuningError,
    bdp_bytes,
    nic_xoff_bytes,
    tuning_profile,
)
from selector.planner.words import remark


def test_spectrum_profile_is_cumulus_lossless():
    t = tuning_profile("nvidia-spectrum", 400, uplink_gbps=400, cable_m=50)
    assert (t.pfc_priority, t.roce_dscp, t.cnp_dscp, t.cnp_priority, t.roce_udp_port) == (
        3, 26, 48, 6, 4791)
    # One ECN maximum: Cumulus's, in bytes (no BDP rule of thumb as a second value).
    assert (t.ecn_min_bytes, t.ecn_max_bytes, t.ecn_probability_pct) == (150_000, 1_500_000, 100)
    assert "ecn_max_rule_of_thumb_bytes" not in t.to_dict()
    # Spectrum computes PFC headroom from the cable length: no byte value to set.
    assert t.headroom == "switch" and t.headroom_bytes is None
    # One PFC profile per port group with its own cable length, never a global one.
    assert any(line.text == "nv set qos pfc roce-gpu cable-length 50" for line in t.config)
    assert not any("default-global" in line.text for line in t.config)
    assert t.mtu == 9216 and any(line.text.endswith("link mtu 9216") for line in t.config)
    assert t.adaptive_routing is True


def test_adaptive_routing_is_off_on_800g_links():
    t = tuning_profile("nvidia-spectrum", 400, uplink_gbps=800, cable_m=50)
    assert not t.adaptive_routing and t.ar_condition == "ar_not_800g"
    assert not any("adaptive-routing" in line.text for line in t.config)
    t = tuning_profile("nvidia-spectrum", 400, uplink_gbps=400, spectrum_x_nic=False)
    assert not t.adaptive_routing and t.ar_condition == "ar_needs_spectrum_x_nic"


def test_the_nvue_snippet_names_the_leafs_ports_as_cumulus_does():
    """GPU ports broken out 2 x 400G are swpNs0/swpNs1 after `link breakout 2x` (Cumulus
    5.18, Switch Port Attributes); 800G uplinks keep their names; adaptive routing goes on
    the ECMP (uplink) ports only."""
    from selector.domain import DEFAULT_CATALOGUE, Answers, recommend

    leaf = LeafPorts(gpu_ports=32, gpu_split=2, uplink_ports=32, uplink_split=1)
    r6 = tuning_profile("nvidia-spectrum", 400, uplink_gbps=800, cable_m=50, leaf=leaf)
    lines = [line.text for line in r6.config]
    assert lines[0] == "# Leaf: swp1-32 to the GPUs (2 ports each), swp33-64 to the spines"
    assert "nv set interface swp1-32 link breakout 2x" in lines
    watchdogs = [t.split()[3] for t in lines if t.endswith("qos pfc-watchdog")]
    ports = watchdogs[0].split(",")  # the GPU ports' group, then the uplinks'
    assert ports[:2] == ["swp1s0-1", "swp2s0-1"] and ports[31] == "swp32s0-1"
    assert len(ports) == 32 and watchdogs[1] == "swp33-64"
    leaf_block = lines[:lines.index("nv config apply")]
    assert not any("swp1-64" in t for t in leaf_block)
    r7 = recommend(Answers(256, throughput_limited=True), DEFAULT_CATALOGUE).tuning  # 400G
    lines = [line.text for line in r7.config]
    assert "nv set interface swp33-64 link breakout 2x" in lines
    ar = next(t for t in lines if t.endswith("router adaptive-routing state enabled")
              and "interface" in t)
    assert ar.split()[3].split(",")[0] == "swp33s0-1" and "swp1s0-1" not in ar
    # Every line but the comments cites the document it comes from.
    for line in r7.config:
        assert line.text.startswith("#") or line.citation is not None, line.text


def test_sonic_profile_uses_its_own_values():
    t = tuning_profile("sonic", 800, uplink_gbps=800, cable_m=3,
                       switch_key="arista-7060x6-64pe")
    assert (t.roce_dscp, t.ecn_min_bytes, t.ecn_max_bytes, t.ecn_probability_pct) == (
        3, 1_048_576, 2_097_152, 5)
    assert (t.headroom, t.headroom_bytes, t.headroom_cable) == ("table", 724_662, "5m")
    assert not t.warnings
    assert any("config pfcwd start" in line.text for line in t.config)


def test_sonic_without_a_table_row_warns():
    t = tuning_profile("sonic", 400, uplink_gbps=800, cable_m=50,
                       switch_key="arista-7060x6-64pe")
    assert t.headroom_bytes is None
    assert [w.key for w in t.warnings] == ["no_headroom_row"]
    # Without a headroom row a port cannot be lossless: the group runs lossy and says so.
    assert t.groups and not any(g.lossless for g in t.groups)
    assert {g.reason for g in t.groups} == {"no_headroom_row"}
    assert not any("pfcwd start" in line.text for line in t.config)


@pytest.mark.parametrize(("cable", "keys"), [
    (3, []), (100, []), (500, ["long_link_headroom"]), (2000, ["long_link_lossy"])])
def test_long_links_warn(cable, keys):
    leaf = LeafPorts(gpu_ports=32, gpu_split=2, uplink_ports=32, uplink_split=2)
    t = tuning_profile("nvidia-spectrum", 400, uplink_gbps=400, cable_m=cable, leaf=leaf)
    assert [w.key for w in t.warnings] == keys
    uplinks = next(g for g in t.groups if g.role == "uplink")
    assert uplinks.cable_m == cable and uplinks.lossless == (cable < 1000)


def test_the_recommended_switch_picks_the_profile_and_the_cable():
    rec = recommend(Answers(512, distance="campus"), DEFAULT_CATALOGUE)
    assert rec.tuning.family == rec.recommended.plan.switch.family
    assert rec.tuning.cable_m == 2000 and rec.tuning.warnings[-1].key == "long_link_lossy"
    rec = recommend(Answers(512, budget="performance"), DEFAULT_CATALOGUE)
    assert rec.tuning is None  # InfiniBand: no RoCE tuning


def _zh(text: str) -> str:
    """A remark as the Chinese page shows it."""
    with translation.override("zh-hans"):
        return remark(text)


@pytest.mark.parametrize("family", FAMILIES)
def test_every_value_and_line_is_cited_and_every_remark_translated(family):
    t = tuning_profile(family, 400, uplink_gbps=400, cable_m=50,
                       switch_key="arista-7060x6-64pe")
    for key in ("pfc_priority", "dscp", "udp_port", "ecn", "headroom", "watchdog",
                "adaptive_routing"):
        assert t.citations[key], key
    for line in t.config:
        assert line.text.startswith("#") or (line.citation and line.citation.source.title), \
            line.text
    for cits in t.citations.values():
        for cit in cits:
            assert _zh(cit.remark) != cit.remark, cit.remark
            assert not internal_path(cit.source.title) and not internal_path(cit.source.url)
    for line in t.config:
        assert line.citation is None or _zh(line.citation.remark) != line.citation.remark, \
            line.citation.remark
    assert TuningProfile.from_dict(json.loads(json.dumps(t.to_dict()))) == t


def test_unknown_family_has_no_profile_and_bad_input_is_refused():
    assert tuning_profile("nvidia-quantum", 400) is None
    with pytest.raises(TuningError):
        tuning_profile("nvidia-spectrum", 300)
    with pytest.raises(TuningError):
        tuning_profile("nvidia-spectrum", 400, cable_m=0)
    with pytest.raises(TuningError):
        tuning_profile("nvidia-spectrum", 400, cable_m=True)


@given(st.sampled_from((100, 200, 400, 800)), st.integers(1, 2000), st.integers(1500, 9216),
       st.integers(1, 10_000).map(lambda x: x / 10))
def test_nic_side_formulas(speed, cable, mtu, rtt):
    exact = (301 + Fraction(216, 100) * cable) * speed + Fraction(272, 100) * mtu
    assert nic_xoff_bytes(speed, cable, mtu) == math.ceil(exact)
    assert bdp_bytes(speed, rtt) == math.ceil(Fraction(str(rtt)) * speed * 125)
