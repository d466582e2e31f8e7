"""Latency and determinism (issue 26, finding 10): for an InfiniBand result and for a
customer who needs strict determinism, what makes a training run reproducible. It is a
software setting of the training job, on either fabric: the settings below, each with the
sentence of its source.

Not shipped, for want of a source (docs/planner.md): a latency or jitter figure for the
switches, and InfiniBand's credit-based flow control as the reason for steadier latency (no
NVIDIA or IBTA document found that says it)."""

from __future__ import annotations

from dataclasses import dataclass

from selector.domain.answers import Answers, Determinism
from selector.domain.catalogue import Source
from selector.domain.decision import Fabric
from selector.domain.tuning import N_, Citation

MEGATRON_DETERMINISM = Source(
    "NVIDIA Megatron Core — Deterministic Training",
    "https://docs.nvidia.com/megatron/deterministic-training", "2026-12-03",
    "NVIDIA Megatron Core：确定性训练（英文）")

# The remarks are the source's own statements, marked for translation (N_).
DETERMINISTIC_MODE = Citation(
    MEGATRON_DETERMINISM,
    N_("Two runs with identical inputs produce identical outputs at every step"))
RING = Citation(
    MEGATRON_DETERMINISM,
    N_("Ring's reduction order is fixed by topology, so it is bit-exact across runs; a "
       "subset of Ring, CollnetDirect and CollnetChain is also accepted"))
TRANSFORMER_ENGINE = Citation(
    MEGATRON_DETERMINISM, N_("Forces Transformer Engine to use deterministic algorithms"))
CUBLAS = Citation(MEGATRON_DETERMINISM, N_("Deterministic cuBLAS workspace"))


@dataclass(frozen=True)
class DeterminismSetting:
    """One setting of the training job: ``key`` names it for the pages' words."""

    key: str
    value: str
    citation: Citation


SETTINGS: tuple[DeterminismSetting, ...] = (
    DeterminismSetting("deterministic_mode", "--deterministic-mode", DETERMINISTIC_MODE),
    DeterminismSetting("nccl_algo", "NCCL_ALGO=Ring", RING),
    DeterminismSetting("transformer_engine", "NVTE_ALLOW_NONDETERMINISTIC_ALGO=0",
                       TRANSFORMER_ENGINE),
    DeterminismSetting("cublas", "CUBLAS_WORKSPACE_CONFIG=:4096:8", CUBLAS),
)


def determinism_applies(answers: Answers, recommendation: Fabric) -> bool:
    """The section is for InfiniBand results and for strict-determinism answers."""
    return recommendation == Fabric.INFINIBAND or answers.determinism == Determinism.STRICT


def determinism_settings(answers: Answers,
                         recommendation: Fabric) -> tuple[DeterminismSetting, ...]:
    """The settings to show for these answers (none where the section does not apply)."""
    return SETTINGS if determinism_applies(answers, recommendation) else ()


def sources() -> tuple[Source, ...]:
    return (MEGATRON_DETERMINISM,)
