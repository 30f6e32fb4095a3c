"""Capacity of one cluster per language at the SLO (p99 <= 20 ms), from a results file.

A results file (data/schema/results.schema.json) holds rows with metric
max_throughput_slo; the paper's file is data/paper/paper-results.json. A row whose
qualifier is upper_bound means the language cannot meet the SLO at that configuration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InputError

METRIC = "max_throughput_slo"
OPS_PER_UNIT = {"Kops/s": 1000.0, "ops/s": 1.0}


@dataclass(frozen=True)
class Capacity:
    language: str
    ops_per_s_per_cluster: float | None  # None when infeasible
    row_ids: tuple[str, ...]
    reason: str = ""

    @property
    def feasible(self) -> bool:
        return self.ops_per_s_per_cluster is not None


@dataclass(frozen=True)
class Config:
    workload: str
    memory_gib: float
    vcpus: int
    instance_type: str

    def describe(self) -> str:
        return f"workload {self.workload}, {self.memory_gib:g} GiB, {self.vcpus} vCPUs, {self.instance_type}"


def _matches(row: dict[str, Any], language: str, cfg: Config) -> bool:
    mem = row.get("memory_gib")
    return (
        row.get("metric") == METRIC
        and row.get("language") == language
        and row.get("workload") == cfg.workload
        and row.get("vcpus") == cfg.vcpus
        and isinstance(mem, (int, float))
        and abs(float(mem) - cfg.memory_gib) < 1e-9
        and row.get("instance_type") in (None, cfg.instance_type)
    )


def find_capacity(doc: dict[str, Any], language: str, cfg: Config, label: str) -> Capacity:
    """The capacity of language at cfg, or InputError when the file has no such row."""
    rows = [r for r in doc.get("rows", []) if isinstance(r, dict) and _matches(r, language, cfg)]
    if not rows:
        have = sorted(
            {
                f"{r.get('workload')}/{r.get('memory_gib')} GiB/{r.get('vcpus')} vCPU"
                for r in doc.get("rows", [])
                if isinstance(r, dict) and r.get("metric") == METRIC and r.get("language") == language
            }
        )
        raise InputError(
            f"no capacity for {language} at {cfg.describe()} in {label}; "
            f"it has {language} at: {', '.join(have) if have else 'nothing'} "
            f"(or give capacity_ops_per_s for {language})"
        )
    ids = tuple(sorted(str(r.get("id")) for r in rows))
    bounds = [r for r in rows if r.get("qualifier") == "upper_bound"]
    if bounds:
        r = bounds[0]
        ops = _ops_per_s(r, label)
        return Capacity(
            language,
            None,
            ids,
            f"{language} cannot meet the SLO at {cfg.describe()}: its maximum throughput is below {ops:g} ops/s ({r.get('id')})",
        )
    values = sorted({_ops_per_s(r, label) for r in rows})
    if len(values) > 1:
        raise InputError(f"{label} gives different capacities for {language} at {cfg.describe()}: {values} (rows {', '.join(ids)})")
    if values[0] <= 0:
        raise InputError(f"{label}: capacity of {language} at {cfg.describe()} is not positive")
    return Capacity(language, values[0], ids)


def _ops_per_s(row: dict[str, Any], label: str) -> float:
    unit = row.get("unit")
    value = row.get("value")
    if unit not in OPS_PER_UNIT or not isinstance(value, (int, float)):
        raise InputError(f"{label}: row {row.get('id')}: capacity must be a number in Kops/s or ops/s")
    return float(value) * OPS_PER_UNIT[str(unit)]
