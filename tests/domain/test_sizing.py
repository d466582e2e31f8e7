"""Rail-optimized fat-tree sizing (domain.md section 2)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from selector.domain.sizing import (
    OVERSUB_MAX,
    OVERSUB_MIN,
    RADIX_MAX,
    RADIX_MIN,
    FabricSize,
    FabricTooLarge,
    SizingError,
    leaf_port_plan,
    leaf_split,
    max_gpus,
    size_fabric,
)


def test_bounds():
    assert (RADIX_MIN, RADIX_MAX, OVERSUB_MIN, OVERSUB_MAX) == (4, 1024, 1, 8)
    assert issubclass(FabricTooLarge, SizingError)
    assert issubclass(SizingError, ValueError)


# --- reference figures -----------------------------------------------------------------------


def test_superpod_512():
    # NVIDIA DGX SuperPOD B200 RA, 2 SUs: 512 GPUs -> 16 leaf, 8 spine, no core.
    f = size_fabric(512, 8, 64)
    assert (f.tiers, f.leaf, f.spine, f.core, f.switches) == (2, 16, 8, 0, 24)
    assert f.links == {"gpu_leaf": 512, "leaf_spine": 512, "spine_core": 0}
    assert f.transceiver_ends == 2048
    assert (f.servers, f.rails, f.leaf_down, f.leaf_up) == (64, 8, 32, 32)


def test_worked_example_1024():
    f = size_fabric(1024, 8, 64)
    assert (f.tiers, f.leaf, f.spine, f.core) == (2, 32, 16, 0)
    assert f.links == {"gpu_leaf": 1024, "leaf_spine": 1024, "spine_core": 0}
    assert f.transceiver_ends == 4096
    assert f.servers == 128
    assert f.leaf_ports() == ((32, 32),) * 32


def test_worked_example_1024_on_radix_128():
    f = size_fabric(1024, 8, 128)
    assert (f.tiers, f.leaf, f.spine, f.core) == (2, 16, 8, 0)
    assert f.transceiver_ends == 4096


def test_defaults():
    assert size_fabric(512) == size_fabric(512, 8, 64, 1)


@pytest.mark.parametrize(
    ("gpus", "leaves"), [(4096, 128), (8192, 256), (16384, 512), (65536, 2048)]
)
def test_three_tier_full_non_blocking(gpus, leaves):
    # With r=1 and full leaves: spines = leaves, core = leaves / 2 (domain.md, derived).
    f = size_fabric(gpus, 8, 64)
    assert f.tiers == 3
    assert (f.leaf, f.spine, f.core) == (leaves, leaves, leaves // 2)
    assert f.links == {"gpu_leaf": gpus, "leaf_spine": gpus, "spine_core": gpus}
    assert f.transceiver_ends == 6 * gpus
    assert f.switches == leaves * 5 // 2


def test_three_tier_partial():
    # 2100 GPUs, 8/server, k=64: 263 servers (last one has 4 GPUs), 9 leaves per rail.
    f = size_fabric(2100, 8, 64)
    assert f.servers == 263 and f.tiers == 3 and f.leaf == 72
    assert sum(d for d, _ in f.leaf_ports()) == 2100
    assert f.links["leaf_spine"] == 2100 and f.links["spine_core"] == 2100
    assert f.spine == math.ceil(2100 / 32) and f.core == math.ceil(2100 / 64)


def test_oversubscribed_leaf():
    assert leaf_split(64, 3) == (48, 16)  # domain.md: k=64 at 3:1 gives 48 down / 16 up
    assert leaf_split(64, 1) == (32, 32)
    assert leaf_split(4, 8) == (3, 1)
    # 1024 GPUs at 3:1: 128 servers over ceil(128/48) = 3 leaves per rail as 43/43/42,
    # uplinks ceil(43/3) = 15, 15, ceil(42/3) = 14 -> 44 per rail, 352 in all.
    f = size_fabric(1024, 8, 64, 3)
    assert (f.tiers, f.leaf, f.spine) == (2, 24, 6)
    assert f.links["leaf_spine"] == 352
    assert sorted(f.leaf_ports()) == sorted([(43, 15)] * 16 + [(42, 14)] * 8)
    assert (f.leaf_down, f.leaf_up, f.oversubscription) == (48, 16, 3)


def test_partial_last_server():
    # 9 GPUs at 8 per server: server 2 only has GPU 0, so rail 0 has 2 GPUs, rails 1-7 one.
    f = size_fabric(9, 8, 64)
    assert (f.servers, f.rails, f.leaf) == (2, 8, 8)
    assert sorted(f.leaf_ports()) == sorted([(2, 2)] + [(1, 1)] * 7)
    assert (f.spine, f.links["leaf_spine"]) == (1, 9)


def test_single_partly_populated_server():
    f = size_fabric(3, 8, 64)
    assert (f.servers, f.rails, f.leaf, f.spine) == (1, 3, 3, 1)
    assert f.leaf_ports() == ((1, 1),) * 3


def test_underfilled_leaf_buys_only_needed_uplinks():
    f = size_fabric(16, 8, 64, 3)  # 2 servers: 2 GPUs per rail leaf
    assert f.leaf_ports() == ((2, 1),) * 8
    assert f.links["leaf_spine"] == 8


# --- maxima ----------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [4, 8, 16, 32, 64, 128, 256, 1024])
@pytest.mark.parametrize("rails", [1, 2, 4])
def test_al_fares_maxima(k, rails):
    # Non-blocking 2-tier: k^2/2, 3-tier: k^3/4 (Al-Fares et al., SIGCOMM 2008), R | k.
    assert max_gpus(rails, k, 1, 2) == k * k // 2
    assert max_gpus(rails, k, 1, 3) == k**3 // 4


@pytest.mark.parametrize("k", [8, 16, 64, 128])
def test_al_fares_maxima_8_rails(k):
    assert max_gpus(8, k, 1, 2) == k * k // 2
    assert max_gpus(8, k, 1, 3) == k**3 // 4


def test_max_gpus_examples():
    assert max_gpus(8, 64, 1, 2) == 2048
    assert max_gpus(8, 64, 1, 3) == 65536
    assert max_gpus(8, 64, 3, 2) == 8 * 8 * 48
    assert max_gpus(16, 4, 1, 2) == 4  # a single partly populated server
    assert max_gpus(16, 4, 1, 3) == 8
    assert max_gpus(3, 4, 1, 2) == 3 * 1 * 2


def test_tier_boundary_and_largest_size():
    top2 = max_gpus(8, 64, 1, 2)
    assert size_fabric(top2, 8, 64).tiers == 2
    assert size_fabric(top2 + 1, 8, 64).tiers == 3
    top3 = max_gpus(8, 64, 1, 3)
    assert size_fabric(top3, 8, 64).tiers == 3
    with pytest.raises(FabricTooLarge) as exc:
        size_fabric(top3 + 1, 8, 64)
    err = exc.value
    assert err.max_gpus == 65536 and err.gpus == 65537
    assert (err.field, err.code) == ("gpus", "too_large")
    assert "65536" in str(err) and "max_gpus" in str(err)


def test_too_large_for_a_million():
    with pytest.raises(FabricTooLarge) as exc:
        size_fabric(1_000_000, 8, 64)
    assert exc.value.max_gpus == 65536
    assert size_fabric(1_000_000, 8, 256).tiers == 3


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field", "code"),
    [
        ({"gpus": 0}, "gpus", "out_of_range"),
        ({"gpus": -1}, "gpus", "out_of_range"),
        ({"gpus": True}, "gpus", "invalid"),
        ({"gpus": 8.0}, "gpus", "invalid"),
        ({"gpus": "8"}, "gpus", "invalid"),
        ({"gpus_per_server": 0}, "gpus_per_server", "out_of_range"),
        ({"gpus_per_server": 17}, "gpus_per_server", "out_of_range"),
        ({"gpus_per_server": None}, "gpus_per_server", "invalid"),
        ({"radix": 63}, "radix", "odd_radix"),
        ({"radix": 65}, "radix", "odd_radix"),
        ({"radix": 2}, "radix", "radix_too_small"),
        ({"radix": 3}, "radix", "radix_too_small"),
        ({"radix": 0}, "radix", "radix_too_small"),
        ({"radix": 1026}, "radix", "radix_too_large"),
        ({"radix": 64.0}, "radix", "invalid"),
        ({"oversubscription": 0}, "oversubscription", "out_of_range"),
        ({"oversubscription": 9}, "oversubscription", "out_of_range"),
        ({"oversubscription": 1.5}, "oversubscription", "invalid"),
    ],
)
def test_size_fabric_validation(kwargs, field, code):
    args = {"gpus": 64, "gpus_per_server": 8, "radix": 64, "oversubscription": 1, **kwargs}
    with pytest.raises(SizingError) as exc:
        size_fabric(**args)
    assert (exc.value.field, exc.value.code) == (field, code)
    assert not isinstance(exc.value, FabricTooLarge)


def test_radix_limits_accepted():
    assert size_fabric(4, 1, RADIX_MIN).leaf_down == 2
    assert size_fabric(4, 1, RADIX_MAX).leaf_down == 512


@pytest.mark.parametrize(
    ("args", "field", "code"),
    [
        ((8, 64, 1, 1), "tiers", "out_of_range"),
        ((8, 64, 1, 4), "tiers", "out_of_range"),
        ((8, 63, 1, 2), "radix", "odd_radix"),
        ((0, 64, 1, 2), "gpus_per_server", "out_of_range"),
        ((8, 64, 9, 2), "oversubscription", "out_of_range"),
    ],
)
def test_max_gpus_validation(args, field, code):
    with pytest.raises(SizingError) as exc:
        max_gpus(*args)
    assert (exc.value.field, exc.value.code) == (field, code)


def test_leaf_split_validation():
    with pytest.raises(SizingError):
        leaf_split(5, 1)


def test_to_dict_is_json_safe():
    f = size_fabric(2100, 8, 64, 2)
    data = f.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["links"] == f.links and data["links"] is not f.links
    assert sum(g["count"] for g in data["leaf_groups"]) == f.leaf


# --- invariants ------------------------------------------------------------------------------


@st.composite
def fabric_inputs(draw, largest=False):
    k = draw(st.integers(RADIX_MIN // 2, 128).map(lambda x: 2 * x))  # even 4..256
    r = draw(st.integers(OVERSUB_MIN, OVERSUB_MAX))
    gps = draw(st.integers(1, 16))
    top = max_gpus(gps, k, r, 3)
    gpus = draw(
        st.one_of(
            st.integers(1, min(top, 3000)),
            st.integers(1, top),
            st.sampled_from(sorted({1, gps, gps + 1, top, max(1, top - 1),
                                    max_gpus(gps, k, r, 2), max_gpus(gps, k, r, 2) + 1})),
        )
    )
    assume(gpus <= top)
    return gpus, gps, k, r


def check_invariants(gpus, gps, k, r):
    f = size_fabric(gpus, gps, k, r)
    down_max, up_max = leaf_split(k, r)
    assert (f.leaf_down, f.leaf_up) == (down_max, up_max)
    assert down_max + up_max == k
    servers = math.ceil(gpus / gps)
    assert f.servers == servers
    assert f.rails == min(gps, gpus)

    leaves = f.leaf_ports()
    assert leaves == leaf_port_plan(gpus, gps, k, r)
    assert len(leaves) == f.leaf == f.rails * math.ceil(servers / down_max)
    # every GPU has a leaf port
    assert sum(d for d, _ in leaves) == gpus == f.links["gpu_leaf"]
    for d, u in leaves:
        assert d >= 1  # no empty leaf is bought
        assert d <= down_max and u <= up_max
        assert d + u <= k  # no leaf uses more than k ports
        assert u * r >= d  # uplink capacity >= downlink capacity / r
        assert u == math.ceil(d / r)  # and no more than that
    # GPUs spread evenly over each rail's leaves: at most 2 leaf sizes per rail kind
    assert max(d for d, _ in leaves) - min(d for d, _ in leaves) <= 2
    uplinks = sum(u for _, u in leaves)
    assert uplinks == f.links["leaf_spine"]

    spines = f.spine_ports()
    assert len(spines) == f.spine
    if f.tiers == 2:
        assert f.leaf <= k
        assert f.core == 0 and f.links["spine_core"] == 0 and f.core_ports() == ()
        assert f.spine == math.ceil(uplinks / k)
        assert f.spine * k >= uplinks  # every uplink lands on a spine port (on average)
        for down, up in spines:  # ... and by construction
            assert down <= k and up == 0
    else:
        assert k < f.leaf <= k * k // 2
        half = k // 2
        assert f.spine == math.ceil(uplinks / half)
        assert f.spine * half >= uplinks
        for down, up in spines:
            assert down <= half and up <= half and down + up <= k
        assert f.links["spine_core"] == sum(up for _, up in spines) == uplinks
        core = f.core_ports()
        assert len(core) == f.core == math.ceil(uplinks / k)
        assert f.core * k >= f.links["spine_core"]  # every spine uplink lands on a core port
        assert all(p <= k for p in core) and sum(core) == uplinks
    assert sum(down for down, _ in spines) == uplinks
    assert f.switches == f.leaf + f.spine + f.core
    assert f.transceiver_ends == 2 * sum(f.links.values())
    return f


@settings(max_examples=400, deadline=None)
@given(fabric_inputs())
def test_invariants(inputs):
    check_invariants(*inputs)


@settings(max_examples=150, deadline=None)
@given(fabric_inputs())
def test_more_gpus_never_needs_fewer_switches(inputs):
    gpus, gps, k, r = inputs
    assume(gpus < max_gpus(gps, k, r, 3))
    a, b = size_fabric(gpus, gps, k, r), size_fabric(gpus + 1, gps, k, r)
    # Leaves and tiers never shrink. (Uplinks may: one more leaf per rail spreads the GPUs
    # more evenly and can waste less to per-leaf ceil(down / r) rounding when r > 1.)
    assert b.leaf >= a.leaf and b.tiers >= a.tiers
    assert b.links["gpu_leaf"] == a.links["gpu_leaf"] + 1


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 128).map(lambda x: 2 * x),
    st.integers(OVERSUB_MIN, OVERSUB_MAX),
    st.integers(1, 16),
    st.integers(1, 10**6),
)
def test_beyond_three_tiers_raises_with_the_max(k, r, gps, extra):
    top = max_gpus(gps, k, r, 3)
    size_fabric(top, gps, k, r)  # the max itself fits
    with pytest.raises(FabricTooLarge) as exc:
        size_fabric(top + extra, gps, k, r)
    assert exc.value.max_gpus == top
    assert str(top) in str(exc.value)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 128).map(lambda x: 2 * x),
    st.integers(OVERSUB_MIN, OVERSUB_MAX),
    st.integers(1, 16),
)
def test_two_tier_max_is_exact(k, r, gps):
    top = max_gpus(gps, k, r, 2)
    assert size_fabric(top, gps, k, r).tiers == 2
    assert size_fabric(top + 1, gps, k, r).tiers == 3


def test_exhaustive_small_radix():
    # Every GPU count for every shape at k = 4 and 6, and at k = 8 for r = 1 and 3.
    for k, ratios in ((4, range(1, 9)), (6, range(1, 9)), (8, (1, 3))):
        for r in ratios:
            for gps in range(1, 17):
                for gpus in range(1, max_gpus(gps, k, r, 3) + 1):
                    check_invariants(gpus, gps, k, r)


def test_fabric_size_is_frozen() -> None:
    f = size_fabric(64)
    assert isinstance(f, FabricSize)
    with pytest.raises(AttributeError):
        f.leaf = 1  # type: ignore[misc]  # frozen: the refused assignment is the subject
