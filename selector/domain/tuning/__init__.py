"""RoCE v2 lossless tuning: one profile per switch family, matched to the switch in the plan
(the seed's 三件套, its three parts: PFC, ECN, adaptive routing), with a copyable configuration
snippet whose every line cites the vendor document it comes from; and the InfiniBand card.

Pure Python, no Django. One value per setting, the switch family's own; a rule of thumb is
never a second value. Sources: the vendors' documents read on 2026-12-01 (team research
notes, issue 12); citations are ``Citation(source, remark)`` pairs from here to the page.

The package: ``model`` (the data classes, validation, port spans, ``Family``), ``nic`` (the
GPU servers' side), one module per switch family (``spectrum``, ``sonic``), ``registry``
(the list of families and ``tuning_profile``) and ``infiniband``. This module is the public
API; callers import from here.
"""

from __future__ import annotations

from .infiniband import InfinibandTuning, infiniband_tuning
from .model import (
    CABLE_M_MAX,
    CABLE_M_MIN,
    LOSSLESS_MAX_M,
    N_,
    NIC_SECTION,
    SPEEDS_GBPS,
    SPINE_SECTION,
    Citation,
    ConfigLine,
    Family,
    LeafPorts,
    PortGroup,
    TuningError,
    TuningProfile,
    Warn,
    config_sections,
)
from .model import CL_ROCE as CL_ROCE
from .nic import bdp_bytes, nic_xoff_bytes
from .registry import FAMILIES, LABELS, OS_NAMES, tuning_profile
from .sonic import SONIC_CMDREF as SONIC_CMDREF

__all__ = [
    "FAMILIES",
    "OS_NAMES",
    "LABELS",
    "SPEEDS_GBPS",
    "CABLE_M_MIN",
    "CABLE_M_MAX",
    "TuningError",
    "Citation",
    "ConfigLine",
    "TuningProfile",
    "LeafPorts",
    "PortGroup",
    "Warn",
    "Family",
    "N_",
    "SPINE_SECTION",
    "NIC_SECTION",
    "config_sections",
    "LOSSLESS_MAX_M",
    "tuning_profile",
    "InfinibandTuning",
    "infiniband_tuning",
    "nic_xoff_bytes",
    "bdp_bytes",
]
