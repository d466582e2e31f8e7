"""Cross-check of the failure domains with the cabling plan (issue 23): losing a leaf takes
down exactly the GPU links cabled to it, a spine or core exactly its cabled uplinks, a
plane exactly its GPU links (``cabling.iter_links``)."""

from __future__ import annotations

from collections import Counter

from selector.domain import DEFAULT_CATALOGUE
from selector.domain.build.cabling import iter_links
from selector.domain.build.failure import failure_domains

from .test_build_failure import plans

# The sizes the cabling plan streams quickly here (100,000 GPUs is the benchmark's).
GPUS = (8, 16, 64, 760, 1000, 2048, 8192)
NICS_PER_SERVER = (1, 4, 8, 16)


def test_failure_counts_match_the_cabled_links():
    for plan in plans(GPUS, NICS_PER_SERVER):
        rows = {row.element: row for row in failure_domains(plan)}
        per_leaf: Counter[str] = Counter()
        per_spine: Counter[str] = Counter()
        per_core: Counter[str] = Counter()
        per_plane: Counter[int] = Counter()
        for link in iter_links(plan, DEFAULT_CATALOGUE):
            if link.tier == "gpu":
                per_leaf[link.a_device] += 1
                per_plane[link.plane] += 1
            elif link.tier == "leaf_spine":
                per_spine[link.b_device] += 1
            elif link.tier == "spine_core":
                per_spine[link.a_device] += 1
                per_core[link.b_device] += 1
        assert sum(per_leaf.values()) == plan.links["gpu_leaf"]
        assert rows["leaf"].gpu_links_lost == max(per_leaf.values())
        if "spine" in rows:
            # a spine's cabled ports: its leaf links (and, in three tiers, as many up)
            most = max(per_spine.values())
            assert rows["spine"].uplinks_lost in (most, most // 2)
        if "core" in rows:
            assert rows["core"].uplinks_lost == max(per_core.values())
        if "plane" in rows:
            assert rows["plane"].gpu_links_lost == max(per_plane.values())
