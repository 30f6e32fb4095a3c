from hypothesis import given
from hypothesis import strategies as st

from replicant_cost.demand import Demand, series_ops_per_s


def test_curves_by_hand() -> None:
    assert series_ops_per_s(Demand("constant", 5.0), 3) == [5.0, 5.0, 5.0]
    assert series_ops_per_s(Demand("linear", 100.0, growth_ops_per_s_per_month=50.0), 3) == [100.0, 150.0, 200.0]
    assert series_ops_per_s(Demand("exponential", 100.0, growth_pct_per_month=10.0), 3) == [100.0, 110.00000000000001, 121.00000000000003]
    pts = Demand("points", points=((0, 100.0), (2, 300.0), (4, 300.0)))
    assert series_ops_per_s(pts, 6) == [100.0, 200.0, 300.0, 300.0, 300.0, 300.0]


def test_linear_decline_stops_at_zero() -> None:
    assert series_ops_per_s(Demand("linear", 100.0, growth_ops_per_s_per_month=-60.0), 3) == [100.0, 40.0, 0.0]


@given(st.floats(0, 1e7), st.floats(0, 50), st.integers(1, 120))
def test_exponential_growth_never_falls(now: float, pct: float, months: int) -> None:
    s = series_ops_per_s(Demand("exponential", now, growth_pct_per_month=pct), months)
    assert len(s) == months and s[0] == now
    assert all(b >= a for a, b in zip(s, s[1:]))


@given(st.lists(st.tuples(st.integers(0, 200), st.floats(0, 1e7)), min_size=1, max_size=8, unique_by=lambda p: p[0]))
def test_points_pass_through_and_stay_between(points: list[tuple[int, float]]) -> None:
    pts = tuple(sorted(points))
    s = series_ops_per_s(Demand("points", points=pts), 210)
    for m, v in pts:
        assert abs(s[m] - v) <= 1e-6 * max(1.0, v)
    lo, hi = min(v for _, v in pts), max(v for _, v in pts)
    assert all(lo - 1e-6 * max(1.0, hi) <= x <= hi + 1e-6 * max(1.0, hi) for x in s)


@given(st.floats(0, 1e6), st.floats(0.1, 10))
def test_scaling_scales_every_month(now: float, factor: float) -> None:
    d = Demand("linear", now, growth_ops_per_s_per_month=1000.0)
    base, scaled = series_ops_per_s(d, 12), series_ops_per_s(d.scaled(factor), 12)
    assert all(abs(b * factor - s) <= 1e-6 * max(1.0, s) for b, s in zip(base, scaled))
