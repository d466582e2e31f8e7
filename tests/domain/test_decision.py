"""Decision engine: rules, reasons, runner-up, what-if, validation, serialisation."""

from __future__ import annotations

import ast
import functools
import itertools
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from selector.domain import answers as answers_module
from selector.domain import decision as dec
from selector.domain.answers import (
    GPS_MAX,
    GPS_MIN,
    GPUS_MAX,
    GPUS_MIN,
    NIC_SPEEDS,
    Answers,
    Budget,
    Determinism,
    InvalidAnswers,
    Workload,
)
from selector.domain.decision import (
    ENGINE_VERSION,
    REASON_KEYS,
    RULES,
    Decision,
    Fabric,
    Reason,
    WhatIf,
    decide,
)

SEED = Path("/work/shared/seed/000_677814280cda4bc4.txt")
DOMAIN_DIR = Path(dec.__file__).parent

WORKLOADS = tuple(Workload)
BUDGETS = tuple(Budget)
DETERMINISMS = tuple(Determinism)
THROUGHPUT = (False, True)
NICS = (None, *NIC_SPEEDS)
GPU_SPREAD = (1, 4, 8, 9, 16, 31, 32, 56, 57, 64, 100, 512, 999, 1000, 1024, 4096, 100000)


# --- independent reference -------------------------------------------------------------------


def reference(
    gpus, gps=8, workload="training", budget="balanced", determinism="standard",
    throughput_limited=False, nic_speed=None,
):
    """Straightforward transcription of the rule table, returning (rule, fabric)."""
    servers = math.ceil(gpus / gps)
    if servers == 1:
        return "R1", "standard-network"
    if determinism == "strict":
        return "R2", "infiniband"
    if servers < 8 and not throughput_limited:
        return "R3", "standard-network"
    if workload == "inference" and budget != "performance":
        return "R4", "roce-v2-400g"
    if budget == "performance":
        return "R5", "infiniband"
    if gpus >= 1000 or nic_speed == 800:
        return "R6", "roce-v2-800g"
    return "R7", "roce-v2-400g"


def ref_answers(a: Answers):
    return reference(
        a.gpus, a.gpus_per_server, a.workload.value, a.budget.value, a.determinism.value,
        a.throughput_limited, a.nic_speed,
    )


def ref_runner_up(fabric: str, a: Answers) -> str:
    if fabric == "standard-network":
        return "roce-v2-400g"
    if fabric in ("roce-v2-400g", "roce-v2-800g"):
        return "infiniband"
    return "roce-v2-800g" if (a.gpus >= 1000 or a.nic_speed == 800) else "roce-v2-400g"


answers_strategy = st.builds(
    Answers,
    gpus=st.one_of(st.integers(GPUS_MIN, 2000), st.integers(GPUS_MIN, GPUS_MAX)),
    gpus_per_server=st.integers(GPS_MIN, GPS_MAX),
    workload=st.sampled_from(WORKLOADS),
    budget=st.sampled_from(BUDGETS),
    determinism=st.sampled_from(DETERMINISMS),
    throughput_limited=st.booleans(),
    nic_speed=st.sampled_from(NICS),
)


# --- interface constants ---------------------------------------------------------------------


def test_constants_and_enum_values():
    assert ENGINE_VERSION == "2026.12.3"
    assert [w.value for w in Workload] == ["training", "inference", "mixed"]
    assert [b.value for b in Budget] == ["sensitive", "balanced", "performance"]
    assert [d.value for d in Determinism] == ["standard", "strict"]
    assert [f.value for f in Fabric] == [
        "standard-network", "roce-v2-400g", "roce-v2-800g", "infiniband",
    ]
    assert NIC_SPEEDS == (200, 400, 800)
    assert (GPUS_MIN, GPUS_MAX, GPS_MIN, GPS_MAX) == (1, 1_000_000, 1, 16)
    assert issubclass(InvalidAnswers, ValueError)


def test_rules_table():
    assert [r.id for r in RULES] == [f"R{i}" for i in range(1, 8)]
    assert [r.recommendation for r in RULES] == [
        Fabric.STANDARD, Fabric.INFINIBAND, Fabric.STANDARD, Fabric.ROCE_400,
        Fabric.INFINIBAND, Fabric.ROCE_800, Fabric.ROCE_400,
    ]
    assert {r.id: r for r in RULES} == dec.RULES_BY_ID


