"""Two questions an architect asks beside the month-by-month estimate, both at today's demand
(month 1):

- memory: the same cluster with ample and with tight memory, side by side per language: how
  many more instances the tight setting needs and what that adds to the cloud bill a year;
- instances: each instance type of the price catalogue (a larger instance with more memory
  vs more smaller ones), with its price per vCPU and per GiB, and per language the instances
  and yearly cloud bill where a capacity is known at that instance's vCPUs and memory.

A language without a known capacity at a setting is reported with the reason, never guessed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .capacity import Capacity, Config, find_capacity
from .catalogue import Instance, lookup
from .cloud_cost import clusters_needed, usd_per_month
from .defaults import LANGUAGES, default
from .demand import series_ops_per_s
from .errors import InputError
from .estimate import World, model_info
from .inputs import Inputs, _num, _obj

MONTHS_PER_YEAR = 12
FROM_INPUTS = "capacity.ops_per_s_per_cluster"


def demand_now(inp: Inputs) -> float:
    return series_ops_per_s(inp.demand, 1)[0]


def _capacity(world: World, lang: str, cfg: Config, overrides: dict[str, float]) -> tuple[Capacity | None, str, str]:
    """(capacity or None when unknown, where it came from, why unknown)."""
    if lang in overrides:
        return Capacity(lang, overrides[lang], ()), FROM_INPUTS, ""
    try:
        return find_capacity(world.capacity_doc, lang, cfg, world.capacity_label), world.capacity_label, ""
    except InputError as e:
        return None, world.capacity_label, str(e)


def language_at(inp: Inputs, world: World, lang: str, cfg: Config, overrides: dict[str, float], usd_per_hour: float, demand_ops_per_s: float) -> dict[str, Any]:
    """One language at one setting: capacity and its source, instances and cloud a year now."""
    cap, source, unknown = _capacity(world, lang, cfg, overrides)
    if cap is None:
        return {"known": False, "feasible": False, "reason": unknown}
    entry: dict[str, Any] = {"known": True, "feasible": cap.feasible, "capacity_from": source, "capacity_rows": list(cap.row_ids)}
    if cap.ops_per_s_per_cluster is None:
        entry["reason"] = cap.reason
        return entry
    instances = clusters_needed(demand_ops_per_s, cap.ops_per_s_per_cluster) * inp.nodes_per_cluster
    entry["capacity_ops_per_s_per_cluster"] = cap.ops_per_s_per_cluster
    entry["instances_now"] = instances
    entry["cloud_usd_per_year_now"] = usd_per_month(instances, usd_per_hour, inp.hours_per_month, inp.savings_plan_discount_pct) * MONTHS_PER_YEAR
    return entry


def parse_other_memory(raw: Any) -> tuple[float, dict[str, float]]:
    """The "other_memory" section of the memory command: the second setting's memory and
    capacities (empty: the capacity file's)."""
    sec = _obj(raw, "other_memory", {"memory_to_data_ratio", "ops_per_s_per_cluster"})
    if "memory_to_data_ratio" not in sec:
        raise InputError("other_memory.memory_to_data_ratio is required: the memory : data ratio to compare with")
    ratio = _num(sec, "memory_to_data_ratio", "other_memory", None, strict=True)
    caps_raw = _obj(sec.get("ops_per_s_per_cluster"), "other_memory.ops_per_s_per_cluster", set(LANGUAGES))
    return ratio, {lang: _num(caps_raw, lang, "other_memory.ops_per_s_per_cluster", None, strict=True) for lang in caps_raw}


def memory(inp: Inputs, world: World, other_ratio: float, other_overrides: dict[str, float], dataset_gib: float) -> dict[str, Any]:
    inst = lookup(world.catalogue, inp.instance_type, world.catalogue_label)
    usd_per_hour = inst.usd_per_hour if inp.usd_per_hour is None else inp.usd_per_hour
    here = Config(inp.workload, inp.memory_gib, inp.vcpus, inp.instance_type)
    there = replace(here, memory_gib=other_ratio * dataset_gib)
    if abs(here.memory_gib - there.memory_gib) < 1e-9:
        raise InputError(f"other_memory: ratio {other_ratio:g} is the cluster's own; compare two different memory settings")
    sides = sorted([(here, inp.capacity_ops_per_s), (there, other_overrides)], key=lambda s: -s[0].memory_gib)
    now = demand_now(inp)
    languages: dict[str, Any] = {}
    for lang in inp.languages:
        ample = language_at(inp, world, lang, sides[0][0], sides[0][1], usd_per_hour, now)
        tight = language_at(inp, world, lang, sides[1][0], sides[1][1], usd_per_hour, now)
        entry: dict[str, Any] = {"ample": ample, "tight": tight}
        if "instances_now" in ample and "instances_now" in tight:
            entry["extra_instances_now"] = tight["instances_now"] - ample["instances_now"]
            entry["extra_cloud_usd_per_year_now"] = tight["cloud_usd_per_year_now"] - ample["cloud_usd_per_year_now"]
        languages[lang] = entry
    return {
        "command": "memory",
        "model": model_info(),
        "demand_ops_per_s_now": now,
        "settings": {
            name: {"memory_gib": cfg.memory_gib, "memory_to_data_ratio": cfg.memory_gib / dataset_gib, "workload": cfg.workload, "vcpus": cfg.vcpus}
            for name, (cfg, _) in zip(("ample", "tight"), sides)
        },
        "instance": _instance_doc(inst, usd_per_hour, world),
        "languages": languages,
        "rule": "instances now = clusters for month 1's demand x nodes per cluster; cloud a year = 12 x that month's bill",
    }


def _instance_doc(inst: Instance, usd_per_hour: float, world: World) -> dict[str, Any]:
    return {
        "name": inst.name,
        "vcpus": inst.vcpus,
        "memory_gib": inst.memory_gib,
        "usd_per_hour": usd_per_hour,
        "usd_per_vcpu_hour": usd_per_hour / inst.vcpus,
        "usd_per_gib_hour": usd_per_hour / inst.memory_gib,
        "price_file": world.catalogue_label,
        "retrieved_on": inst.retrieved_on,
        "source_note": inst.source_note,
    }


def instances(inp: Inputs, world: World, dataset_gib: float) -> dict[str, Any]:
    """Each catalogue instance used whole (its vCPUs, all its memory). The inputs' capacities
    apply to the instance whose vCPUs and memory are the inputs' cluster's."""
    now = demand_now(inp)
    rows = []
    for inst in sorted(world.catalogue.values(), key=lambda i: (i.vcpus, i.memory_gib, i.name)):
        cfg = Config(inp.workload, inst.memory_gib, inst.vcpus, inst.name)
        same = inst.vcpus == inp.vcpus and abs(inst.memory_gib - inp.memory_gib) < 1e-9
        overrides = inp.capacity_ops_per_s if same else {}
        doc = _instance_doc(inst, inst.usd_per_hour, world)
        doc["memory_to_data_ratio"] = inst.memory_gib / dataset_gib
        doc["languages"] = {lang: language_at(inp, world, lang, cfg, overrides, inst.usd_per_hour, now) for lang in inp.languages}
        rows.append(doc)
    return {
        "command": "instances",
        "model": model_info(),
        "demand_ops_per_s_now": now,
        "workload": inp.workload,
        "dataset_gib": dataset_gib,
        "instances": rows,
        "rule": "each instance used whole (all its vCPUs and memory); instances now = clusters for month 1's demand x nodes per cluster; cloud a year = 12 x that month's bill at the catalogue's on-demand price",
    }


def dataset_gib_of(raw: Any) -> float:
    cluster = raw.get("cluster") if isinstance(raw, dict) else None
    if isinstance(cluster, dict) and "dataset_gib" in cluster:
        return _num(cluster, "dataset_gib", "cluster", None, strict=True)
    return float(default("dataset_gib"))
