"""Clusters, instances and the monthly cloud bill."""

from __future__ import annotations

import math


def clusters_needed(demand_ops_per_s: float, capacity_ops_per_s_per_cluster: float) -> int:
    """Whole clusters to serve the demand; at least one cluster always runs."""
    return max(1, math.ceil(demand_ops_per_s / capacity_ops_per_s_per_cluster))


def usd_per_month(instances: int, usd_per_hour: float, hours_per_month: float, savings_plan_discount_pct: float) -> float:
    return instances * usd_per_hour * hours_per_month * (1.0 - savings_plan_discount_pct / 100.0)