def test_seed_quotes_are_chinese_and_from_the_seed():
    for rule in RULES:
        assert any("\u4e00" <= ch <= "\u9fff" for ch in rule.seed_quote), rule.id
    if not SEED.exists():
        pytest.skip("seed article not available")
    seed = SEED.read_text(encoding="utf-8")
    for rule in RULES:
        # R6 joins two seed sentences with "；"; every part must be verbatim.
        for part in rule.seed_quote.split("；"):
            assert part in seed, (rule.id, part)
    assert RULES[2].seed_quote in seed  # the whole FAQ answer, including its "；"


def test_domain_has_no_django_imports():
    for path in DOMAIN_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] == "django" for n in names), path


# --- each rule on both sides of its threshold ------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "rule", "fabric"),
    [
        # R1: servers == 1
        ({"gpus": 8}, "R1", Fabric.STANDARD),
        ({"gpus": 9}, "R3", Fabric.STANDARD),
        ({"gpus": 8, "determinism": "strict"}, "R1", Fabric.STANDARD),
        ({"gpus": 9, "determinism": "strict"}, "R2", Fabric.INFINIBAND),
        ({"gpus": 4, "gpus_per_server": 4, "throughput_limited": True}, "R1", Fabric.STANDARD),
        ({"gpus": 5, "gpus_per_server": 4, "throughput_limited": True}, "R7", Fabric.ROCE_400),
        ({"gpus": 1, "gpus_per_server": 1, "budget": "performance"}, "R1", Fabric.STANDARD),
        ({"gpus": 2, "gpus_per_server": 1, "throughput_limited": True, "budget": "performance"},
         "R5", Fabric.INFINIBAND),
        ({"gpus": 16, "gpus_per_server": 16, "nic_speed": 800}, "R1", Fabric.STANDARD),
        # R2: strict vs standard
        ({"gpus": 2048, "determinism": "strict"}, "R2", Fabric.INFINIBAND),
        ({"gpus": 2048, "determinism": "standard"}, "R6", Fabric.ROCE_800),
        ({"gpus": 16, "determinism": "strict"}, "R2", Fabric.INFINIBAND),
        ({"gpus": 16, "determinism": "standard"}, "R3", Fabric.STANDARD),
        # R3: 7 vs 8 servers, throughput both ways
        ({"gpus": 56}, "R3", Fabric.STANDARD),
        ({"gpus": 57}, "R7", Fabric.ROCE_400),
        ({"gpus": 64}, "R7", Fabric.ROCE_400),
        ({"gpus": 56, "throughput_limited": True}, "R7", Fabric.ROCE_400),
        ({"gpus": 28, "gpus_per_server": 4}, "R3", Fabric.STANDARD),
        ({"gpus": 29, "gpus_per_server": 4}, "R7", Fabric.ROCE_400),
        ({"gpus": 56, "workload": "inference"}, "R3", Fabric.STANDARD),
        ({"gpus": 57, "workload": "inference"}, "R4", Fabric.ROCE_400),
        ({"gpus": 56, "budget": "performance"}, "R3", Fabric.STANDARD),
        ({"gpus": 57, "budget": "performance"}, "R5", Fabric.INFINIBAND),
        # R4: inference vs training/mixed
        ({"gpus": 2048, "workload": "inference"}, "R4", Fabric.ROCE_400),
        ({"gpus": 2048, "workload": "inference", "nic_speed": 800}, "R4", Fabric.ROCE_400),
        # Issue 22 (finding 12): a performance budget is R5's, for inference too.
        ({"gpus": 2048, "workload": "inference", "budget": "performance"}, "R5",
         Fabric.INFINIBAND),
        ({"gpus": 2048, "workload": "mixed"}, "R6", Fabric.ROCE_800),
        # R5: performance vs the others
        ({"gpus": 2048, "budget": "performance"}, "R5", Fabric.INFINIBAND),
        ({"gpus": 2048, "budget": "sensitive"}, "R6", Fabric.ROCE_800),
        ({"gpus": 512, "budget": "performance", "nic_speed": 800}, "R5", Fabric.INFINIBAND),
        # R6: 999 vs 1000 GPUs, nic 400 vs 800
        ({"gpus": 999}, "R7", Fabric.ROCE_400),
        ({"gpus": 1000}, "R6", Fabric.ROCE_800),
        ({"gpus": 1000, "gpus_per_server": 16}, "R6", Fabric.ROCE_800),
        ({"gpus": 512, "nic_speed": 400}, "R7", Fabric.ROCE_400),
        ({"gpus": 512, "nic_speed": 800}, "R6", Fabric.ROCE_800),
        ({"gpus": 512, "nic_speed": 200}, "R7", Fabric.ROCE_400),
        ({"gpus": 512, "nic_speed": None}, "R7", Fabric.ROCE_400),
        ({"gpus": 16, "nic_speed": 800, "throughput_limited": True}, "R6", Fabric.ROCE_800),
        ({"gpus": 16, "nic_speed": 800}, "R3", Fabric.STANDARD),
        # R7: budget sensitive and balanced behave alike
        ({"gpus": 100, "budget": "sensitive"}, "R7", Fabric.ROCE_400),
        ({"gpus": 100, "budget": "balanced"}, "R7", Fabric.ROCE_400),
        ({"gpus": 1_000_000}, "R6", Fabric.ROCE_800),
        ({"gpus": 1}, "R1", Fabric.STANDARD),
    ],
)
def test_rule_thresholds(kwargs, rule, fabric):
    d = decide(Answers(**kwargs))
    assert (d.rule, d.recommendation) == (rule, fabric)
    assert dec.RULES_BY_ID[d.rule].recommendation == d.recommendation
    assert reference(**{("gps" if k == "gpus_per_server" else k): v for k, v in kwargs.items()}) \
        == (rule, fabric.value)


