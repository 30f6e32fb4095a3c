"""The paper's Fig 14: a notional model of development vs cloud cost over time.

The paper gives no axis values, only factors: a manual-memory language costs 2x to
develop, and its cloud cost is drawn for 2x and 4x fewer resources at the same growth
rate. Everything else here (start levels, growth rates, horizon) is an illustrative
assumption, labelled as such in the output. Units are notional cost units, not USD.
"""

from __future__ import annotations

from typing import Any

from .breakeven import break_even_month, cumulative
from .errors import InputError
from .estimate import model_info

DEV_COST_MULTIPLIER_MANUAL = 2.0  # paper §6 / Fig 14(b)
CLOUD_RESOURCE_REDUCTIONS = (2.0, 4.0)  # paper §6 / Fig 14(b)

PAPER_FACTORS: dict[str, dict[str, object]] = {
    "dev_cost_multiplier_manual": {"value": DEV_COST_MULTIPLIER_MANUAL, "source": "paper §6 / Fig 14(b): development cost starts 2x higher (row fig14b-manual-dev-cost-multiplier)"},
    "cloud_resource_reduction_manual": {"value": list(CLOUD_RESOURCE_REDUCTIONS), "source": "paper §6 / Fig 14(b): 2x and 4x fewer resources, same growth rate (rows fig14b-manual-cloud-resource-reduction-variant-2x/-4x)"},
}

ILLUSTRATIVE = {
    "horizon_months": 60,
    "gc_dev_cost_start": 100.0,
    "dev_growth_pct_per_month": 0.5,
    "gc_cloud_cost_start": 10.0,
    "cloud_growth_pct_per_month": 10.0,
}
ILLUSTRATIVE_NOTES = {
    "horizon_months": "illustrative assumption",
    "gc_dev_cost_start": "illustrative assumption; Fig 14(a) only says development cost starts above cloud cost",
    "dev_growth_pct_per_month": "illustrative assumption; Fig 14 only says development cost grows slowly",
    "gc_cloud_cost_start": "illustrative assumption; Fig 14(a) only says cloud cost starts low",
    "cloud_growth_pct_per_month": "illustrative assumption; Fig 14(a) only says cloud cost grows with popularity until it dwarfs development cost",
}


def _grow(start: float, pct: float, months: int) -> list[float]:
    out: list[float] = []
    level = start
    f = 1.0 + pct / 100.0
    for _ in range(months):
        out.append(level)
        level *= f
    return out


def parse_params(raw: Any) -> dict[str, float]:
    params: dict[str, float] = dict(ILLUSTRATIVE)
    if raw is None:
        return params
    if not isinstance(raw, dict):
        raise InputError("fig14 must be an object")
    for key, value in raw.items():
        if key not in ILLUSTRATIVE:
            raise InputError(f"fig14: unknown key {key}; allowed: {', '.join(sorted(ILLUSTRATIVE))}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise InputError(f"fig14.{key} must be a number >= 0, got {value!r}")
        params[key] = value
    h = params["horizon_months"]
    if not float(h).is_integer() or not 1 <= h <= 600:
        raise InputError(f"fig14.horizon_months must be a whole number between 1 and 600, got {h!r}")
    params["horizon_months"] = int(h)
    return params


def fig14(params: dict[str, float] | None = None) -> dict[str, Any]:
    p = dict(ILLUSTRATIVE if params is None else params)
    months = int(p["horizon_months"])
    gc_dev = _grow(p["gc_dev_cost_start"], p["dev_growth_pct_per_month"], months)
    gc_cloud = _grow(p["gc_cloud_cost_start"], p["cloud_growth_pct_per_month"], months)
    manual_dev = [x * DEV_COST_MULTIPLIER_MANUAL for x in gc_dev]
    series: dict[str, dict[str, list[float]]] = {
        "gc": {"dev": gc_dev, "cloud": gc_cloud},
    }
    for r in CLOUD_RESOURCE_REDUCTIONS:
        series[f"manual_{r:g}x_fewer_resources"] = {"dev": manual_dev, "cloud": [x / r for x in gc_cloud]}
    for s in series.values():
        s["total"] = [a + b for a, b in zip(s["dev"], s["cloud"])]
        s["cumulative_total"] = cumulative(s["total"])
    crossover = next((m + 1 for m in range(months) if gc_cloud[m] > gc_dev[m]), None)
    return {
        "command": "fig14",
        "model": model_info(),
        "unit": "notional cost units per month (the paper's Fig 14 has no axis values)",
        "paper_factors": PAPER_FACTORS,
        "illustrative_assumptions": {k: {"value": p[k], "source": ILLUSTRATIVE_NOTES[k]} for k in sorted(ILLUSTRATIVE)},
        "months": list(range(1, months + 1)),
        "series": series,
        "gc_cloud_exceeds_dev_month": crossover,
        "break_even_month": {
            name: break_even_month(series["gc"]["cumulative_total"], series[name]["cumulative_total"])
            for name in ("manual_2x_fewer_resources", "manual_4x_fewer_resources")
        },
    }
