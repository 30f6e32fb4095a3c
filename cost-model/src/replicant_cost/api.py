"""One entry point for the command line and for Pyodide: a command name and the inputs
JSON text in, the output text (JSON or CSV) out. File paths in the inputs are relative
to the repository root, which holds data/ (in Pyodide the loader recreates that layout)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import io
from .capacity import METRIC
from .catalogue import parse_catalogue
from .defaults import DEFAULTS
from .errors import InputError
from .estimate import World, estimate, model_info
from .fig14 import fig14, parse_params
from .inputs import Inputs, parse_inputs
from .options import dataset_gib_of, instances, memory, parse_other_memory
from .sensitivity import sensitivity

COMMANDS = ("estimate", "sensitivity", "memory", "instances", "fig14", "defaults")


def default_repo_root() -> Path:
    # src/replicant_cost/api.py -> repository root three levels up from the package
    return Path(__file__).resolve().parents[3]


def load_world(inp: Inputs, repo_root: Path) -> World:
    cap_text = io.read_text(repo_root / inp.capacity_source, f"capacity.source {inp.capacity_source}")
    cap_doc = io.parse_json(cap_text, f"capacity.source {inp.capacity_source}")
    if not isinstance(cap_doc, dict) or not isinstance(cap_doc.get("rows"), list):
        raise InputError(f"capacity.source {inp.capacity_source} is not a results file (no rows)")
    if not any(isinstance(r, dict) and r.get("metric") == METRIC for r in cap_doc["rows"]):
        raise InputError(f"capacity.source {inp.capacity_source} has no {METRIC} rows")
    price_text = io.read_text(repo_root / inp.price_catalogue, f"pricing.catalogue {inp.price_catalogue}")
    return World(
        capacity_doc=cap_doc,
        capacity_label=inp.capacity_source,
        capacity_sha256=io.sha256(cap_text),
        catalogue=parse_catalogue(price_text, inp.price_catalogue),
        catalogue_label=inp.price_catalogue,
        catalogue_sha256=io.sha256(price_text),
    )


def run(command: str, raw_inputs: Any, repo_root: Path | None = None) -> dict[str, Any]:
    root = default_repo_root() if repo_root is None else repo_root
    if command == "defaults":
        return {"command": "defaults", "model": model_info(), "defaults": {k: {"value": d.value, "source": d.source} for k, d in DEFAULTS.items()}}
    if command == "fig14":
        section = raw_inputs.get("fig14") if isinstance(raw_inputs, dict) else None
        return fig14(parse_params(section))
    other = None
    if command == "memory":
        if not isinstance(raw_inputs, dict) or "other_memory" not in raw_inputs:
            raise InputError("memory: give other_memory.memory_to_data_ratio, the memory setting to compare the cluster's with")
        other = parse_other_memory(raw_inputs["other_memory"])
        raw_inputs = {k: v for k, v in raw_inputs.items() if k != "other_memory"}
    inp = parse_inputs(raw_inputs)
    world = load_world(inp, root)
    if command == "memory" and other is not None:
        return memory(inp, world, other[0], other[1], dataset_gib_of(raw_inputs))
    if command == "instances":
        return instances(inp, world, dataset_gib_of(raw_inputs))
    if command == "estimate":
        return estimate(inp, world)
    if command == "sensitivity":
        return sensitivity(inp, world)
    raise InputError(f"unknown command {command!r}; expected one of {', '.join(COMMANDS)}")


def run_text(command: str, input_text: str, output_format: str = "json", repo_root: str | None = None) -> str:
    """Inputs JSON text in, output text out. Raises InputError on bad input."""
    raw = io.parse_json(input_text, "inputs") if input_text.strip() else {}
    doc = run(command, raw, None if repo_root is None else Path(repo_root))
    if output_format == "json":
        return io.dumps(doc)
    if output_format == "csv":
        return io.to_csv(doc)
    raise InputError(f"unknown output format {output_format!r}; expected json or csv")


def run_for_js(command: str, input_text: str, output_format: str = "json", repo_root: str | None = None) -> str:
    """For JavaScript callers: never raises for bad input; returns a JSON envelope
    {"ok": true, "output": ...} or {"ok": false, "error": ...}."""
    import json

    try:
        return json.dumps({"ok": True, "output": run_text(command, input_text, output_format, repo_root)})
    except InputError as e:
        return json.dumps({"ok": False, "error": str(e)})