# --- every combination against the reference -------------------------------------------------

COMBOS = list(itertools.product(WORKLOADS, BUDGETS, DETERMINISMS, THROUGHPUT, NICS))


@pytest.mark.parametrize("gps", (4, 8))
@pytest.mark.parametrize("gpus", GPU_SPREAD)
@pytest.mark.parametrize("workload", WORKLOADS)
def test_all_combinations_match_reference(gpus, gps, workload):
    # Parametrized over GPU count, GPUs per server and workload; the remaining enumerated
    # answers (budget x determinism x throughput x NIC, 48 combinations) are looped here and
    # every mismatch is reported at once.
    mismatches = []
    for budget, determinism, throughput_limited, nic_speed in itertools.product(
        BUDGETS, DETERMINISMS, THROUGHPUT, NICS
    ):
        a = Answers(gpus, gps, workload, budget, determinism, throughput_limited, nic_speed)
        d = decide(a)
        rule, fabric = reference(
            gpus, gps, workload.value, budget.value, determinism.value, throughput_limited,
            nic_speed,
        )
        got = (d.rule, d.recommendation.value, d.servers, d.runner_up.value)
        want = (rule, fabric, math.ceil(gpus / gps), ref_runner_up(fabric, a))
        if got != want:
            mismatches.append((a, got, want))
        assert d.runner_up != d.recommendation
        assert d.engine_version == ENGINE_VERSION
        assert d.reasons and all(r.key in REASON_KEYS for r in d.reasons)
    assert mismatches == []


@pytest.mark.parametrize("gps", (1, 8))
@pytest.mark.parametrize("servers", range(1, 21))
def test_the_throughput_answer_matters_exactly_where_the_wizard_asks_it(servers, gps):
    """throughput_matters (the wizard's question, the answers table's row) is true exactly
    for the server counts where the throughput answer can change some decision."""
    changes = False
    for workload, budget, nic_speed in itertools.product(WORKLOADS, BUDGETS, NICS):
        rules = {decide(Answers(servers * gps, gps, workload, budget, "standard", limited,
                                nic_speed)).rule for limited in (True, False)}
        changes = changes or len(rules) > 1
    assert dec.throughput_matters(servers) == changes == (1 < servers < 8)


