"""RoCE v2 lossless tuning values (domain.md section 4)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector.domain.tuning import (
    SOURCES,
    Tuning,
    TuningError,
    bdp_bytes,
    lossless_tuning,
    pfc_headroom_bytes,
)


def test_400g_defaults():
    t = lossless_tuning(400)
    assert (t.speed_gbps, t.cable_m, t.mtu, t.rtt_us) == (400, 100, 4200, 20.0)
    # Cumulus Linux lossless RoCE defaults
    assert (t.pfc_priority, t.roce_dscp, t.cnp_dscp, t.cnp_priority) == (3, 26, 48, 6)
    assert t.roce_udp_port == 4791
    assert (t.ecn_min_bytes, t.ecn_max_bytes, t.ecn_probability_pct) == (150_000, 1_500_000, 100)
    # BDP = 20 us x 400 Gb/s = 1,000,000 bytes; ECN max rule of thumb 2-3 x BDP
    assert t.bdp_bytes == 1_000_000
    assert t.ecn_max_rule_of_thumb_bytes == (2_000_000, 3_000_000)
    # mlx5: (301 + 2.16 * 100) * 400 + 2.72 * 4200 = 206,800 + 11,424
    assert t.pfc_headroom_bytes == 218_224
    assert t.pfc_watchdog is True and t.adaptive_routing is True


def test_800g():
    t = lossless_tuning(800)
    assert t.bdp_bytes == 2_000_000
    assert t.ecn_max_rule_of_thumb_bytes == (4_000_000, 6_000_000)
    assert t.pfc_headroom_bytes == 425_024


@pytest.mark.parametrize(
    ("speed", "cable", "mtu", "expected"),
    [
        (100, 1, 1500, 34_396),  # (301 + 2.16) * 100 + 4080
        (100, 1, 1501, 34_399),  # 34,398.72 rounded up
        (200, 5, 9216, 87_428),  # (301 + 10.8) * 200 + 25,067.52 = 87,427.52, up
        (800, 2000, 9216, 3_721_868),  # (301 + 4320) * 800 + 25,067.52, up
    ],
)
def test_pfc_headroom_rounds_up(speed, cable, mtu, expected):
    assert pfc_headroom_bytes(speed, cable, mtu) == expected
    assert lossless_tuning(speed, cable, mtu).pfc_headroom_bytes == expected


def test_bdp_exact_and_rounded_up():
    assert bdp_bytes(400, 20.0) == 1_000_000
    assert bdp_bytes(100, 0.1) == 1_250  # exact, no float noise
    assert bdp_bytes(200, 0.3) == 7_500
    assert bdp_bytes(100, 10.001) == 125_013  # 125,012.5 up
    assert lossless_tuning(400, rtt_us=5).bdp_bytes == 250_000
    assert lossless_tuning(400, rtt_us=5).rtt_us == 5.0


@given(
    st.sampled_from((100, 200, 400, 800)),
    st.integers(1, 2000),
    st.integers(1500, 9216),
    st.integers(1, 10_000).map(lambda x: x / 10),
)
def test_formulas_property(speed, cable, mtu, rtt):
    t = lossless_tuning(speed, cable, mtu, rtt)
    exact = (301 + Fraction(216, 100) * cable) * speed + Fraction(272, 100) * mtu
    assert t.pfc_headroom_bytes == math.ceil(exact)
    bdp = Fraction(str(rtt)) * speed * 125
    assert t.bdp_bytes == math.ceil(bdp)
    assert t.ecn_max_rule_of_thumb_bytes == (2 * t.bdp_bytes, 3 * t.bdp_bytes)
    assert lossless_tuning(speed, min(cable + 1, 2000), mtu, rtt).pfc_headroom_bytes >= (
        t.pfc_headroom_bytes
    )


@pytest.mark.parametrize(
    ("kwargs", "field", "code"),
    [
        ({"speed_gbps": 300}, "speed_gbps", "invalid_choice"),
        ({"speed_gbps": 25}, "speed_gbps", "invalid_choice"),
        ({"speed_gbps": 400.0}, "speed_gbps", "invalid"),
        ({"speed_gbps": True}, "speed_gbps", "invalid"),
        ({"speed_gbps": "400"}, "speed_gbps", "invalid"),
        ({"cable_m": 0}, "cable_m", "out_of_range"),
        ({"cable_m": 2001}, "cable_m", "out_of_range"),
        ({"cable_m": 1.5}, "cable_m", "invalid"),
        ({"mtu": 1499}, "mtu", "out_of_range"),
        ({"mtu": 9217}, "mtu", "out_of_range"),
        ({"mtu": None}, "mtu", "invalid"),
        ({"rtt_us": 0}, "rtt_us", "out_of_range"),
        ({"rtt_us": -1.0}, "rtt_us", "out_of_range"),
        ({"rtt_us": 1000.5}, "rtt_us", "out_of_range"),
        ({"rtt_us": float("nan")}, "rtt_us", "out_of_range"),
        ({"rtt_us": float("inf")}, "rtt_us", "out_of_range"),
        ({"rtt_us": "20"}, "rtt_us", "invalid"),
        ({"rtt_us": True}, "rtt_us", "invalid"),
    ],
)
def test_validation(kwargs, field, code):
    args = {"speed_gbps": 400, **kwargs}
    with pytest.raises(TuningError) as exc:
        lossless_tuning(**args)
    assert isinstance(exc.value, ValueError)
    assert (exc.value.field, exc.value.code) == (field, code)


@pytest.mark.parametrize("args", [(100, 1, 1500), (800, 2000, 9216)])
def test_limits_accepted(args):
    assert lossless_tuning(*args).speed_gbps == args[0]


def test_every_value_has_a_source():
    t = lossless_tuning(400)
    sourced = {
        "pfc_priority", "roce_dscp", "cnp_dscp", "cnp_priority", "roce_udp_port",
        "ecn_min_bytes", "ecn_max_bytes", "ecn_probability_pct", "rtt_us", "bdp_bytes",
        "ecn_max_rule_of_thumb_bytes", "pfc_headroom_bytes", "pfc_watchdog", "adaptive_routing",
    }
    assert set(t.sources) == sourced == set(SOURCES)
    assert all(isinstance(v, str) and len(v) > 20 for v in t.sources.values())
    assert "port_buffer.c" in t.sources["pfc_headroom_bytes"]
    assert "Cumulus" in t.sources["ecn_min_bytes"]
    assert "SIGCOMM 2016" in t.sources["pfc_watchdog"]
    assert t.sources is not SOURCES


def test_to_dict_is_json_safe():
    t = lossless_tuning(800, 30, 9000, 12.5)
    data = t.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["ecn_max_rule_of_thumb_bytes"] == list(t.ecn_max_rule_of_thumb_bytes)
    assert data["pfc_headroom_bytes"] == t.pfc_headroom_bytes
    assert data["sources"] == SOURCES
    assert isinstance(t, Tuning)
