"""Even spine counts: how NVIDIA's published rows wire a two-tier plane (every leaf over
the same number of links to every spine), and what that costs over the minimum. Pure
Python, no Django.
"""

from __future__ import annotations

from dataclasses import replace

from .sizing import FabricSize

__all__ = ["even_plan", "even_spines"]


def even_plan(size: FabricSize) -> tuple[FabricSize, int] | None:
    """The published way to wire a 2-tier plane, where it costs little: every leaf cabled
    like the fullest one (a leaf at most one uplink short of it gets that uplink, and so do
    leaves all one short of their uplink budget: NVIDIA cables whole scalable units, the
    DGX SuperPOD H100 3-SU row of 760 GPUs has the cables of 768), and the fewest spines,
    at most a third more than the minimum, that every leaf reaches over the same number of
    links. Returns the plane and the uplinks it adds, or None when the plane is already
    even or no such count exists (then the plan keeps the minimum and the
    ``uneven_spine_links`` note names the even count).

    Published rows this reproduces: H100 (QM9700) 760 GPUs → 24 leaf / 16 spine, 1,016 →
    32 / 16; B300 XDR (Q3400) 2,304 → 32 / 18, 4,608 → 64 / 36."""
    if size.tiers != 2 or not size.leaf_groups:
        return None
    up = max(u for _n, _d, u in size.leaf_groups)
    if all(u == up for _n, _d, u in size.leaf_groups) and up % size.spine == 0:
        return None
    for target in (up, up + 1):  # as the fullest leaf, or one more (1 SU: 31 -> 32)
        if target > size.leaf_up or any(u < target - 1 for _n, _d, u in size.leaf_groups):
            continue
        found = _even_at(size, target)
        if found is not None:
            return found
    return None


def _even_at(size: FabricSize, up: int) -> tuple[FabricSize, int] | None:
    k = size.radix
    total = size.leaf * up
    for spines in range(size.spine, -(-4 * size.spine // 3) + 1):
        if spines <= k and up % spines == 0 and total <= spines * k:
            groups: dict[tuple[int, int], int] = {}
            for n, down, _u in size.leaf_groups:
                groups[(down, up)] = groups.get((down, up), 0) + n
            links = {**size.links, "leaf_spine": total}
            return replace(
                size, spine=spines, switches=size.leaf + spines, links=links,
                transceiver_ends=2 * sum(links.values()),
                leaf_groups=tuple((n, d, u) for (d, u), n in sorted(groups.items(),
                                                                    reverse=True)),
            ), total - size.links["leaf_spine"]
    return None


def even_spines(size: FabricSize) -> tuple[int, int] | None:
    """The fewest spines (more than ``size.spine``, at most the radix) that every leaf of a
    2-tier plane reaches over the same number of links, each leaf rounding its uplinks up
    to a multiple of them within its uplink ports, and the extra uplinks that takes; None
    when no such count exists. (A leaf with fewer uplinks than spines reaches a subset.)"""
    k = size.radix
    for spines in range(size.spine + 1, k + 1):
        total = 0
        for count, _down, up in size.leaf_groups:
            wired = -(-up // spines) * spines if up >= spines else up
            if wired > size.leaf_up:
                break
            total += count * wired
        else:
            if total <= spines * k:
                return spines, total - size.links["leaf_spine"]
    return None