@given(answers_strategy)
def test_decide_matches_reference_property(a):
    d = decide(a)
    assert (d.rule, d.recommendation.value) == ref_answers(a)
    assert d.runner_up.value == ref_runner_up(d.recommendation.value, a)
    assert dec.select_rule(a).id == d.rule


# --- reasons ---------------------------------------------------------------------------------


def keys(d: Decision) -> list[str]:
    return [r.key for r in d.reasons]


def test_reasons_per_rule():
    assert decide(Answers(8)).reasons == (
        Reason("single_server", {"gpus": 8, "gpus_per_server": 8}),
    )
    assert decide(Answers(64, determinism="strict")).reasons == (
        Reason("strict_determinism", {}),
    )
    assert decide(Answers(40)).reasons == (
        Reason("small_cluster", {"servers": 5}), Reason("throughput_not_limited", {}),
    )
    assert decide(Answers(512, workload="inference")).reasons == (
        Reason("inference", {}), Reason("inference_multi_node", {}),
        Reason("eight_plus_servers", {"servers": 64}),
    )
    assert decide(Answers(16, workload="inference", throughput_limited=True)).reasons == (
        Reason("inference", {}), Reason("inference_multi_node", {}),
        Reason("throughput_limited", {}),
    )
    assert decide(Answers(512, budget="performance", throughput_limited=True)).reasons == (
        Reason("performance_budget", {}),
        Reason("eight_plus_servers", {"servers": 64}),
        Reason("throughput_limited", {}),
    )
    assert decide(Answers(1024)).reasons == (
        Reason("thousand_gpus", {"gpus": 1024, "scale": "thousand"}),
        Reason("eight_plus_servers", {"servers": 128}),
    )
    assert decide(Answers(20_000)).reasons[0].params == {"gpus": 20_000, "scale": "ten_thousand"}
    assert decide(Answers(100_000)).reasons[0].params["scale"] == "hundred_thousand"
    assert decide(Answers(99_999)).reasons[0].params["scale"] == "ten_thousand"
    assert decide(Answers(999_999)).reasons[0].params["scale"] == "hundred_thousand"
    assert decide(Answers(1_000_000)).reasons[0].params["scale"] == "million"
    assert decide(Answers(512, nic_speed=800)).reasons == (
        Reason("nic_800", {"nic_speed": 800}), Reason("eight_plus_servers", {"servers": 64}),
    )
    assert keys(decide(Answers(4096, nic_speed=800))) == [
        "thousand_gpus", "nic_800", "eight_plus_servers",
    ]
    assert decide(Answers(100, budget="sensitive")).reasons == (
        Reason("below_thousand_gpus", {"gpus": 100}),
        Reason("roce_400_start", {"budget": "sensitive"}),
        Reason("eight_plus_servers", {"servers": 13}),
    )


def test_reason_keys_all_reachable_and_documented():
    seen = set()
    for gpus, gps in itertools.product(GPU_SPREAD, (4, 8)):
        for combo in COMBOS:
            seen.update(keys(decide(Answers(gpus, gps, *combo))))
    assert seen == set(REASON_KEYS)
    assert len(REASON_KEYS) == len(set(REASON_KEYS))
    source = Path(dec.__file__).read_text(encoding="utf-8")
    for key in REASON_KEYS:
        assert f"#   {key} " in source, f"{key} is not documented in the comment table"


@given(answers_strategy)
def test_reasons_are_json_safe_and_consistent(a):
    d = decide(a)
    json.dumps([r.to_dict() for r in d.reasons])
    ks = keys(d)
    assert len(ks) == len(set(ks))
    if d.rule in ("R4", "R5", "R6", "R7"):
        assert ("eight_plus_servers" in ks) == (a.servers >= 8)
        assert ("throughput_limited" in ks) == a.throughput_limited
        assert "eight_plus_servers" in ks or "throughput_limited" in ks
    else:
        assert "eight_plus_servers" not in ks and "throughput_limited" not in ks
    if d.rule == "R6":
        assert ("thousand_gpus" in ks) == (a.gpus >= 1000)
        assert ("nic_800" in ks) == (a.nic_speed == 800)


