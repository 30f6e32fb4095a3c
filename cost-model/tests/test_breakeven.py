from hypothesis import given
from hypothesis import strategies as st

from replicant_cost.breakeven import break_even_month, cumulative

money = st.lists(st.floats(0, 1e6), min_size=1, max_size=60)


def test_by_hand() -> None:
    assert cumulative([1.0, 2.0, 3.0]) == [1.0, 3.0, 6.0]
    assert break_even_month([10, 20, 30], [15, 25, 29]) == 3
    assert break_even_month([10, 20], [10, 30]) == 1
    assert break_even_month([10, 20], [11, 21]) is None


@given(money, money)
def test_break_even_is_the_first_month_that_qualifies(gc: list[float], non_gc: list[float]) -> None:
    n = min(len(gc), len(non_gc))
    cg, cn = cumulative(gc[:n]), cumulative(non_gc[:n])
    m = break_even_month(cg, cn)
    if m is None:
        assert all(b > a for a, b in zip(cg, cn))
    else:
        assert 1 <= m <= n
        assert cn[m - 1] <= cg[m - 1]
        assert all(cn[i] > cg[i] for i in range(m - 1))
