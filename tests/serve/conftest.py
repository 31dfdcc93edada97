"""Fixtures for the SSH hosting tests: the repository as working folder, a test ruleset
with secret decisions, and a hub or a whole SSH server on a private state folder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine.game
import engine.save_data
import engine.save_reading
from engine.ruleset import Ruleset
from engine.rulesets import find_ruleset
from engine.scenario import Scenario, parse_scenario
from tests.tui.secret import SCENARIO, SecretCards
from tui.serve.server import ServeConfig, WargridServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _repo_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from the repository root, where the hub finds scenarios/."""
    monkeypatch.chdir(ROOT)


@pytest.fixture
def secret_scenario(monkeypatch: pytest.MonkeyPatch) -> Scenario:
    """The secret-cards test ruleset, known to games and to save files alike."""

    def find(name: str) -> type[Ruleset]:
        return SecretCards if name == "secret" else find_ruleset(name)

    monkeypatch.setattr(engine.game, "find_ruleset", find)
    monkeypatch.setattr(engine.save_data, "find_ruleset", find)
    monkeypatch.setattr(engine.save_reading, "find_ruleset", find)
    return parse_scenario(SCENARIO, "<secret test scenario>")


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[WargridServer]:
    """A real SSH server on a free port, guests allowed, its state in a private folder."""
    server = WargridServer(ServeConfig(state_dir=tmp_path / "state", port=0, guests=True))
    await server.start()
    yield server
    await server.close()
