import pytest
from hypothesis import given
from hypothesis import strategies as st

from replicant_cost.cloud_cost import clusters_needed, usd_per_month
from replicant_cost.dev_cost import usd_per_month_series


@given(st.floats(0, 1e9), st.floats(1, 1e6))
def test_clusters_cover_demand_with_no_spare_cluster(demand: float, capacity: float) -> None:
    n = clusters_needed(demand, capacity)
    assert n >= 1
    assert n * capacity >= demand * (1 - 1e-12)
    if n > 1:
        assert (n - 1) * capacity < demand


@given(st.floats(0, 1e9), st.floats(0, 1e9), st.floats(1, 1e6))
def test_more_demand_never_needs_fewer_clusters(a: float, b: float, capacity: float) -> None:
    lo, hi = sorted((a, b))
    assert clusters_needed(lo, capacity) <= clusters_needed(hi, capacity)


def test_paper_cluster_prices() -> None:
    # 3 x m5.2xlarge at 0.384 USD/h for 730 h
    assert usd_per_month(3, 0.384, 730, 0) == pytest.approx(840.96)
    assert usd_per_month(3, 0.384, 730, 25) == pytest.approx(630.72)
    assert usd_per_month(3, 0.384, 730, 100) == 0


@given(st.integers(1, 10), st.floats(1000, 1e6), st.floats(0.5, 4), st.floats(0, 50))
def test_dev_cost_steps_once_a_year(team: int, salary: float, effort: float, growth: float) -> None:
    s = usd_per_month_series(36, team, salary, effort, growth)
    assert s[0] == pytest.approx(team * salary / 12 * effort)
    assert len(set(s[0:12])) == 1 and len(set(s[12:24])) == 1
    assert s[12] == pytest.approx(s[0] * (1 + growth / 100))
    assert s[24] == pytest.approx(s[0] * (1 + growth / 100) ** 2)
