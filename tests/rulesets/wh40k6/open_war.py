"""Games of the wh40k6 Open War scenario from a position: the computer player's tests
(test_evaluation*.py) set a few units on its table and ask what it does."""

from __future__ import annotations

from pathlib import Path

from engine.game import Game
from engine.position import parse_position

SCENARIOS = Path(__file__).parents[3] / "scenarios"


def open_war(units: str, phase: str, player: int, head: str = "", round_: int = 2) -> Game:
    """A game from an Open War position of turn ``round_``, in ``phase``, ``player``'s to
    play (1: the Iron Wardens, 2: the Rustbound Horde), with ``units`` and the
    ``[wh40k6]`` table's other keys ``head`` (mission, markers, the Relic)."""
    top = f'scenario = "wh40k6-open-war.toml"\nround = {round_}\nphase = "{phase}"\n\n'
    text = top + f"[wh40k6]\nplayer = {player}\n{head}" + units
    position = parse_position(text, f"{phase}.toml", base=SCENARIOS)
    return Game(position.scenario, 0, position=position)
