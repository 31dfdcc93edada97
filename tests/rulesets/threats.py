"""What the threat tests of every ruleset share: a game started at a position text, and
the threat of one model in it (issue 15)."""

from __future__ import annotations

from pathlib import Path

from engine.game import Game
from engine.position import parse_position
from engine.threat import Threat

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def threat_at(position: str, model_id: str) -> Threat:
    """The threat of ``model_id`` in a new game at ``position`` (it must be on the table)."""
    parsed = parse_position(position, "threat.toml", base=SCENARIOS)
    threat = Game(parsed.scenario, 3, position=parsed).ruleset.threat(model_id)
    assert threat is not None, f"{model_id} has no threat: not on the table?"
    return threat


def no_threat(position: str, model_id: str) -> bool:
    """True when the ruleset gives no threat for ``model_id`` (not on the table)."""
    parsed = parse_position(position, "threat.toml", base=SCENARIOS)
    return Game(parsed.scenario, 3, position=parsed).ruleset.threat(model_id) is None
