import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from replicant_cost.api import run, run_text


def test_sensitivity_table_is_ranked(ratio8: dict[str, Any]) -> None:
    out = run("sensitivity", ratio8)
    assert out["base_break_even_month"] == 49
    swings = [r["swing_months"] for r in out["table"]]
    assert swings == sorted(swings, reverse=True)
    assert out["most_influential"] == out["table"][0]["input"] == "capacity.Java"
    names = {r["input"] for r in out["table"]}
    assert {"demand.ops_per_s_now", "demand.growth.pct_per_month", "capacity.C++", "pricing.usd_per_hour", "development.team_size"} <= names
    row = next(r for r in out["table"] if r["input"] == "capacity.Java")
    assert (row["low_value"], row["high_value"]) == (14400.0, 21600.0)


def test_sensitivity_csv_has_one_line_per_input(ratio8: dict[str, Any]) -> None:
    csv_text = run_text("sensitivity", json.dumps(ratio8), "csv")
    lines = csv_text.splitlines()
    assert lines[0].startswith("input,base_value,low_value,high_value,break_even_month_low")
    assert len(lines) == 1 + len(run("sensitivity", ratio8)["table"])


def test_fig14_uses_the_paper_factors() -> None:
    out = run("fig14", {})
    s = out["series"]
    assert out["paper_factors"]["dev_cost_multiplier_manual"]["value"] == 2.0
    for i in range(len(out["months"])):
        assert s["manual_2x_fewer_resources"]["dev"][i] == 2 * s["gc"]["dev"][i]
        assert s["manual_2x_fewer_resources"]["cloud"][i] == s["gc"]["cloud"][i] / 2
        assert s["manual_4x_fewer_resources"]["cloud"][i] == s["gc"]["cloud"][i] / 4
    # (a): development starts above cloud, and cloud ends up dwarfing it
    assert s["gc"]["dev"][0] > s["gc"]["cloud"][0]
    assert s["gc"]["cloud"][-1] > 5 * s["gc"]["dev"][-1]
    assert all("illustrative assumption" in v["source"] for v in out["illustrative_assumptions"].values())
    be = out["break_even_month"]
    assert be["manual_4x_fewer_resources"] is not None and be["manual_2x_fewer_resources"] is not None
    assert be["manual_4x_fewer_resources"] < be["manual_2x_fewer_resources"]


@settings(max_examples=30, deadline=None)
@given(st.floats(1, 1000), st.floats(0, 5), st.floats(0.1, 100), st.floats(0, 20))
def test_fig14_more_resource_savings_never_break_even_later(dev0: float, dev_g: float, cloud0: float, cloud_g: float) -> None:
    out = run("fig14", {"fig14": {"gc_dev_cost_start": dev0, "dev_growth_pct_per_month": dev_g, "gc_cloud_cost_start": cloud0, "cloud_growth_pct_per_month": cloud_g}})
    be2 = out["break_even_month"]["manual_2x_fewer_resources"]
    be4 = out["break_even_month"]["manual_4x_fewer_resources"]
    if be2 is not None:
        assert be4 is not None and be4 <= be2
