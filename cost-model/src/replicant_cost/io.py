"""Reading inputs and files; writing deterministic JSON and CSV.

Output rules (so the same inputs give byte-identical output everywhere):
- JSON keys sorted, two-space indent, UTF-8, one trailing newline;
- floats rounded with Python's round(): money (keys ending in _usd or _usd_per_month)
  to 2 decimals, every other float to 6 decimals; -0.0 becomes 0.0;
- CSV: header first, rows in month/language order, '\\n' line ends, floats as in JSON.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path
from typing import Any

from .errors import InputError

MONEY_SUFFIXES = ("_usd", "_usd_per_month")


def round_floats(value: Any, key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: round_floats(v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [round_floats(v, key) for v in value]
    if isinstance(value, float):
        r = round(value, 2 if key.endswith(MONEY_SUFFIXES) else 6)
        return 0.0 if r == 0 else r
    return value


def dumps(doc: Any) -> str:
    return json.dumps(round_floats(doc), sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def parse_json(text: str, label: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{label} is not valid JSON: line {e.lineno}, column {e.colno}: {e.msg}") from None


def read_text(path: Path, label: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{label}: file not found ({path})") from None
    except OSError as e:
        raise InputError(f"{label}: cannot read ({e.strerror})") from None


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow(["" if v is None else v for v in row])
    return buf.getvalue()


def to_csv(doc: dict[str, Any]) -> str:
    doc = round_floats(doc)
    cmd = doc["command"]
    if cmd == "estimate":
        cols = ["month", "demand_ops_per_s", "clusters", "instances", "cloud_usd_per_month", "dev_usd_per_month", "total_usd_per_month", "cumulative_cloud_usd", "cumulative_dev_usd", "cumulative_total_usd"]
        rows = [
            [lang] + [m[c] for c in cols]
            for lang, entry in doc["languages"].items()
            if entry["feasible"]
            for m in entry["months"]
        ]
        return _csv(["language"] + cols, rows)
    if cmd == "sensitivity":
        cols = ["input", "base_value", "low_value", "high_value", "break_even_month_low", "break_even_month_high", "swing_months", "max_shift_months"]
        return _csv(cols, [[r[c] for c in cols] for r in doc["table"]])
    if cmd == "fig14":
        names = sorted(doc["series"])
        parts = ["dev", "cloud", "total", "cumulative_total"]
        header = ["month"] + [f"{n}.{p}" for n in names for p in parts]
        rows = [[m] + [doc["series"][n][p][i] for n in names for p in parts] for i, m in enumerate(doc["months"])]
        return _csv(header, rows)
    raise InputError(f"no CSV form for {cmd}")
