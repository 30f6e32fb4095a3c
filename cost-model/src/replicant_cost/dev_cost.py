"""Development (and maintenance) cost per month."""

from __future__ import annotations


def usd_per_month_series(
    months: int,
    team_size: float,
    usd_per_engineer_year: float,
    effort_multiplier: float,
    maintenance_growth_pct_per_year: float,
) -> list[float]:
    """Team cost scaled by the language's effort multiplier; it steps up by the yearly
    growth at every 12-month anniversary (multiplication only, no pow())."""
    base = team_size * usd_per_engineer_year / 12.0 * effort_multiplier
    step = 1.0 + maintenance_growth_pct_per_year / 100.0
    out: list[float] = []
    level = base
    for m in range(months):
        if m > 0 and m % 12 == 0:
            level *= step
        out.append(level)
    return out
