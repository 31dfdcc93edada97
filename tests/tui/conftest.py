"""Fixtures for the TUI tests: the shipped scenario, a private saves folder, quiet apps."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CROSSROADS = ROOT / "scenarios" / "killteam-crossroads.toml"
"""The Kill Team scenario the tests play (fixed seeds make every game the same)."""


@pytest.fixture
def saves_dir(tmp_path: Path) -> Path:
    """An empty saves folder per test, so "Continue" only sees this test's games."""
    path = tmp_path / "saves"
    path.mkdir()
    return path


@pytest.fixture(autouse=True)
def _repo_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from the repository root, where the menu finds scenarios/ (as `make play` does)."""
    monkeypatch.chdir(ROOT)