# --- runner-up -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "recommendation", "runner"),
    [
        ({"gpus": 8}, Fabric.STANDARD, Fabric.ROCE_400),
        ({"gpus": 100}, Fabric.ROCE_400, Fabric.INFINIBAND),
        ({"gpus": 1000}, Fabric.ROCE_800, Fabric.INFINIBAND),
        ({"gpus": 999, "determinism": "strict"}, Fabric.INFINIBAND, Fabric.ROCE_400),
        ({"gpus": 1000, "determinism": "strict"}, Fabric.INFINIBAND, Fabric.ROCE_800),
        ({"gpus": 100, "determinism": "strict", "nic_speed": 800}, Fabric.INFINIBAND,
         Fabric.ROCE_800),
        ({"gpus": 100, "determinism": "strict", "nic_speed": 400}, Fabric.INFINIBAND,
         Fabric.ROCE_400),
        ({"gpus": 100, "budget": "performance"}, Fabric.INFINIBAND, Fabric.ROCE_400),
        ({"gpus": 5000, "budget": "performance"}, Fabric.INFINIBAND, Fabric.ROCE_800),
    ],
)
def test_runner_up(kwargs, recommendation, runner):
    d = decide(Answers(**kwargs))
    assert (d.recommendation, d.runner_up) == (recommendation, runner)


# --- what-if ---------------------------------------------------------------------------------

# The alternatives offered (issue 26, finding 4): never the workload or the server size
# (facts, not options), never "not sure" as a NIC speed.
ENUM_FIELDS = {
    "budget": BUDGETS,
    "determinism": DETERMINISMS,
    "throughput_limited": THROUGHPUT,
    "nic_speed": tuple(n for n in NICS if n is not None),
}
FIELD_ORDER = ["gpus", *ENUM_FIELDS]


@functools.lru_cache(maxsize=8192)
def outcomes(others: tuple, name: str, values: tuple) -> dict[str, tuple[int, ...]]:
    """Reference outcome -> sorted values of ``name`` giving it, the other answers fixed."""
    base = dict(others)
    out: dict[str, list[int]] = {}
    for v in values:
        args = {**base, name: v}
        fabric = reference(
            args["gpus"], args["gpus_per_server"], args["workload"], args["budget"],
            args["determinism"], args["throughput_limited"], args["nic_speed"],
        )[1]
        out.setdefault(fabric, []).append(v)
    return {fabric: tuple(sorted(vs)) for fabric, vs in out.items()}


def check_what_if(a: Answers) -> None:
    d = decide(a)
    # 1. every entry really flips, and says to what
    for w in d.what_if:
        assert isinstance(w, WhatIf)
        changed = a.replace(**{w.field: w.value})
        rule, fabric = ref_answers(changed)
        assert fabric != d.recommendation.value
        assert (w.rule, w.recommendation.value) == (rule, fabric)
        assert w.value != getattr(a, w.field)
    # 2. deterministic order: field order, then value order
    order = [FIELD_ORDER.index(w.field) for w in d.what_if]
    assert order == sorted(order)
    # 3. enumerated fields: nothing missing, nothing extra
    for name, values in ENUM_FIELDS.items():
        expected = [
            v for v in values
            if v != getattr(a, name)
            and ref_answers(a.replace(**{name: v}))[1] != d.recommendation.value
        ]
        assert [w.value for w in d.what_if if w.field == name] == expected, name
    # 4. gpus: only growth, the smallest larger count per outcome over the whole range. The
    #    outcome does not change above 1000 GPUs (>= 8 servers for any gps <= 16), so
    #    1..1100 covers every outcome.
    got = {w.recommendation.value: w.value for w in d.what_if if w.field == "gpus"}
    assert got == smallest_growth(a)
    gpus_flips = [w.value for w in d.what_if if w.field == "gpus"]
    sizes = [v for v in gpus_flips if isinstance(v, int)]
    assert sizes == gpus_flips and all(v > a.gpus for v in sizes)
    assert sizes == sorted(sizes)
    # 5. only the offered fields
    assert {w.field for w in d.what_if} <= set(FIELD_ORDER)


