"""Reads and checks the inputs JSON; every field not given takes its default (defaults.py).

Unknown keys are errors (a typo should not silently fall back to a default).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .defaults import CLUSTER_SIZES, GC_LANGUAGES, LANGUAGES, NON_GC_LANGUAGES, default
from .demand import Demand
from .errors import InputError

MAX_HORIZON_MONTHS = 600


@dataclass(frozen=True)
class Inputs:
    horizon_months: int
    demand: Demand
    workload: str
    memory_gib: float
    vcpus: int
    instance_type: str
    nodes_per_cluster: int
    languages: tuple[str, ...]
    gc: str
    non_gc: str
    capacity_source: str
    capacity_ops_per_s: dict[str, float] = field(default_factory=dict)
    price_catalogue: str = "data/prices/ec2-prices-us-east-1.csv"
    usd_per_hour: float | None = None
    hours_per_month: float = 730.0
    savings_plan_discount_pct: float = 0.0
    team_size: float = 2
    usd_per_engineer_year: float = 150000.0
    effort_multiplier: dict[str, float] = field(default_factory=dict)
    maintenance_growth_pct_per_year: float = 3.0
    perturbation_pct: float = 20.0

    def as_dict(self) -> dict[str, Any]:
        d = self.demand
        demand: dict[str, Any] = {"kind": d.kind}
        if d.kind == "points":
            demand["points"] = [[m, v] for m, v in d.points]
        else:
            demand["ops_per_s_now"] = d.ops_per_s_now
        if d.kind == "linear":
            demand["growth_ops_per_s_per_month"] = d.growth_ops_per_s_per_month
        if d.kind == "exponential":
            demand["growth_pct_per_month"] = d.growth_pct_per_month
        return {
            "horizon_months": self.horizon_months,
            "demand": demand,
            "cluster": {
                "workload": self.workload,
                "memory_gib": self.memory_gib,
                "vcpus": self.vcpus,
                "instance_type": self.instance_type,
                "nodes_per_cluster": self.nodes_per_cluster,
            },
            "languages": list(self.languages),
            "compare": {"gc": self.gc, "non_gc": self.non_gc},
            "capacity": {"source": self.capacity_source, "ops_per_s_per_cluster": dict(sorted(self.capacity_ops_per_s.items()))},
            "pricing": {
                "catalogue": self.price_catalogue,
                "usd_per_hour": self.usd_per_hour,
                "hours_per_month": self.hours_per_month,
                "savings_plan_discount_pct": self.savings_plan_discount_pct,
            },
            "development": {
                "team_size": self.team_size,
                "usd_per_engineer_year": self.usd_per_engineer_year,
                "effort_multiplier": dict(sorted(self.effort_multiplier.items())),
                "maintenance_growth_pct_per_year": self.maintenance_growth_pct_per_year,
            },
            "sensitivity": {"perturbation_pct": self.perturbation_pct},
        }


def _obj(value: Any, path: str, allowed: set[str]) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(f"{path} must be an object")
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise InputError(f"{path}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")
    return value


def _num(obj: dict[str, Any], key: str, path: str, fallback: Any, *, minimum: float = 0.0, strict: bool = False, maximum: float | None = None) -> float:
    value = obj.get(key, fallback)
    where = f"{path}.{key}" if path else key
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(f"{where} must be a number, got {value!r}")
    if value < minimum or (strict and value == minimum):
        raise InputError(f"{where} must be {'>' if strict else '>='} {minimum:g}, got {value:g}")
    if maximum is not None and value > maximum:
        raise InputError(f"{where} must be <= {maximum:g}, got {value:g}")
    return float(value)


def _int(obj: dict[str, Any], key: str, path: str, fallback: Any, *, minimum: int = 1, maximum: int | None = None) -> int:
    value = obj.get(key, fallback)
    where = f"{path}.{key}" if path else key
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{where} must be a whole number, got {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        raise InputError(f"{where} must be between {minimum} and {maximum if maximum is not None else 'any'}, got {value}")
    return value


def _language(value: Any, where: str, allowed: tuple[str, ...] = LANGUAGES) -> str:
    if value not in allowed:
        raise InputError(f"{where}: unknown language {value!r}; expected one of {', '.join(allowed)}")
    return str(value)


def _demand(raw: Any) -> Demand:
    if raw is None:
        raise InputError("demand is required, e.g. {\"ops_per_s_now\": 50000, \"growth\": {\"kind\": \"exponential\", \"pct_per_month\": 5}}")
    d = _obj(raw, "demand", {"ops_per_s_now", "growth"})
    growth = _obj(d.get("growth", {"kind": "constant"}), "demand.growth", {"kind", "pct_per_month", "ops_per_s_per_month", "points"})
    kind = growth.get("kind")
    if kind == "points":
        pts = growth.get("points")
        if not isinstance(pts, list) or not pts:
            raise InputError("demand.growth.points must be a non-empty list of [month, ops_per_s] pairs")
        parsed: list[tuple[int, float]] = []
        for i, p in enumerate(pts):
            if not (isinstance(p, list) and len(p) == 2):
                raise InputError(f"demand.growth.points[{i}] must be [month, ops_per_s]")
            month = _int({"m": p[0]}, "m", f"demand.growth.points[{i}]", None, minimum=0)
            ops = _num({"v": p[1]}, "v", f"demand.growth.points[{i}]", None)
            if parsed and month <= parsed[-1][0]:
                raise InputError(f"demand.growth.points[{i}]: months must increase")
            parsed.append((month, ops))
        if "ops_per_s_now" in d:
            raise InputError("demand.ops_per_s_now is not used with growth kind 'points' (point 0 is now)")
        return Demand("points", points=tuple(parsed))
    now = _num(d, "ops_per_s_now", "demand", None)
    if kind == "constant":
        return Demand("constant", now)
    if kind == "linear":
        return Demand("linear", now, growth_ops_per_s_per_month=_num(growth, "ops_per_s_per_month", "demand.growth", None, minimum=-math.inf))
    if kind == "exponential":
        return Demand("exponential", now, growth_pct_per_month=_num(growth, "pct_per_month", "demand.growth", None, minimum=-100.0, maximum=1000.0))
    raise InputError(f"demand.growth.kind must be constant, linear, exponential or points, got {kind!r}")


def parse_inputs(raw: Any) -> Inputs:
    top = _obj(raw, "inputs", {"horizon_months", "demand", "cluster", "languages", "compare", "capacity", "pricing", "development", "sensitivity", "fig14"})
    cluster = _obj(top.get("cluster"), "cluster", {"workload", "memory_gib", "memory_to_data_ratio", "dataset_gib", "vcpus", "instance_type", "nodes_per_cluster"})
    workload = cluster.get("workload", default("workload"))
    if workload not in ("A", "B"):
        raise InputError(f"cluster.workload must be A or B, got {workload!r}")
    if "memory_gib" in cluster and "memory_to_data_ratio" in cluster:
        raise InputError("cluster: give memory_gib or memory_to_data_ratio, not both")
    if "memory_gib" in cluster:
        memory_gib = _num(cluster, "memory_gib", "cluster", None, strict=True)
    else:
        ratio = _num(cluster, "memory_to_data_ratio", "cluster", default("memory_to_data_ratio"), strict=True)
        memory_gib = ratio * _num(cluster, "dataset_gib", "cluster", default("dataset_gib"), strict=True)
    nodes = _int(cluster, "nodes_per_cluster", "cluster", default("nodes_per_cluster"))
    if nodes not in CLUSTER_SIZES:
        raise InputError(f"cluster.nodes_per_cluster must be 3 or 5 (the paper's cluster sizes), got {nodes}")
    instance_type = cluster.get("instance_type", default("instance_type"))
    if not isinstance(instance_type, str) or not instance_type:
        raise InputError("cluster.instance_type must be an instance name such as m5.2xlarge")

    langs_raw = top.get("languages", default("languages"))
    if not isinstance(langs_raw, list) or not langs_raw:
        raise InputError("languages must be a non-empty list")
    languages = [_language(x, "languages") for x in langs_raw]
    compare = _obj(top.get("compare"), "compare", {"gc", "non_gc"})
    gc = _language(compare.get("gc", default("compare")["gc"]), "compare.gc", GC_LANGUAGES)
    non_gc = _language(compare.get("non_gc", default("compare")["non_gc"]), "compare.non_gc", NON_GC_LANGUAGES)
    for lang in (gc, non_gc):
        if lang not in languages:
            languages.append(lang)
    ordered = tuple(x for x in LANGUAGES if x in languages)

    cap = _obj(top.get("capacity"), "capacity", {"source", "ops_per_s_per_cluster"})
    source = cap.get("source", default("capacity_source"))
    if not isinstance(source, str) or not source:
        raise InputError("capacity.source must be a path to a results file")
    overrides_raw = _obj(cap.get("ops_per_s_per_cluster"), "capacity.ops_per_s_per_cluster", set(LANGUAGES))
    overrides = {lang: _num(overrides_raw, lang, "capacity.ops_per_s_per_cluster", None, strict=True) for lang in overrides_raw}

    pricing = _obj(top.get("pricing"), "pricing", {"catalogue", "usd_per_hour", "hours_per_month", "savings_plan_discount_pct"})
    catalogue = pricing.get("catalogue", default("price_catalogue"))
    if not isinstance(catalogue, str) or not catalogue:
        raise InputError("pricing.catalogue must be a path to a price CSV")
    usd_per_hour = None if pricing.get("usd_per_hour") is None else _num(pricing, "usd_per_hour", "pricing", None)

    dev = _obj(top.get("development"), "development", {"team_size", "usd_per_engineer_year", "effort_multiplier", "maintenance_growth_pct_per_year"})
    effort = dict(default("effort_multiplier"))
    effort_raw = _obj(dev.get("effort_multiplier"), "development.effort_multiplier", set(LANGUAGES))
    for lang in effort_raw:
        effort[lang] = _num(effort_raw, lang, "development.effort_multiplier", None, strict=True)

    sens = _obj(top.get("sensitivity"), "sensitivity", {"perturbation_pct"})
    return Inputs(
        horizon_months=_int(top, "horizon_months", "", default("horizon_months"), minimum=1, maximum=MAX_HORIZON_MONTHS),
        demand=_demand(top.get("demand")),
        workload=str(workload),
        memory_gib=memory_gib,
        vcpus=_int(cluster, "vcpus", "cluster", default("vcpus")),
        instance_type=instance_type,
        nodes_per_cluster=nodes,
        languages=ordered,
        gc=gc,
        non_gc=non_gc,
        capacity_source=source,
        capacity_ops_per_s=overrides,
        price_catalogue=catalogue,
        usd_per_hour=usd_per_hour,
        hours_per_month=_num(pricing, "hours_per_month", "pricing", default("hours_per_month"), strict=True, maximum=744.0),
        savings_plan_discount_pct=_num(pricing, "savings_plan_discount_pct", "pricing", default("savings_plan_discount_pct"), maximum=100.0),
        team_size=_num(dev, "team_size", "development", default("team_size")),
        usd_per_engineer_year=_num(dev, "usd_per_engineer_year", "development", default("usd_per_engineer_year")),
        effort_multiplier=effort,
        maintenance_growth_pct_per_year=_num(dev, "maintenance_growth_pct_per_year", "development", default("maintenance_growth_pct_per_year"), minimum=-100.0),
        perturbation_pct=_num(sens, "perturbation_pct", "sensitivity", default("perturbation_pct"), strict=True, maximum=99.0),
    )
