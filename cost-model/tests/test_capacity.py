import json

import pytest

from replicant_cost.capacity import Config, find_capacity
from replicant_cost.errors import InputError

from conftest import REPO

PAPER = json.loads((REPO / "data/paper/paper-results.json").read_text(encoding="utf-8"))
LABEL = "data/paper/paper-results.json"


def cap(lang: str, workload: str, memory: float, vcpus: int = 8, inst: str = "m5.2xlarge") -> float | None:
    return find_capacity(PAPER, lang, Config(workload, memory, vcpus, inst), LABEL).ops_per_s_per_cluster


@pytest.mark.parametrize(
    "lang,ample,limited",
    [("C++", 28700.0, 28700.0), ("Java", 18000.0, 3000.0), ("Go", 49800.0, None), ("Rust", 69500.0, 69500.0)],
)
def test_paper_capacities_workload_a(lang: str, ample: float, limited: float | None) -> None:
    # paper §5.2/§5.4: memory to data ratio 8 = 32 GiB, ratio 1.25 = 5 GiB
    assert cap(lang, "A", 32) == ample
    assert cap(lang, "A", 5) == limited


@pytest.mark.parametrize("lang,ample,limited", [("C++", 29200.0, 29200.0), ("Java", 27000.0, 17000.0), ("Go", 55000.0, None), ("Rust", 73500.0, 73500.0)])
def test_paper_capacities_workload_b(lang: str, ample: float, limited: float | None) -> None:
    assert cap(lang, "B", 32) == ample
    assert cap(lang, "B", 5) == limited


def test_infeasible_says_why() -> None:
    c = find_capacity(PAPER, "Go", Config("A", 5, 8, "m5.2xlarge"), LABEL)
    assert not c.feasible
    assert "cannot meet the SLO" in c.reason and "100 ops/s" in c.reason


def test_vcpu_sweep_and_bigger_instance() -> None:
    assert cap("Java", "A", 32, vcpus=4) == 7000.0
    assert cap("C++", "A", 32, inst="m5.metal") == 36000.0


def test_missing_capacity_is_a_clear_error() -> None:
    with pytest.raises(InputError, match=r"no capacity for C\+\+ at workload A, 32 GiB, 4 vCPUs.*it has C\+\+ at: A/32"):
        cap("C++", "A", 32, vcpus=4)
    with pytest.raises(InputError, match="no capacity for Java at workload A, 6 GiB"):
        cap("Java", "A", 6)


def test_conflicting_rows_are_an_error() -> None:
    doc = {"rows": [
        {"id": "a", "metric": "max_throughput_slo", "language": "Java", "workload": "A", "memory_gib": 32, "vcpus": 8, "instance_type": None, "value": 18, "unit": "Kops/s", "qualifier": "exact"},
        {"id": "b", "metric": "max_throughput_slo", "language": "Java", "workload": "A", "memory_gib": 32, "vcpus": 8, "instance_type": None, "value": 19, "unit": "Kops/s", "qualifier": "exact"},
    ]}
    with pytest.raises(InputError, match="different capacities"):
        find_capacity(doc, "Java", Config("A", 32, 8, "m5.2xlarge"), "x.json")
