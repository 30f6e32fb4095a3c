import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replicant_cost.api import run_text
from replicant_cost.errors import InputError

from conftest import COST_MODEL, EXAMPLES


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(COST_MODEL / "src")}
    return subprocess.run([sys.executable, "-m", "replicant_cost", *args], input=stdin, capture_output=True, text=True, env=env, cwd=COST_MODEL)


def test_help() -> None:
    r = cli("estimate", "--help")
    assert r.returncode == 0
    assert "--input" in r.stdout and "--format" in r.stdout


def test_estimate_json_and_csv() -> None:
    r = cli("estimate", "--input", str(EXAMPLES / "paper-ratio-8.json"), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["break_even"]["month"] == 49
    r = cli("estimate", "-i", str(EXAMPLES / "paper-ratio-8.json"), "--format", "csv")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("language,month,demand_ops_per_s,clusters,instances,cloud_usd_per_month")
    assert len(lines) == 1 + 4 * 60


def test_fig14_and_defaults_need_no_input() -> None:
    assert cli("fig14").returncode == 0
    r = cli("defaults")
    assert r.returncode == 0 and "Fig 14(b)" in r.stdout


BAD = [
    ("{not json", r"inputs is not valid JSON: line 1, column 2"),
    ('{"demand": {"ops_per_s_now": -5}}', r"demand.ops_per_s_now must be >= 0, got -5"),
    ('{"demand": {"ops_per_s_now": 5}, "languages": ["Kotlin"]}', r"languages: unknown language 'Kotlin'"),
    ('{"demand": {"ops_per_s_now": 5}, "compare": {"gc": "C++"}}', r"compare.gc: unknown language 'C\+\+'; expected one of Java, Go"),
    ('{"demand": {"ops_per_s_now": 5}, "cluster": {"vcpus": 4}}', r"no capacity for C\+\+ at workload A, 32 GiB, 4 vCPUs"),
    ('{"demand": {"ops_per_s_now": 5}, "cluster": {"memory_to_data_ratio": 1.25}, "compare": {"gc": "Go", "non_gc": "Rust"}}', r"compare: Go cannot meet the SLO"),
    ('{"demand": {"ops_per_s_now": 5}, "pricing": {"hours_per_month": 0}}', r"pricing.hours_per_month must be > 0"),
    ('{"demand": {"ops_per_s_now": 5}, "cluster": {"instance_type": "m9.huge"}}', r"instance_type 'm9.huge' is not in"),
    ('{"demand": {"ops_per_s_now": 5}, "devlopment": {}}', r"unknown key\(s\) devlopment"),
    ('{"demand": {"ops_per_s_now": 5}, "capacity": {"source": "data/none.json"}}', r"capacity.source data/none.json: file not found"),
    ("{}", r"demand is required"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_bad_input_exits_2_with_a_message(text: str, message: str) -> None:
    r = cli("estimate", "--input", "-", stdin=text)
    assert r.returncode == 2, r.stdout
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith("error: ")
    import re

    assert re.search(message, r.stderr), r.stderr


def test_missing_input_file(tmp_path: Path) -> None:
    r = cli("estimate", "--input", str(tmp_path / "nope.json"))
    assert r.returncode == 2 and "cannot read" in r.stderr and "Traceback" not in r.stderr


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.sampled_from(["demand", "ops_per_s_now", "growth", "kind", "cluster", "vcpus", "pricing", "languages", "compare", "gc", "x"]), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_any_json_gives_output_or_input_error(doc: Any) -> None:
    """Whatever JSON comes in, the model answers or raises InputError, never anything else."""
    for command in ("estimate", "sensitivity"):
        try:
            run_text(command, json.dumps(doc))
        except InputError:
            pass