def smallest_growth(a: Answers) -> dict[str, int]:
    """Reference: per outcome different from now, the smallest larger GPU count giving it."""
    now = ref_answers(a)[1]
    others = tuple(sorted((k, v) for k, v in a.to_dict().items() if k != "gpus"))
    best: dict[str, int] = {}
    for fabric, vs in outcomes(others, "gpus", tuple(range(1, 1101))).items():
        larger = [v for v in vs if v > a.gpus]
        if fabric != now and larger:
            best[fabric] = larger[0]
    return best


@pytest.mark.parametrize("gps", (1, 2, 4, 8, 16))
@pytest.mark.parametrize("gpus", (1, 2, 7, 8, 9, 16, 17, 56, 57, 112, 113, 500, 999, 1000, 4096))
@pytest.mark.parametrize(
    ("determinism", "throughput_limited"), list(itertools.product(DETERMINISMS, THROUGHPUT))
)
def test_what_if_grid(gpus, gps, determinism, throughput_limited):
    for workload, budget, nic in itertools.product(WORKLOADS, BUDGETS, NICS):
        check_what_if(Answers(gpus, gps, workload, budget, determinism, throughput_limited, nic))


@given(answers_strategy)
def test_what_if_property(a):
    check_what_if(a)


def test_what_if_examples():
    d = decide(Answers(57))
    assert [(w.field, w.value, w.recommendation, w.rule) for w in d.what_if] == [
        ("gpus", 1000, Fabric.ROCE_800, "R6"),
        ("budget", Budget.PERFORMANCE, Fabric.INFINIBAND, "R5"),
        ("determinism", Determinism.STRICT, Fabric.INFINIBAND, "R2"),
        ("nic_speed", 800, Fabric.ROCE_800, "R6"),
    ]
    # From one strict server, the nearest multi-server count is the 2-server boundary.
    d = decide(Answers(8, determinism="strict"))
    assert ("gpus", 9, Fabric.INFINIBAND, "R2") in [
        (w.field, w.value, w.recommendation, w.rule) for w in d.what_if
    ]
    # A 2,048-GPU lead is never offered a smaller cluster (issue 26: "With 56 GPUs").
    d = decide(Answers(2048))
    assert "gpus" not in {w.field for w in d.what_if}
    assert [(w.field, w.value) for w in d.what_if] == [
        ("budget", Budget.PERFORMANCE), ("determinism", Determinism.STRICT),
    ]
    # A 64-GPU start-up can grow to the thousand-GPU line.
    assert ("gpus", 1000) in [(w.field, w.value) for w in decide(Answers(64)).what_if]
    # Nothing flips a 1,000,000-GPU strict cluster except leaving strict.
    d = decide(Answers(1_000_000, determinism="strict"))
    assert [(w.field, w.value) for w in d.what_if] == [("determinism", Determinism.STANDARD)]


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("gpus", None, "required"),
        ("gpus", 0, "out_of_range"),
        ("gpus", -5, "out_of_range"),
        ("gpus", 1_000_001, "out_of_range"),
        ("gpus", True, "invalid"),
        ("gpus", 8.0, "invalid"),
        ("gpus", "8", "invalid"),
        ("gpus_per_server", 0, "out_of_range"),
        ("gpus_per_server", 17, "out_of_range"),
        ("gpus_per_server", False, "invalid"),
        ("gpus_per_server", 2.5, "invalid"),
        ("gpus_per_server", None, "required"),
        ("workload", "batch", "invalid_choice"),
        ("workload", "TRAINING", "invalid_choice"),
        ("workload", 1, "invalid"),
        ("workload", None, "required"),
        ("budget", "cheap", "invalid_choice"),
        ("budget", None, "required"),
        ("determinism", "loose", "invalid_choice"),
        ("determinism", [], "invalid"),
        ("throughput_limited", 1, "invalid"),
        ("throughput_limited", "true", "invalid"),
        ("throughput_limited", None, "required"),
        ("nic_speed", 100, "invalid_choice"),
        ("nic_speed", 0, "invalid_choice"),
        ("nic_speed", "400", "invalid"),
        ("nic_speed", 400.0, "invalid"),
        ("nic_speed", True, "invalid"),
    ],
)
def test_invalid_field(field, value, code):
    kwargs = {"gpus": 64, field: value}
    with pytest.raises(InvalidAnswers) as exc:
        Answers(**kwargs)
    assert exc.value.errors == {field: [code]}
    assert code in answers_module.ERROR_CODES
    with pytest.raises(InvalidAnswers) as exc:
        Answers(64).replace(**{field: value})
    assert exc.value.errors == {field: [code]}
    with pytest.raises(InvalidAnswers) as exc:
        Answers.from_dict({**Answers(64).to_dict(), field: value})
    assert exc.value.errors == {field: [code]}


