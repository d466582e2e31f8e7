"""RoCE v2 lossless tuning values (the seed's "three-piece set": PFC, ECN,
adaptive routing), computed per link speed, with their sources as data.

Pure Python, no Django. Sources: shared/docs/domain.md section 4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

__all__ = [
    "SPEEDS_GBPS",
    "CABLE_M_MIN",
    "CABLE_M_MAX",
    "MTU_MIN",
    "MTU_MAX",
    "RTT_US_MIN",
    "RTT_US_MAX",
    "SOURCES",
    "TuningError",
    "Tuning",
    "bdp_bytes",
    "pfc_headroom_bytes",
    "lossless_tuning",
]

SPEEDS_GBPS = (100, 200, 400, 800)
CABLE_M_MIN, CABLE_M_MAX = 1, 2000
MTU_MIN, MTU_MAX = 1500, 9216
# A back-end fabric RTT is a few to tens of microseconds; 1 ms bounds typos.
RTT_US_MIN, RTT_US_MAX = 0.1, 1000.0

_CUMULUS = (
    "NVIDIA Cumulus Linux, RDMA over Converged Ethernet (RoCE), lossless mode defaults "
    "(CumulusNetworks/docs, RDMA-over-Converged-Ethernet-RoCE.md)"
)
_MLX5 = (
    "Linux mlx5 driver, drivers/net/ethernet/mellanox/mlx5/core/en/port_buffer.c: "
    "xoff_bytes = (301 + 2.16 * cable_m) * speed_gbps + 2.72 * MTU"
)
_HUAWEI_BDP = (
    "Huawei CloudEngine docs: ECN max threshold about 2-3 x BDP, BDP = RTT x bandwidth "
    "(RTT 20 us gives about 1 MB at 400G, 2 MB at 800G)"
)

# Value name -> citation (domain.md section 4).
SOURCES: dict[str, str] = {
    "pfc_priority": _CUMULUS + "; PFC is IEEE 802.1Qbb, enabled on switch priority 3",
    "roce_dscp": _CUMULUS + "; RoCE traffic DSCP 26 -> priority 3",
    "cnp_dscp": _CUMULUS + "; CNP DSCP 48 -> priority 6, strict priority",
    "cnp_priority": _CUMULUS + "; CNP on priority 6, strict priority",
    "roce_udp_port": "RoCE v2 uses UDP destination port 4791 (IBTA RoCEv2 annex; " + _CUMULUS + ")",
    "ecn_min_bytes": _CUMULUS + "; ECN (RFC 3168) min threshold 150 KB on the RoCE queue",
    "ecn_max_bytes": _CUMULUS + "; ECN (RFC 3168) max threshold 1.5 MB on the RoCE queue",
    "ecn_probability_pct": _CUMULUS + "; ECN marking probability 100 %",
    "rtt_us": "Assumed fabric round-trip time; 20 us is the example of " + _HUAWEI_BDP,
    "bdp_bytes": "BDP = RTT x bandwidth; " + _HUAWEI_BDP,
    "ecn_max_rule_of_thumb_bytes": _HUAWEI_BDP,
    "pfc_headroom_bytes": _MLX5 + " (rounded up to whole bytes)",
    "pfc_watchdog": (
        "PFC watchdog breaks PFC deadlocks and pause storms; SONiC enables it on lossless "
        "priorities by default. Guo et al., 'RDMA over Commodity Ethernet at Scale', "
        "SIGCOMM 2016"
    ),
    "adaptive_routing": (
        "Adaptive routing (per-packet load balancing) on NVIDIA Spectrum-2 and later, "
        "RoCE unicast only (NVIDIA Cumulus Linux ECMP docs)"
    ),
}

# Cumulus Linux lossless RoCE defaults (see SOURCES).
PFC_PRIORITY = 3
ROCE_DSCP = 26
CNP_DSCP = 48
CNP_PRIORITY = 6
ROCE_UDP_PORT = 4791
ECN_MIN_BYTES = 150_000  # 150 KB
ECN_MAX_BYTES = 1_500_000  # 1.5 MB
ECN_PROBABILITY_PCT = 100


class TuningError(ValueError):
    """Invalid tuning input; ``field`` names the argument, ``code`` is
    ``invalid``, ``invalid_choice`` or ``out_of_range``."""

    def __init__(self, field: str, code: str, message: str | None = None):
        self.field = field
        self.code = code
        super().__init__(message or f"{field}: {code}")


@dataclass(frozen=True)
class Tuning:
    speed_gbps: int
    cable_m: int
    mtu: int
    pfc_priority: int = PFC_PRIORITY
    roce_dscp: int = ROCE_DSCP
    cnp_dscp: int = CNP_DSCP
    cnp_priority: int = CNP_PRIORITY
    roce_udp_port: int = ROCE_UDP_PORT
    ecn_min_bytes: int = ECN_MIN_BYTES
    ecn_max_bytes: int = ECN_MAX_BYTES
    ecn_probability_pct: int = ECN_PROBABILITY_PCT
    rtt_us: float = 20.0
    bdp_bytes: int = 0
    ecn_max_rule_of_thumb_bytes: tuple[int, int] = (0, 0)
    pfc_headroom_bytes: int = 0
    pfc_watchdog: bool = True
    adaptive_routing: bool = True
    sources: dict = field(default_factory=lambda: dict(SOURCES))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict (the rule-of-thumb pair as a list)."""
        return {
            "speed_gbps": self.speed_gbps,
            "cable_m": self.cable_m,
            "mtu": self.mtu,
            "pfc_priority": self.pfc_priority,
            "roce_dscp": self.roce_dscp,
            "cnp_dscp": self.cnp_dscp,
            "cnp_priority": self.cnp_priority,
            "roce_udp_port": self.roce_udp_port,
            "ecn_min_bytes": self.ecn_min_bytes,
            "ecn_max_bytes": self.ecn_max_bytes,
            "ecn_probability_pct": self.ecn_probability_pct,
            "rtt_us": self.rtt_us,
            "bdp_bytes": self.bdp_bytes,
            "ecn_max_rule_of_thumb_bytes": list(self.ecn_max_rule_of_thumb_bytes),
            "pfc_headroom_bytes": self.pfc_headroom_bytes,
            "pfc_watchdog": self.pfc_watchdog,
            "adaptive_routing": self.adaptive_routing,
            "sources": dict(self.sources),
        }


