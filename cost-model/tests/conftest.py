from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

COST_MODEL = Path(__file__).resolve().parents[1]
REPO = COST_MODEL.parent
EXAMPLES = COST_MODEL / "examples"


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


@pytest.fixture
def ratio8() -> dict[str, Any]:
    return example("paper-ratio-8.json")


@pytest.fixture
def ratio125() -> dict[str, Any]:
    return example("paper-ratio-1.25.json")