def test_all_errors_reported_at_once():
    with pytest.raises(InvalidAnswers) as exc:
        Answers(0, 0, "x", "y", "z", "no", 3)
    assert exc.value.errors == {
        "gpus": ["out_of_range"],
        "gpus_per_server": ["out_of_range"],
        "workload": ["invalid_choice"],
        "budget": ["invalid_choice"],
        "determinism": ["invalid_choice"],
        "throughput_limited": ["invalid"],
        "nic_speed": ["invalid_choice"],
    }
    assert "gpus" in str(exc.value)


def test_boundaries_accepted():
    for gpus in (GPUS_MIN, GPUS_MAX):
        for gps in (GPS_MIN, GPS_MAX):
            assert Answers(gpus, gps).gpus == gpus
    for nic in NICS:
        assert Answers(8, nic_speed=nic).nic_speed == nic


def test_string_enums_are_normalised():
    a = Answers(64, workload="inference", budget="performance", determinism="strict")
    assert a.workload is Workload.INFERENCE
    assert a.budget is Budget.PERFORMANCE
    assert a.determinism is Determinism.STRICT
    assert a == Answers(64, workload=Workload.INFERENCE, budget=Budget.PERFORMANCE,
                        determinism=Determinism.STRICT)
    assert hash(a) == hash(a.replace())


def test_answers_is_frozen() -> None:
    a = Answers(64)
    with pytest.raises(AttributeError):
        a.gpus = 65  # type: ignore[misc]


@pytest.mark.parametrize(
    ("gpus", "gps", "servers"),
    [(1, 8, 1), (8, 8, 1), (9, 8, 2), (4, 4, 1), (5, 4, 2), (56, 8, 7), (57, 8, 8),
     (1_000_000, 16, 62_500), (1_000_000, 1, 1_000_000), (17, 16, 2)],
)
def test_servers(gpus, gps, servers):
    assert Answers(gpus, gps).servers == servers


def test_replace():
    a = Answers(64)
    b = a.replace(gpus=65, nic_speed=800)
    assert (b.gpus, b.nic_speed, a.gpus, a.nic_speed) == (65, 800, 64, None)
    with pytest.raises(InvalidAnswers) as exc:
        a.replace(gpu=3)
    assert exc.value.errors == {"gpu": ["unknown_field"]}


def test_to_dict_and_from_dict():
    a = Answers(1024, 4, "mixed", "sensitive", "strict", True, 800)
    data = a.to_dict()
    assert data == {
        "gpus": 1024, "gpus_per_server": 4, "workload": "mixed", "budget": "sensitive",
        "determinism": "strict", "throughput_limited": True, "nic_speed": 800,
        "nics_per_server": None, "vendor": "any", "distance": "row",
        "platform": "unsure", "oversubscription": 1,
    }
    assert all(type(v) in (int, str, bool, type(None)) for v in data.values())
    assert Answers.from_dict(json.loads(json.dumps(data))) == a
    assert Answers.from_dict({"gpus": 16}) == Answers(16)
    # A first-release dict (no hardware answers) still reads, with the defaults.
    old = {k: v for k, v in data.items() if k not in ("nics_per_server", "vendor", "distance",
                                                      "platform", "oversubscription")}
    assert Answers.from_dict(old) == a


def test_hardware_answers_shape_the_plan_not_the_rule():
    base = Answers(1024)
    assert (base.nic_gbps, base.rails, base.distance_m) == (400, 8, 50)
    other = base.replace(nics_per_server=4, vendor="arista", distance="campus", nic_speed=400)
    assert (other.rails, other.distance_m) == (4, 2000)
    assert decide(other).rule == decide(base).rule
    assert decide(other).what_if == decide(base).what_if


