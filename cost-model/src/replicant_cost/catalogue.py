"""The instance catalogue: EC2 prices per instance type, read from the price CSV."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from .errors import InputError


@dataclass(frozen=True)
class Instance:
    name: str
    vcpus: int
    memory_gib: float
    usd_per_hour: float
    retrieved_on: str
    source_note: str


def parse_catalogue(text: str, label: str) -> dict[str, Instance]:
    out: dict[str, Instance] = {}
    for n, row in enumerate(csv.DictReader(io.StringIO(text)), start=1):
        try:
            inst = Instance(
                name=row["instance"],
                vcpus=int(row["vcpu"]),
                memory_gib=float(row["memory_gib"]),
                usd_per_hour=float(row["usd_per_hour_on_demand_linux"]),
                retrieved_on=row.get("retrieved_on") or "",
                source_note=row.get("source_note") or "",
            )
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"{label}: row {n}: cannot read the price ({e})") from None
        out[inst.name] = inst
    if not out:
        raise InputError(f"{label}: no instance prices")
    return out


def lookup(catalogue: dict[str, Instance], name: str, label: str) -> Instance:
    if name not in catalogue:
        raise InputError(f"instance_type {name!r} is not in {label}; known: {', '.join(sorted(catalogue))}")
    return catalogue[name]
