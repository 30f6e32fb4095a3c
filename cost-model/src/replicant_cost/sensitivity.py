"""One-at-a-time sensitivity of the break-even month: each input is moved down and up by
perturbation_pct while every other input stays at its base value."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .capacity import Capacity
from .estimate import World, break_even_of, model_info, resolve_capacities, usd_per_hour_of
from .inputs import Inputs

Perturb = Callable[[Inputs, dict[str, Capacity], float, float], tuple[Inputs, dict[str, Capacity], float]]
Read = Callable[[Inputs, dict[str, Capacity], float], float]


def _field(name: str) -> Perturb:
    def apply(inp: Inputs, caps: dict[str, Capacity], price: float, f: float) -> tuple[Inputs, dict[str, Capacity], float]:
        value = getattr(inp, name) * f
        if name == "savings_plan_discount_pct":
            value = min(value, 100.0)
        return dataclasses.replace(inp, **{name: value}), caps, price

    return apply


def _capacity(lang: str) -> Perturb:
    def apply(inp: Inputs, caps: dict[str, Capacity], price: float, f: float) -> tuple[Inputs, dict[str, Capacity], float]:
        c = caps[lang]
        assert c.ops_per_s_per_cluster is not None
        return inp, {**caps, lang: Capacity(lang, c.ops_per_s_per_cluster * f, c.row_ids)}, price

    return apply


def _effort(lang: str) -> Perturb:
    def apply(inp: Inputs, caps: dict[str, Capacity], price: float, f: float) -> tuple[Inputs, dict[str, Capacity], float]:
        return dataclasses.replace(inp, effort_multiplier={**inp.effort_multiplier, lang: inp.effort_multiplier[lang] * f}), caps, price

    return apply


def _price(inp: Inputs, caps: dict[str, Capacity], price: float, f: float) -> tuple[Inputs, dict[str, Capacity], float]:
    return inp, caps, price * f


def _demand_level(inp: Inputs, caps: dict[str, Capacity], price: float, f: float) -> tuple[Inputs, dict[str, Capacity], float]:
    return dataclasses.replace(inp, demand=inp.demand.scaled(f)), caps, price


def _demand_growth(inp: Inputs, caps: dict[str, Capacity], price: float, f: float) -> tuple[Inputs, dict[str, Capacity], float]:
    d = inp.demand
    d2 = dataclasses.replace(d, growth_ops_per_s_per_month=d.growth_ops_per_s_per_month * f, growth_pct_per_month=d.growth_pct_per_month * f)
    return dataclasses.replace(inp, demand=d2), caps, price


def _read_capacity(lang: str) -> Read:
    return lambda i, c, p: c[lang].ops_per_s_per_cluster or 0.0


def _read_effort(lang: str) -> Read:
    return lambda i, c, p: i.effort_multiplier[lang]


def perturbations(inp: Inputs) -> list[tuple[str, Perturb, Read]]:
    """(name, how to perturb, how to read the value)."""
    out: list[tuple[str, Perturb, Read]] = []
    d = inp.demand
    if d.kind == "points":
        out.append(("demand.points (all levels)", _demand_level, lambda i, c, p: i.demand.points[0][1]))
    else:
        out.append(("demand.ops_per_s_now", _demand_level, lambda i, c, p: i.demand.ops_per_s_now))
    if d.kind == "exponential":
        out.append(("demand.growth.pct_per_month", _demand_growth, lambda i, c, p: i.demand.growth_pct_per_month))
    if d.kind == "linear":
        out.append(("demand.growth.ops_per_s_per_month", _demand_growth, lambda i, c, p: i.demand.growth_ops_per_s_per_month))
    for lang in (inp.gc, inp.non_gc):
        out.append((f"capacity.{lang}", _capacity(lang), _read_capacity(lang)))
    out.append(("pricing.usd_per_hour", _price, lambda i, c, p: p))
    out.append(("pricing.hours_per_month", _field("hours_per_month"), lambda i, c, p: i.hours_per_month))
    out.append(("pricing.savings_plan_discount_pct", _field("savings_plan_discount_pct"), lambda i, c, p: i.savings_plan_discount_pct))
    out.append(("development.team_size", _field("team_size"), lambda i, c, p: i.team_size))
    out.append(("development.usd_per_engineer_year", _field("usd_per_engineer_year"), lambda i, c, p: i.usd_per_engineer_year))
    for lang in (inp.gc, inp.non_gc):
        out.append((f"development.effort_multiplier.{lang}", _effort(lang), _read_effort(lang)))
    out.append(("development.maintenance_growth_pct_per_year", _field("maintenance_growth_pct_per_year"), lambda i, c, p: i.maintenance_growth_pct_per_year))
    return out


def sensitivity(inp: Inputs, world: World) -> dict[str, Any]:
    pair = dataclasses.replace(inp, languages=tuple(x for x in inp.languages if x in (inp.gc, inp.non_gc)))
    price, _ = usd_per_hour_of(pair, world)
    caps = resolve_capacities(pair, world)
    base = break_even_of(pair, caps, price)
    never = inp.horizon_months + 1  # "no break-even within the horizon" ranks as one month past it
    p = inp.perturbation_pct / 100.0
    rows: list[dict[str, Any]] = []
    for name, perturb, base_value in perturbations(pair):
        result: dict[str, Any] = {"input": name, "base_value": base_value(pair, caps, price)}
        months: dict[str, int | None] = {}
        for side, f in (("low", 1.0 - p), ("high", 1.0 + p)):
            i2, c2, p2 = perturb(pair, caps, price, f)
            months[side] = break_even_of(i2, c2, p2)
            result[f"{side}_value"] = base_value(i2, c2, p2)
            result[f"break_even_month_{side}"] = months[side]
        lo = never if months["low"] is None else months["low"]
        hi = never if months["high"] is None else months["high"]
        b = never if base is None else base
        result["swing_months"] = abs(hi - lo)
        result["max_shift_months"] = max(abs(lo - b), abs(hi - b))
        rows.append(result)
    rows.sort(key=lambda r: (-r["swing_months"], -r["max_shift_months"], r["input"]))
    top = rows[0]["input"] if rows and rows[0]["max_shift_months"] > 0 else None
    return {
        "command": "sensitivity",
        "model": model_info(),
        "inputs": inp.as_dict(),
        "perturbation_pct": inp.perturbation_pct,
        "base_break_even_month": base,
        "horizon_months": inp.horizon_months,
        "ranking_rule": "sorted by swing_months = |month(high) - month(low)|, then by the larger shift from the base; no break-even counts as horizon_months + 1",
        "most_influential": top,
        "table": rows,
    }
