"""The switch families with a sourced RoCE profile, listed once: ``FAMILIES`` and
``OS_NAMES`` are derived from this list and ``tuning_profile`` looks the family up in it.

Adding a family: a module beside this one whose ``FAMILY`` (a ``model.Family``) holds its
key, switch OS and builder, with its values and sources; its entry in ``REGISTERED``; the
catalogue's switches that run it (``SwitchSpec.family``); the page's words for it
(selector.planner.words, ``FAMILY_LABELS``) and the Chinese translations of its remarks.

Pure Python, no Django."""

from __future__ import annotations

from . import sonic, spectrum
from .model import GPU_CABLE_MAX_M, Family, LeafPorts, TuningProfile, TuningRequest, validate

# The one list of families, in the order the pages and tests sweep them.
REGISTERED: tuple[Family, ...] = (spectrum.FAMILY, sonic.FAMILY)

BY_KEY: dict[str, Family] = {family.key: family for family in REGISTERED}
FAMILIES: tuple[str, ...] = tuple(BY_KEY)
OS_NAMES: dict[str, str] = {family.key: family.os_name for family in REGISTERED}


def tuning_profile(family: str, speed_gbps: int, *, uplink_gbps: int | None = None,
                   cable_m: int = 100, gpu_cable_m: int | None = None, switch_key: str = "",
                   spectrum_x_nic: bool = True,
                   leaf: LeafPorts | None = None) -> TuningProfile | None:
    """The lossless profile of ``family`` for GPU links at ``speed_gbps``: the GPU ports'
    links up to ``gpu_cable_m`` (default: ``cable_m`` within the servers' row, 50 m), the
    switch-to-switch links up to ``cable_m``. None for a family without a sourced profile
    (an InfiniBand family, a switch with no family); ``TuningError`` for invalid input.
    ``spectrum_x_nic``: the NICs accept out-of-order packets (ConnectX-7/-8, BlueField-3),
    which NVIDIA adaptive routing needs."""
    validate(speed_gbps, cable_m)
    gpu_cable = min(cable_m, GPU_CABLE_MAX_M) if gpu_cable_m is None else gpu_cable_m
    validate(speed_gbps, gpu_cable)
    entry = BY_KEY.get(family)
    if entry is None:
        return None
    return entry.build(TuningRequest(
        speed_gbps=speed_gbps, uplink_gbps=uplink_gbps or speed_gbps, cable_m=cable_m,
        gpu_cable_m=gpu_cable, switch_key=switch_key, spectrum_x_nic=spectrum_x_nic,
        leaf=leaf))
