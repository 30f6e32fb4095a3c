"""Break-even month between a GC language and a manual-memory language."""

from __future__ import annotations


def cumulative(values: list[float]) -> list[float]:
    out: list[float] = []
    total = 0.0
    for v in values:
        total += v
        out.append(total)
    return out


def break_even_month(cumulative_gc_usd: list[float], cumulative_non_gc_usd: list[float]) -> int | None:
    """First month (1-based) where the non-GC choice's cumulative total is <= the GC
    choice's, or None when that never happens within the horizon."""
    for m, (gc, non_gc) in enumerate(zip(cumulative_gc_usd, cumulative_non_gc_usd), start=1):
        if non_gc <= gc:
            return m
    return None
