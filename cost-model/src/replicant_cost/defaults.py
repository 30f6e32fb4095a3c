"""Every default of the model, with where it comes from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Default:
    value: Any
    source: str


ASSUMPTION = "assumption (not from the paper; change it)"

DEFAULTS: dict[str, Default] = {
    "horizon_months": Default(60, ASSUMPTION),
    "workload": Default("A", "paper §5.1: YCSB workload A, update-heavy (50% reads, 50% writes)"),
    "vcpus": Default(8, "paper §4.3: m5.2xlarge, 8 vCPUs"),
    "instance_type": Default("m5.2xlarge", "paper §4.3: every Replicant server runs on an m5.2xlarge"),
    "nodes_per_cluster": Default(3, "paper §4.3/§5: 3-server clusters (5-node runs showed similar trends)"),
    "dataset_gib": Default(4.0, "paper §5.1: raw dataset of about 4 GiB"),
    "memory_to_data_ratio": Default(8.0, "paper §5.2: ample memory, 32 GiB / 4 GiB = 8"),
    "capacity_source": Default("data/paper/paper-results.json", "the paper's stated numbers (data/paper)"),
    "price_catalogue": Default("data/prices/ec2-prices-us-east-1.csv", "on-demand Linux prices, us-east-1, retrieved 2026-11-22"),
    "hours_per_month": Default(730.0, "AWS billing convention: 730 hours per month"),
    "savings_plan_discount_pct": Default(0.0, "on-demand pricing (no savings plan)"),
    "team_size": Default(2, ASSUMPTION),
    "usd_per_engineer_year": Default(150000.0, ASSUMPTION),
    "maintenance_growth_pct_per_year": Default(3.0, ASSUMPTION + "; Fig 14 only says development cost grows slowly"),
    "effort_multiplier": Default(
        {"C++": 2.0, "Rust": 2.0, "Java": 1.0, "Go": 1.0},
        "paper §6 / Fig 14(b): manual memory management starts at 2x the development cost of a GC language",
    ),
    "languages": Default(["C++", "Java", "Go", "Rust"], "the paper's four implementations"),
    "compare": Default({"gc": "Java", "non_gc": "C++"}, "paper §5.2-5.3: C++ vs Java (OS threads, gRPC)"),
    "perturbation_pct": Default(20.0, ASSUMPTION),
}

GC_LANGUAGES = ("Java", "Go")
NON_GC_LANGUAGES = ("C++", "Rust")
LANGUAGES = ("C++", "Java", "Go", "Rust")
CLUSTER_SIZES = (3, 5)


def default(name: str) -> Any:
    return DEFAULTS[name].value


def sources() -> dict[str, str]:
    return {name: d.source for name, d in sorted(DEFAULTS.items())}