@pytest.mark.parametrize(("field", "value", "code"), [
    ("nics_per_server", 0, "out_of_range"), ("nics_per_server", 17, "out_of_range"),
    ("nics_per_server", "4", "invalid"), ("nics_per_server", True, "invalid"),
    ("vendor", "cisco", "invalid_choice"), ("vendor", None, "required"), ("vendor", 1, "invalid"),
    ("distance", "moon", "invalid_choice"), ("distance", None, "required"),
])
def test_hardware_answers_are_validated(field, value, code):
    with pytest.raises(InvalidAnswers) as exc:
        Answers(64, **{field: value})
    assert exc.value.errors == {field: [code]}

def test_from_dict_errors():
    with pytest.raises(InvalidAnswers) as exc:
        Answers.from_dict({})
    assert exc.value.errors == {"gpus": ["required"]}
    with pytest.raises(InvalidAnswers) as exc:
        Answers.from_dict({"gpus": 0, "colour": "red", "workload": "x"})
    assert exc.value.errors == {
        "gpus": ["out_of_range"], "workload": ["invalid_choice"], "colour": ["unknown_field"],
    }
    assert list(exc.value.errors) == ["gpus", "workload", "colour"]
    with pytest.raises(InvalidAnswers) as exc:
        Answers.from_dict({"gpus": 8, "extra": 1})
    assert exc.value.errors == {"extra": ["unknown_field"]}
    for bad in (None, [], "gpus=8", 8):
        with pytest.raises(InvalidAnswers) as exc:
            Answers.from_dict(bad)
        assert exc.value.errors == {answers_module.NON_FIELD_ERRORS: ["invalid"]}


@given(answers_strategy)
def test_answers_round_trip(a):
    assert Answers.from_dict(json.loads(json.dumps(a.to_dict()))) == a


def test_decide_rejects_non_answers() -> None:
    with pytest.raises(TypeError):
        decide({"gpus": 8})  # type: ignore[arg-type]


# --- Decision serialisation ------------------------------------------------------------------


def test_decision_to_dict_example():
    assert decide(Answers(40)).to_dict() == {
        "recommendation": "standard-network",
        "rule": "R3",
        "servers": 5,
        "reasons": [
            {"key": "small_cluster", "params": {"servers": 5}},
            {"key": "throughput_not_limited", "params": {}},
        ],
        "runner_up": "roce-v2-400g",
        "what_if": [
            {"field": "gpus", "value": 57, "recommendation": "roce-v2-400g", "rule": "R7"},
            {"field": "gpus", "value": 1000, "recommendation": "roce-v2-800g", "rule": "R6"},
            {"field": "determinism", "value": "strict", "recommendation": "infiniband",
             "rule": "R2"},
            {"field": "throughput_limited", "value": True, "recommendation": "roce-v2-400g",
             "rule": "R7"},
        ],
        "engine_version": ENGINE_VERSION,
    }


@given(answers_strategy)
def test_decision_to_dict_is_json_safe(a):
    d = decide(a)
    data = d.to_dict()
    assert json.loads(json.dumps(data)) == data

    def plain(x):
        if isinstance(x, dict):
            return all(type(k) is str and plain(v) for k, v in x.items())
        if isinstance(x, list):
            return all(plain(v) for v in x)
        return x is None or type(x) in (int, str, bool)

    assert plain(data)
    assert data["recommendation"] == d.recommendation.value
    assert len(data["what_if"]) == len(d.what_if)
    assert decide(a) == d  # deterministic


def test_inference_with_a_performance_budget_is_r5():
    """Issue 22, finding 12: R4's sentence is about speed ("推理集群 400G 足够"); a
    performance-first budget is R5's answer, for an inference cluster too."""
    d = decide(Answers(2048, workload="inference", budget="performance"))
    assert (d.rule, d.recommendation) == ("R5", Fabric.INFINIBAND)
    assert d.reasons[:2] == (Reason("performance_budget", {}),
                             Reason("inference_multi_node", {}))
    assert decide(Answers(2048, workload="inference", budget="sensitive")).rule == "R4"
    assert dec.RULES_BY_ID["R4"].seed_quote == "推理集群 400G 足够"
