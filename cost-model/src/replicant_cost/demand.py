"""Demand over time: ops/s in each month of the horizon.

Growth curves are computed by repeated multiplication or addition, never with pow(),
so that every Python (CPython, Pyodide) gives bit-identical numbers.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Demand:
    kind: str  # "constant", "linear", "exponential" or "points"
    ops_per_s_now: float = 0.0
    growth_ops_per_s_per_month: float = 0.0  # linear
    growth_pct_per_month: float = 0.0  # exponential
    points: tuple[tuple[int, float], ...] = ()  # (month index from 0, ops/s)

    def scaled(self, factor: float) -> "Demand":
        """The same curve with every level multiplied by factor."""
        return Demand(
            self.kind,
            self.ops_per_s_now * factor,
            self.growth_ops_per_s_per_month * factor,
            self.growth_pct_per_month,
            tuple((m, v * factor) for m, v in self.points),
        )


def series_ops_per_s(demand: Demand, months: int) -> list[float]:
    """Demand in months 1..months (index 0 is month 1, i.e. 'now')."""
    if demand.kind == "points":
        return [_interpolate(demand.points, m) for m in range(months)]
    out: list[float] = []
    level = demand.ops_per_s_now
    factor = 1.0 + demand.growth_pct_per_month / 100.0
    for _ in range(months):
        out.append(max(level, 0.0))
        if demand.kind == "linear":
            level += demand.growth_ops_per_s_per_month
        elif demand.kind == "exponential":
            level *= factor
    return out


def _interpolate(points: tuple[tuple[int, float], ...], month: int) -> float:
    """Piecewise-linear between points; flat before the first and after the last."""
    if month <= points[0][0]:
        return points[0][1]
    for (m0, v0), (m1, v1) in zip(points, points[1:]):
        if month <= m1:
            return v0 + (v1 - v0) * (month - m0) / (m1 - m0)
    return points[-1][1]
