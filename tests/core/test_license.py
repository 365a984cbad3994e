"""The MIT licence that pyproject declares ships in the repository and in the installed
distribution (wheel or editable: ``*.dist-info/licenses/LICENSE``)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_license_file_in_repository_and_distribution() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    dist = importlib.metadata.distribution("privlab")
    meta = dist.metadata
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    shipped = [f for f in (dist.files or []) if f.name == "LICENSE"]
    assert shipped and shipped[0].read_text() == text
