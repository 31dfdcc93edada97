"""What the wh40k6 computer player charges (engine.rulesets.wh40k6.judgement, issue 20):
not off a marker its unit alone holds once the game may end."""

from __future__ import annotations

from engine.bot.players import make_bot
from engine.game import Game
from tests.rulesets.wh40k6.open_war import open_war

MOB = """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [30, 26] }, { cell = [31, 26] }, { cell = [32, 26] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [28, 21] }, { cell = [29, 21] }, { cell = [30, 21] },
          { cell = [31, 21] }, { cell = [32, 21] }, { cell = [33, 21] }]
"""

SECOND_MOB = """
[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [29, 16] }, { cell = [30, 16] }, { cell = [31, 16] }]
"""


def _on_marker(round_: int, units: str = MOB, marker: tuple[int, int] = (30, 18)) -> Game:
    """A Horde mob 3" from a 3 VP marker (Crusade) in its Assault phase of turn
    ``round_``, a Warden Squad 5" off it and 8" from the marker."""
    head = f"mission = 1\nobjectives = [{{ cell = [{marker[0]}, {marker[1]}], value = 3 }}]\n"
    game = open_war(units, "Assault", 2, head, round_)
    assert game.pending is not None and game.pending.prompt == "Declare a charge?"
    return game


def test_a_mob_does_not_charge_off_the_marker_it_holds_once_the_game_may_end() -> None:
    """Turn 5 (a D6 may end the game after it, and markers score at the end): Horde Mob
    Black charged the Warden Lexicar 6" off the marker it had held since turn 1, the game
    ended and the Horde lost 1-4 (seed 624 against easy). Normal stays; easy charges."""
    game = _on_marker(5)
    assert make_bot("easy", 4).decide(game).key == "B1>A1"
    assert make_bot("normal", 4).decide(game).key == "end"


def test_a_mob_charges_off_its_marker_while_the_game_goes_on_or_another_holds_it() -> None:
    """Before turn 5 the mob may come back before the end; with another mob of its side
    on the marker the marker stays held; where the squad stands by the marker the fight
    is there. Normal charges in each."""
    assert make_bot("normal", 4).decide(_on_marker(4)).key == "B1>A1"
    assert make_bot("normal", 4).decide(_on_marker(5, MOB + SECOND_MOB)).key == "B1>A1"
    assert make_bot("normal", 4).decide(_on_marker(5, marker=(30, 23))).key == "B1>A1"