def _dec(value: int | float) -> Decimal:
    # Via str() so 0.1 stays 0.1 and the results are exact.
    return Decimal(str(value))


def _validate(speed_gbps: object, cable_m: object, mtu: object, rtt_us: object) -> float:
    def whole(name: str, value: object) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TuningError(name, "invalid", f"{name} must be an integer, got {value!r}")
        return value

    if whole("speed_gbps", speed_gbps) not in SPEEDS_GBPS:
        raise TuningError(
            "speed_gbps", "invalid_choice", f"speed_gbps must be one of {SPEEDS_GBPS}"
        )
    if not CABLE_M_MIN <= whole("cable_m", cable_m) <= CABLE_M_MAX:
        raise TuningError(
            "cable_m", "out_of_range", f"cable_m must be {CABLE_M_MIN}..{CABLE_M_MAX}"
        )
    if not MTU_MIN <= whole("mtu", mtu) <= MTU_MAX:
        raise TuningError("mtu", "out_of_range", f"mtu must be {MTU_MIN}..{MTU_MAX}")
    if not isinstance(rtt_us, int | float) or isinstance(rtt_us, bool):
        raise TuningError("rtt_us", "invalid", f"rtt_us must be a number, got {rtt_us!r}")
    if not math.isfinite(rtt_us) or not RTT_US_MIN <= rtt_us <= RTT_US_MAX:
        raise TuningError("rtt_us", "out_of_range", f"rtt_us must be {RTT_US_MIN}..{RTT_US_MAX}")
    return float(rtt_us)


def bdp_bytes(speed_gbps: int, rtt_us: float) -> int:
    """Bandwidth-delay product, bytes, rounded up: ``rtt x bandwidth``
    (20 us at 400G = 1,000,000 bytes; domain.md section 4, Huawei CloudEngine docs)."""
    # rtt_us * 1e-6 s * speed_gbps * 1e9 bit/s / 8 bit/byte = rtt_us * speed_gbps * 125
    return math.ceil(_dec(rtt_us) * speed_gbps * 125)


def pfc_headroom_bytes(speed_gbps: int, cable_m: int, mtu: int) -> int:
    """PFC xoff headroom per port and priority, bytes, rounded up (mlx5
    port_buffer.c): ``(301 + 2.16 * cable_m) * speed_gbps + 2.72 * MTU``."""
    value = (301 + Decimal("2.16") * cable_m) * speed_gbps + Decimal("2.72") * mtu
    return math.ceil(value)


def lossless_tuning(
    speed_gbps: int, cable_m: int = 100, mtu: int = 4200, rtt_us: float = 20.0
) -> Tuning:
    """RoCE v2 lossless values for one link speed.

    ``cable_m`` is the longest cable (PFC headroom grows with it), ``mtu`` the
    RoCE MTU in bytes (4200 = 4096 RDMA payload + headers), ``rtt_us`` the
    fabric round trip used for the BDP. Raises ``TuningError`` (a ValueError).
    """
    rtt = _validate(speed_gbps, cable_m, mtu, rtt_us)
    bdp = bdp_bytes(speed_gbps, rtt)
    return Tuning(
        speed_gbps=speed_gbps,
        cable_m=cable_m,
        mtu=mtu,
        rtt_us=rtt,
        bdp_bytes=bdp,
        ecn_max_rule_of_thumb_bytes=(2 * bdp, 3 * bdp),
        pfc_headroom_bytes=pfc_headroom_bytes(speed_gbps, cable_m, mtu),
        pfc_watchdog=True,
        adaptive_routing=True,
        sources=dict(SOURCES),
    )
