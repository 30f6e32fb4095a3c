"""Per-language clusters, instances and costs per month, and the break-even month."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import MODEL_CARD_VERSION, __version__
from .breakeven import break_even_month, cumulative
from .capacity import Capacity, Config, find_capacity
from .catalogue import Instance, lookup
from .cloud_cost import clusters_needed, usd_per_month
from .defaults import sources
from .demand import series_ops_per_s
from .dev_cost import usd_per_month_series
from .errors import InputError
from .inputs import Inputs

BREAK_EVEN_RULE = "first month whose cumulative total (cloud + development) of the non-GC choice is <= that of the GC choice"


@dataclass(frozen=True)
class World:
    """What the input files provide, already parsed."""

    capacity_doc: dict[str, Any]
    capacity_label: str
    capacity_sha256: str
    catalogue: dict[str, Instance]
    catalogue_label: str
    catalogue_sha256: str


def model_info() -> dict[str, str]:
    return {"name": "replicant_cost", "version": __version__, "model_card_version": MODEL_CARD_VERSION}


def config_of(inp: Inputs) -> Config:
    return Config(inp.workload, inp.memory_gib, inp.vcpus, inp.instance_type)


def resolve_capacities(inp: Inputs, world: World) -> dict[str, Capacity]:
    cfg = config_of(inp)
    out: dict[str, Capacity] = {}
    for lang in inp.languages:
        if lang in inp.capacity_ops_per_s:
            out[lang] = Capacity(lang, inp.capacity_ops_per_s[lang], ())
        else:
            out[lang] = find_capacity(world.capacity_doc, lang, cfg, world.capacity_label)
    for lang in (inp.gc, inp.non_gc):
        if not out[lang].feasible:
            raise InputError(f"compare: {out[lang].reason}; compare two languages that meet the SLO, or give capacity.ops_per_s_per_cluster")
    return out


def usd_per_hour_of(inp: Inputs, world: World) -> tuple[float, Instance]:
    inst = lookup(world.catalogue, inp.instance_type, world.catalogue_label)
    return (inst.usd_per_hour if inp.usd_per_hour is None else inp.usd_per_hour), inst


def language_series(inp: Inputs, capacity_ops_per_s: float, usd_per_hour: float, demand: list[float], effort: float) -> dict[str, list[float] | list[int]]:
    clusters = [clusters_needed(d, capacity_ops_per_s) for d in demand]
    instances = [c * inp.nodes_per_cluster for c in clusters]
    cloud = [usd_per_month(n, usd_per_hour, inp.hours_per_month, inp.savings_plan_discount_pct) for n in instances]
    dev = usd_per_month_series(inp.horizon_months, inp.team_size, inp.usd_per_engineer_year, effort, inp.maintenance_growth_pct_per_year)
    total = [c + d for c, d in zip(cloud, dev)]
    return {"clusters": clusters, "instances": instances, "cloud": cloud, "dev": dev, "total": total, "cumulative_total": cumulative(total)}


def break_even_of(inp: Inputs, capacities: dict[str, Capacity], usd_per_hour: float) -> int | None:
    """Break-even month only (used by the sensitivity sweep)."""
    demand = series_ops_per_s(inp.demand, inp.horizon_months)
    cum: dict[str, list[float]] = {}
    for lang in (inp.gc, inp.non_gc):
        cap = capacities[lang].ops_per_s_per_cluster
        assert cap is not None
        series = language_series(inp, cap, usd_per_hour, demand, inp.effort_multiplier[lang])
        cum[lang] = series["cumulative_total"]  # type: ignore[assignment]
    return break_even_month(cum[inp.gc], cum[inp.non_gc])


def assumptions(inp: Inputs) -> list[str]:
    notes = [
        "capacity of a cluster is the paper's maximum throughput at p99 <= 20 ms of a 3-node cluster; demand is spread over whole clusters",
        "at least one cluster always runs",
        "cloud cost counts the Replicant servers only (no load generators, storage or traffic)",
        "development cost steps up by the yearly maintenance growth at each 12-month anniversary",
    ]
    if inp.nodes_per_cluster != 3:
        notes.append("a 5-node cluster is assumed to have the capacity of a 3-node one (the paper shows only 3-node results and says 5-node trends are similar)")
    return notes


def estimate(inp: Inputs, world: World) -> dict[str, Any]:
    usd_per_hour, inst = usd_per_hour_of(inp, world)
    capacities = resolve_capacities(inp, world)
    demand = series_ops_per_s(inp.demand, inp.horizon_months)
    languages: dict[str, Any] = {}
    cum_total: dict[str, list[float]] = {}
    for lang in inp.languages:
        cap = capacities[lang]
        entry: dict[str, Any] = {
            "feasible": cap.feasible,
            "capacity_rows": list(cap.row_ids),
            "capacity_from": "capacity.ops_per_s_per_cluster" if lang in inp.capacity_ops_per_s else world.capacity_label,
            "effort_multiplier": inp.effort_multiplier[lang],
        }
        if cap.ops_per_s_per_cluster is None:
            entry["reason"] = cap.reason
            languages[lang] = entry
            continue
        s = language_series(inp, cap.ops_per_s_per_cluster, usd_per_hour, demand, inp.effort_multiplier[lang])
        cloud, dev, total = s["cloud"], s["dev"], s["total"]
        cum_cloud, cum_dev, cum_tot = cumulative(cloud), cumulative(dev), s["cumulative_total"]  # type: ignore[arg-type]
        cum_total[lang] = cum_tot  # type: ignore[assignment]
        entry["capacity_ops_per_s_per_cluster"] = cap.ops_per_s_per_cluster
        entry["months"] = [
            {
                "month": m + 1,
                "demand_ops_per_s": demand[m],
                "clusters": s["clusters"][m],
                "instances": s["instances"][m],
                "cloud_usd_per_month": cloud[m],
                "dev_usd_per_month": dev[m],
                "total_usd_per_month": total[m],
                "cumulative_cloud_usd": cum_cloud[m],
                "cumulative_dev_usd": cum_dev[m],
                "cumulative_total_usd": cum_tot[m],
            }
            for m in range(inp.horizon_months)
        ]
        entry["totals"] = {
            "cloud_usd": cum_cloud[-1],
            "dev_usd": cum_dev[-1],
            "total_usd": cum_tot[-1],
            "peak_clusters": max(s["clusters"]),
            "peak_instances": max(s["instances"]),
        }
        languages[lang] = entry
    return {
        "command": "estimate",
        "model": model_info(),
        "inputs": inp.as_dict(),
        "sources": {
            "capacity_file": world.capacity_label,
            "capacity_file_sha256": world.capacity_sha256,
            "price_file": world.catalogue_label,
            "price_file_sha256": world.catalogue_sha256,
            "instance": {
                "name": inst.name,
                "vcpus": inst.vcpus,
                "memory_gib": inst.memory_gib,
                "usd_per_hour": usd_per_hour,
                "price_from": "pricing.usd_per_hour" if inp.usd_per_hour is not None else world.catalogue_label,
                "retrieved_on": inst.retrieved_on,
                "source_note": inst.source_note,
            },
            "defaults": sources(),
        },
        "assumptions": assumptions(inp),
        "languages": languages,
        "break_even": {
            "gc": inp.gc,
            "non_gc": inp.non_gc,
            "month": break_even_month(cum_total[inp.gc], cum_total[inp.non_gc]),
            "horizon_months": inp.horizon_months,
            "rule": BREAK_EVEN_RULE,
        },
    }
