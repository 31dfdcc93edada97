"""The Combat phase and pursuit (digest confrontation §6.11.2, §6.11.7; §9 X16)."""

from __future__ import annotations

from engine.board import Cell
from engine.rulesets.confrontation.combat import combat_phase, fight_with_pursuit
from engine.rulesets.confrontation.state import Fight
from tests.rulesets.confrontation.table import Table


def _winner_table(dice: list[int]) -> Table:
    """A1 kills B1 in one blow; B2 waits two cells east of A1; B3 keeps the game going."""
    t = Table(dice)
    t.add(0, (5, 5))  # A1
    t.add(1, (5, 6))  # B1
    t.add(1, (7, 5))  # B2
    t.add(1, (15, 15))  # B3
    return t


KILL = [5, 2, 4, 6, 6]  # Initiative 8 against 5; A1 attacks 4 + 3; damage double 6


def test_pursuit_into_a_free_enemy_starts_a_fight_at_once() -> None:
    """§6.11.7 step 2: the pursuer moves half MOV (4 -> 2 cells) and fights a new enemy."""
    t = _winner_table([*KILL, 3, 2])
    answers = ["2", "2", "move", "6,5", "E", "0", "0"]
    t.run(fight_with_pursuit(t.state, t.ctx, Fight("A1", ("B1",))), answers)
    reach = [o.cell for o in t.decisions[3].options if o.cell is not None]
    assert all(max(abs(c.x - 5), abs(c.y - 5)) <= 2 for c in reach)
    assert t.state.fighters["A1"].cell == Cell(6, 5)
    assert [e.text for e in t.find("FightStarted")][1].endswith("Fighter A1 vs Fighter B2")
    assert t.state.fighters["B2"].fought


def test_declining_pursuit_ends_the_fighting() -> None:
    t = _winner_table(KILL)
    t.run(fight_with_pursuit(t.state, t.ctx, Fight("A1", ("B1",))), ["2", "2", "decline"])
    assert t.find("PursuitDeclined") and len(t.find("FightStarted")) == 1


def test_pursuit_into_an_unresolved_fight_resolves_it_now() -> None:
    """§6.11.7 (A26): the pursuer joins B2's fight against A2, which is fought at once."""
    t = _winner_table([*KILL, 2, 3])
    t.add(0, (8, 5))  # A2, in a fight with B2 not resolved yet
    t.state.fights = [Fight("B2", ("A2",))]
    answers = ["2", "2", "move", "6,5", "E", "0", "0", "0"]
    t.run(fight_with_pursuit(t.state, t.ctx, Fight("A1", ("B1",))), answers)
    assert t.state.fights == []
    assert t.find("PursuitFightFormed")[0].text.endswith("Fighter B2 vs Fighter A1 + Fighter A2")


def test_fights_are_picked_in_turn_by_the_tactical_winner_first() -> None:
    """§6.11.2 (D19): the Tactical winner picks first; the last fight needs no pick."""
    t = Table([4, 3, 4, 3])
    t.add(0, (2, 2))  # A1 vs B1
    t.add(1, (2, 3))
    t.add(0, (9, 9))  # A3 vs B2
    t.add(1, (9, 10))
    t.state.tactical_winner = 1
    answers = ["1", "0", "0", "0", "0"]
    t.run(combat_phase(t.state, t.ctx), answers)
    assert t.decisions[0].player == 1
    assert t.find("FightStarted")[0].text.endswith("Fighter A2 vs Fighter B2")
    assert all(f.fought for f in t.state.fighters.values())
