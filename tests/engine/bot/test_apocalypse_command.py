"""The Apocalypse computer keeps its units within command range of their Commander (a
unit beyond 12" in the Orders phase gets a Deserter marker and is destroyed in the
Damage phase unless it gets back: digest apocalypse §6.3.1, §6.12.2)."""

from __future__ import annotations

from pathlib import Path

from engine.bot.players import NormalPlayer, make_bot
from engine.game import Game
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def test_the_computer_deploys_its_army_within_command_range() -> None:
    # Before (seed 1): the Warboss deployed at (7,24), its Brute Mobs and Sky Raiders at
    # (21-27,24) and the Scrap Gunners 15" from the Scrap Walker: five of the computer's
    # units were marked deserters in the first Orders phase (the random side's are not
    # its concern).
    game = Game(load_scenario(ROOT / "scenarios" / "apocalypse-crossing.toml"), 1)
    players = (make_bot("random", 1), NormalPlayer(1))
    while game.pending is not None and not any(e.kind == "AssetsDrawn" for e in game.events):
        game.choose(players[game.pending.player].decide(game))
    deployed = [e for e in game.events if e.kind == "UnitDeployed" and e.fields.get("player") == 1]
    marked = [
        e.text for e in game.events if e.kind == "DeserterMarked" and e.fields.get("player") == 1
    ]
    assert len(deployed) == 8 and marked == []
