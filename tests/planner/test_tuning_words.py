"""Every remark and warning a tuning family can produce reaches the Chinese page in
Chinese: the remarks are marked ``N_`` in the domain and are their own msgids (no table
of them in selector.planner.words), so a remark added without a translation fails here."""

from __future__ import annotations

import itertools

import pytest
from django.utils import translation

from selector.domain.determinism import SETTINGS
from selector.domain.tuning import (
    CABLE_M_MAX,
    CABLE_M_MIN,
    FAMILIES,
    SPEEDS_GBPS,
    LeafPorts,
    TuningProfile,
    Warn,
    infiniband_tuning,
    tuning_profile,
)
from selector.planner import words

LEAVES = (None, LeafPorts(gpu_ports=32, gpu_split=2, uplink_ports=32),
          LeafPorts(gpu_ports=16, gpu_split=4, uplink_ports=16, uplink_split=2))


def _profiles() -> list[TuningProfile]:
    out = []
    for family, speed, cable in itertools.product(FAMILIES, SPEEDS_GBPS,
                                                  range(CABLE_M_MIN, CABLE_M_MAX + 1)):
        profile = tuning_profile(family, speed, cable_m=cable,
                                 switch_key="arista-7060x6-64pe")
        assert profile is not None and profile.family == family
        out.append(profile)
    # Layouts with uplinks and spines, at the lengths where the groups change (GPU links
    # 5 m: the SONiC SKU table's row), each uplink speed, with and without Spectrum-X NICs.
    for family, speed, uplink, leaf, cable, gpu, nic, key in itertools.product(
            FAMILIES, SPEEDS_GBPS, SPEEDS_GBPS, LEAVES, (1, 5, 100, 101, 999, 1000, 2000),
            (None, 5), (True, False), ("", "arista-7060x6-64pe")):
        profile = tuning_profile(family, speed, uplink_gbps=uplink, cable_m=cable,
                                 gpu_cable_m=gpu, switch_key=key, spectrum_x_nic=nic,
                                 leaf=leaf)
        assert profile is not None
        out.append(profile)
    return out


@pytest.fixture(scope="module")
def produced() -> tuple[set[str], dict[tuple[str, str], Warn]]:
    remarks: set[str] = set()
    warnings: dict[tuple[str, str], Warn] = {}
    for profile in _profiles():
        remarks |= {c.remark for cits in profile.citations.values() for c in cits}
        remarks |= {line.citation.remark for line in profile.config if line.citation}
        for warn in profile.warnings:
            warnings[(warn.key, repr(sorted(warn.params.items())))] = warn
    ib = infiniband_tuning(3)
    remarks |= {c.remark for cits in ib.citations.values() for c in cits}
    remarks |= {line.citation.remark for line in ib.config if line.citation}
    remarks |= {s.citation.remark for s in SETTINGS}
    return remarks, warnings


def test_the_sweep_reaches_every_kind_of_remark_and_warning(produced):
    remarks, warnings = produced
    assert len(remarks) > 50
    assert {"Port QoS map with PFC on 3,4", "Enable adaptive routing on the ECMP ports",
            "mlnx_qos: DSCP to priority mapping", "config pfcwd start"} <= remarks
    assert {key for key, _ in warnings} == {"long_link_headroom", "long_link_lossy",
                                            "no_headroom_row"}


def test_every_remark_has_a_chinese_translation(produced):
    remarks, _ = produced
    with translation.override("zh-hans"):
        missing = sorted(r for r in remarks if not r or words.remark(r) == r)
    assert not missing, missing


def test_every_warning_is_worded_in_chinese(produced):
    _, warnings = produced
    for warn in warnings.values():
        with translation.override("en"):
            english = words.warning_text(warn)
        with translation.override("zh-hans"):
            chinese = words.warning_text(warn)
        assert english != warn.key and chinese != english, warn
        assert any("\u4e00" <= ch <= "\u9fff" for ch in chinese), chinese


def test_a_remark_without_an_entry_is_shown_as_written_and_aliases_are_worded():
    with translation.override("zh-hans"):
        assert words.remark("No such remark") == "No such remark"
        assert words.remark("") == ""
        assert words.remark("config save") == "保存配置"
        assert words.remark("Port QoS map with PFC on 3,4") == "端口 QoS 映射，PFC 启用于 3、4"
    with translation.override("en"):
        assert words.remark("config pfcwd start") == "Start the PFC watchdog"
        assert words.remark("Port QoS map with PFC on 3,4") == "Port QoS map with PFC on 3,4"
