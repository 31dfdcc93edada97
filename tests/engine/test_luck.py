"""Luck statistics: exact expected successes per player and kind, from luck events only."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.events import Event, Scalar
from engine.luck import MAX_DENOMINATOR, Luck, luck_table


def rolled(kind: str, player: Scalar, successes: Scalar, dice: Scalar, p: tuple[int, int]) -> Event:
    """A summary event as a ruleset emits it."""
    fields: dict[str, Scalar] = {
        "luck": kind,
        "player": player,
        "successes": successes,
        "dice": dice,
        "p_num": p[0],
        "p_den": p[1],
    }
    return Event("HitsRolled", f"{kind}: {successes} of {dice}", fields)


def test_sums_are_exact_per_player_and_kind() -> None:
    events = [
        rolled("hit", 0, 3, 4, (4, 6)),  # 4 dice at 2/3: expected 8/3
        rolled("hit", 0, 1, 2, (3, 6)),  # 2 dice at 1/2: expected 1
        rolled("wound", 0, 1, 3, (2, 6)),
        rolled("hit", 1, 0, 5, (1, 6)),
        Event("ModelMoved", "A1 moves"),  # no luck fields: not counted
    ]
    table = luck_table(events)
    assert [(luck.player, luck.kind) for luck in table] == [(0, "hit"), (0, "wound"), (1, "hit")]
    hit = table[0]
    assert hit == Luck(0, "hit", 2, 6, 4, Fraction(11, 3), Fraction(8, 9) + Fraction(1, 2))
    assert hit.difference == Fraction(1, 3)
    assert table[2].expected == Fraction(5, 6) and table[2].difference == Fraction(-5, 6)


def test_kinds_line_up_in_order_of_first_appearance() -> None:
    """Player 2's save shows before their hit if saves were seen first in the game."""
    events = [rolled("save", 1, 1, 1, (3, 6)), rolled("hit", 0, 1, 1, (3, 6))]
    events.append(rolled("hit", 1, 1, 1, (3, 6)))
    assert [(x.player, x.kind) for x in luck_table(events)] == [(0, "hit"), (1, "save"), (1, "hit")]


def test_no_luck_events_means_no_luck_data() -> None:
    assert luck_table([Event("PhaseStarted", "Movement")]) == ()


@pytest.mark.parametrize(
    "bad",
    [
        rolled("", 0, 1, 2, (1, 2)),  # no kind
        rolled("hit", 2, 1, 2, (1, 2)),  # no such seat
        rolled("hit", True, 1, 2, (1, 2)),  # a bool is not a seat
        rolled("hit", 0, 3, 2, (1, 2)),  # more successes than dice
        rolled("hit", 0, 0, 0, (1, 2)),  # no dice
        rolled("hit", 0, 1, 2, (3, 2)),  # a chance above one
        rolled("hit", 0, 1, 2, (1, 0)),  # no denominator
        rolled("hit", 0, 1, 2, (1, MAX_DENOMINATOR + 1)),  # a forged, ever-growing sum
        rolled("hit", 0, "1", 2, (1, 2)),  # a string where a number belongs
    ],
)
def test_malformed_luck_fields_are_skipped_not_trusted(bad: Event) -> None:
    """Events can come from a save file: nothing in them may break the sums."""
    assert luck_table([bad]) == ()


def test_kill_team_games_report_hits_wounds_and_saves() -> None:
    """The committed Kill Team replay has all three kinds for both players."""
    from engine.save import read_save
    from tests.replays.make import path_of

    save = read_save(path_of("killteam"))
    table = luck_table(save.events, save.rolls)  # as the replay viewer reads it
    kinds = {(luck.player, luck.kind) for luck in table}
    assert {(p, k) for p in (0, 1) for k in ("hit", "wound", "save")} <= kinds
    for luck in table:
        assert 0 <= luck.expected <= luck.dice and 0 <= luck.successes <= luck.dice


def test_wh40k6_hit_chance_counts_its_automatic_reroll() -> None:
    """A 1 always misses; a re-roll of misses adds (1 - a) * b (digest wh40k6 §6.8.8)."""
    from engine.rulesets.wh40k6.attacks import Group, group_hit_chance
    from engine.rulesets.wh40k6.profiles import Weapon

    weapon = Weapon("rifle", "Rifle", 24, 4, "fixed", 5, "Rapid Fire", 1, None, frozenset())

    def chance(needed: int, reroll: int | None) -> Fraction:
        group = Group("shots", weapon, 4, None, needed, reroll)
        return group_hit_chance(group)

    assert chance(4, None) == Fraction(1, 2)
    assert chance(4, 4) == Fraction(3, 4)  # 1/2 + 1/2 * 1/2
    assert chance(1, None) == Fraction(5, 6)  # 2+ at best
    assert chance(0, None) == 1 and chance(7, None) == 0
