import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replicant_cost.api import run, run_text

# The documented fixed examples (cost-model/README.md); the web app's browser test will
# check the same numbers.
EXAMPLE_BREAK_EVEN = {"paper-ratio-8.json": 49, "paper-ratio-1.25.json": 1}


def test_example_break_even_months(ratio8: dict[str, Any], ratio125: dict[str, Any]) -> None:
    assert run("estimate", ratio8)["break_even"]["month"] == EXAMPLE_BREAK_EVEN["paper-ratio-8.json"]
    out = run("estimate", ratio125)
    assert out["break_even"]["month"] == EXAMPLE_BREAK_EVEN["paper-ratio-1.25.json"]
    assert out["languages"]["Go"]["feasible"] is False
    assert "cannot meet the SLO" in out["languages"]["Go"]["reason"]


def test_first_month_by_hand(ratio8: dict[str, Any]) -> None:
    out = run("estimate", ratio8)
    java = out["languages"]["Java"]["months"][0]
    # 200,000 ops/s / 18,000 per cluster -> 12 clusters -> 36 m5.2xlarge at 0.384 USD/h x 730 h
    assert (java["clusters"], java["instances"]) == (12, 36)
    assert java["cloud_usd_per_month"] == pytest.approx(36 * 0.384 * 730)
    # 2 engineers x 150,000 USD / 12, effort 1 (Java) and 2 (C++)
    assert java["dev_usd_per_month"] == pytest.approx(25000)
    assert out["languages"]["C++"]["months"][0]["dev_usd_per_month"] == pytest.approx(50000)
    assert out["languages"]["C++"]["months"][0]["clusters"] == 7


def test_json_output_is_byte_identical_and_sorted(ratio8: dict[str, Any]) -> None:
    a = run_text("estimate", json.dumps(ratio8))
    b = run_text("estimate", json.dumps(ratio8, indent=4))
    assert a == b
    assert a.endswith("}\n")
    doc = json.loads(a)
    assert list(doc) == sorted(doc)


def test_five_node_clusters_cost_five_thirds(ratio8: dict[str, Any]) -> None:
    five = copy.deepcopy(ratio8)
    five["cluster"]["nodes_per_cluster"] = 5
    a, b = run("estimate", ratio8), run("estimate", five)
    for lang in ("C++", "Java"):
        assert b["languages"][lang]["totals"]["cloud_usd"] == pytest.approx(a["languages"][lang]["totals"]["cloud_usd"] * 5 / 3)
    assert any("5-node" in s for s in b["assumptions"])


def test_capacity_override_and_price_override(ratio8: dict[str, Any]) -> None:
    inp = copy.deepcopy(ratio8)
    inp["capacity"] = {"ops_per_s_per_cluster": {"Java": 28700}}
    inp["development"] = {"effort_multiplier": {"C++": 1.0}}
    out = run("estimate", inp)
    assert out["languages"]["Java"]["capacity_from"] == "capacity.ops_per_s_per_cluster"
    # equal capacity and equal effort: the two choices cost the same, so break-even is month 1
    assert out["break_even"]["month"] == 1
    inp["pricing"] = {"usd_per_hour": 1.0}
    assert run("estimate", inp)["sources"]["instance"]["usd_per_hour"] == 1.0


@settings(max_examples=40, deadline=None)
@given(
    now=st.floats(1, 2e6),
    pct=st.floats(0, 12),
    discount=st.floats(0, 90),
    team=st.integers(0, 20),
    ratio=st.sampled_from([8, 1.25]),
    workload=st.sampled_from(["A", "B"]),
)
def test_accounting_identities(now: float, pct: float, discount: float, team: int, ratio: float, workload: str) -> None:
    inp = {
        "horizon_months": 24,
        "demand": {"ops_per_s_now": now, "growth": {"kind": "exponential", "pct_per_month": pct}},
        "cluster": {"workload": workload, "memory_to_data_ratio": ratio},
        "pricing": {"savings_plan_discount_pct": discount},
        "development": {"team_size": team},
    }
    out = run("estimate", inp)
    for lang, e in out["languages"].items():
        if not e["feasible"]:
            assert lang == "Go" and ratio == 1.25
            continue
        cum = 0.0
        for m in e["months"]:
            assert m["instances"] == 3 * m["clusters"]
            assert m["clusters"] * e["capacity_ops_per_s_per_cluster"] >= m["demand_ops_per_s"] * (1 - 1e-12)
            assert m["total_usd_per_month"] == pytest.approx(m["cloud_usd_per_month"] + m["dev_usd_per_month"])
            cum += m["total_usd_per_month"]
            assert m["cumulative_total_usd"] == pytest.approx(cum)
    be = out["break_even"]["month"]
    gc, non = out["languages"]["Java"]["months"], out["languages"]["C++"]["months"]
    if be is not None:
        assert non[be - 1]["cumulative_total_usd"] <= gc[be - 1]["cumulative_total_usd"]
    assert all(non[i]["cumulative_total_usd"] > gc[i]["cumulative_total_usd"] for i in range((be or 25) - 1))
