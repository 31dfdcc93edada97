"""What the wh40k6 computer player shoots at (engine.rulesets.wh40k6.judgement `target`,
issue 20): what it may charge, what may charge it, what it can finish, what keeps a marker
from its side."""

from __future__ import annotations

from engine.bot.heuristic import OptionScorer
from engine.bot.players import Player, make_bot
from engine.game import Game
from tests.rulesets.wh40k6.open_war import open_war


def _until_aim(game: Game, player: Player) -> None:
    """``player`` plays the pending seat's choices up to the question what a unit shoots at."""
    while game.pending is not None and not game.pending.prompt.endswith("at which unit?"):
        game.choose(player.decide(game))


def _normal_aims(units: str, head: str, round_: int) -> str:
    """What the normal Wardens shoot at first in an Open War Shooting phase of turn
    ``round_`` with ``units`` and the ``[wh40k6]`` keys ``head``."""
    game = open_war(units, "Shooting", 1, head, round_=round_)
    normal = make_bot("normal", 5)
    _until_aim(game, normal)
    assert game.pending is not None
    return normal.decide(game).key


def _with_and_without_marker(
    units: str, marker: tuple[int, int], quick: str | None = None
) -> list[str]:
    """What normal Horde ``units`` shoot at in a Crusade with a 3 VP marker at ``marker``,
    then with none; ``quick``: what the quick worth ranks first each time (easy's pick)."""
    picks = []
    for head in (f"objectives = [{{ cell = [{marker[0]}, {marker[1]}], value = 3 }}]\n", ""):
        game = open_war(units, "Shooting", 2, "mission = 1\n" + head)
        normal = make_bot("normal", 5)
        _until_aim(game, normal)
        assert game.pending is not None
        if quick is not None:
            scorer = OptionScorer(game.pending, game.view(), game.board, game.ruleset.EVALUATION)
            assert scorer.ranked()[0].key == quick
        picks.append(normal.decide(game).key)
    return picks


CLOSING = """
[[wh40k6.units]]
player = 1
unit = "warden_lexicar"
models = [{ cell = [21, 10] }]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [24, 17] }, { cell = [25, 17] }, { cell = [26, 17] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [20, 20] }, { cell = [21, 20] }, { cell = [22, 20] }, { cell = [23, 20] }]
"""


def test_a_unit_that_fights_better_than_it_shoots_shoots_what_it_may_charge() -> None:
    """A Horde mob (WS 4, BS 2) with the Warden Lexicar, the Warlord, 10" off and a
    Warden Squad 3" off: the quick worth ranks the Warlord first (what easy shoots at),
    and a unit that shot may charge only the unit it shot at (§6.11), so a mob stood 2"
    from the Rangers it could not charge (seed 40). Normal shoots the squad, then may
    charge it."""
    game = open_war(CLOSING, "Shooting", 2)
    normal = make_bot("normal", 5)
    _until_aim(game, normal)
    assert game.pending is not None
    scorer = OptionScorer(game.pending, game.view(), game.board, game.ruleset.EVALUATION)
    assert scorer.ranked()[0].key == "A1"
    assert normal.decide(game).key == "A2"
    while game.pending is not None and not game.pending.prompt.startswith("Declare a charge"):
        pending = game.pending
        if pending.player == 1:
            game.choose(normal.decide(game))
        else:
            game.choose_key(pending.options[0].key)
    assert game.pending is not None
    assert [o.key for o in game.pending.options if ">" in o.key] == ["B1>A2"]


def test_a_shooting_unit_shoots_the_brawler_that_may_charge_it() -> None:
    """A Warden Squad with the Horde Chieftain 12" off (it may charge the squad next
    turn) and a Horde mob 23" off: the quick worth ranks the mob first (more hits get
    through, what easy shoots at); normal shoots the Chieftain. Beyond 18" no brawler may
    charge it, and the quick worth picks."""
    text = """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [24, 30] }, { cell = [25, 30] }, { cell = [26, 30] }]

[[wh40k6.units]]
player = 2
unit = "horde_chieftain"
models = [{ cell = [25, %d] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [40, 14] }, { cell = [41, 14] }, { cell = [42, 14] }]
"""
    picks = []
    for row in (18, 10):
        game = open_war(text % row, "Shooting", 1)
        normal = make_bot("normal", 5)
        _until_aim(game, normal)
        assert game.pending is not None
        scorer = OptionScorer(game.pending, game.view(), game.board, game.ruleset.EVALUATION)
        assert scorer.ranked()[0].key == "B2"
        picks.append(normal.decide(game).key)
    assert picks == ["B1", "B2"]


def test_a_unit_shoots_the_one_keeping_a_marker_from_its_side() -> None:
    """The Scrap Hauler (no brawler, and no enemy brawler near) with a Warden Squad 8"
    off and a single Warden Outrider on a marker 14" off: the quick worth ranks the squad
    first (what easy shoots at); normal shoots the Outrider, whose one model there keeps
    the marker from the Horde (seed 316 against easy: a lone Outrider and the Bastion
    Tank on the Horde's two markers, Crusade lost 1-8). With no marker there, the quick
    worth picks."""
    units = """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [30, 18] }, { cell = [31, 18] }, { cell = [32, 18] }]

[[wh40k6.units]]
player = 1
unit = "warden_outriders"
models = [{ cell = [22, 16] }]

[[wh40k6.units]]
player = 2
unit = "scrap_hauler"
models = [{ cell = [30, 26] }]
"""
    assert _with_and_without_marker(units, (22, 15), quick="A1") == ["A2", "A1"]


def test_a_unit_shoots_to_destroy_what_its_shots_can_finish() -> None:
    """A Warden Squad with a Horde mob 10" off (a brawler that may charge it) and the
    last Sky Raider 20" off: by the brawler rule it shoots the mob; its shots are
    expected to take the Sky Raider's last wound, and a destroyed unit shoots no more
    (the first gives First Blood: normal against easy, seeds 201-400, gave it in 83 of
    198 games and won 23 of those, took it and won 95 of 115), so it shoots the Sky
    Raider. With the Sky Raiders whole (five wounds) it shoots the mob."""
    text = """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [
  { cell = [24, 30] }, { cell = [25, 30] }, { cell = [26, 30] }, { cell = [27, 30] },
  { cell = [28, 30] },
]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [24, 20] }, { cell = [25, 20] }, { cell = [26, 20] }, { cell = [27, 20] }]

[[wh40k6.units]]
player = 2
unit = "sky_raiders"
models = [%s]
"""
    picks = []
    for raiders in (
        "{ cell = [40, 14] }",
        ", ".join(f"{{ cell = [{x}, 14] }}" for x in range(40, 45)),
    ):
        game = open_war(text % raiders, "Shooting", 1)
        normal = make_bot("normal", 5)
        _until_aim(game, normal)
        assert game.pending is not None
        picks.append(normal.decide(game).key)
    assert picks == ["B2", "B1"]


def test_a_brawler_shoots_and_so_may_charge_the_one_by_a_marker() -> None:
    """A Horde mob with a Warden Squad 3" off and the Warden Rangers 7" off beside a
    marker: both within reach of its charge, and a unit that shot may charge only the
    one it shot at (§6.11). Normal shoots the Rangers, whose models there keep the marker
    from the Horde (a mob fought the unit nearest it while a tank sat on its marker: seed
    624 against easy); with no marker, the nearest, the squad."""
    units = """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [20, 17] }, { cell = [21, 17] }, { cell = [22, 17] }]

[[wh40k6.units]]
player = 1
unit = "warden_rangers"
models = [{ cell = [20, 27] }, { cell = [21, 27] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [20, 20] }, { cell = [21, 20] }, { cell = [22, 20] }, { cell = [23, 20] }]
"""
    assert _with_and_without_marker(units, (21, 29)) == ["A2", "A1"]


RELICS = ((43, 20), (10, 10))
"""Where the Relic lies: beside the Scrap Hauler at (44, 20), then far from everyone."""


def test_a_unit_shoots_what_stands_in_the_way_of_the_relic() -> None:
    """A Warden Squad with a Horde mob 10" off (a brawler that may charge it, the one
    it shoots by the brawler rule) and the Scrap Hauler parked beside the Relic: no
    model may end a move within 1" of an enemy, so no Warden can pick the Relic up while
    the Hauler stands there. The Hauler stood there from turn 4 to the end, whole, and
    the game ended 1-2 (seed 917 against easy). Normal shoots the Hauler; with the
    Relic elsewhere, the mob."""
    units = """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [
  { cell = [29, 36] }, { cell = [30, 36] }, { cell = [31, 36] }, { cell = [32, 36] },
  { cell = [33, 36] },
]

[[wh40k6.units]]
player = 2
unit = "scrap_hauler"
models = [{ cell = [44, 20] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [
  { cell = [30, 26] }, { cell = [31, 26] }, { cell = [32, 26] }, { cell = [30, 25] },
  { cell = [31, 25] }, { cell = [32, 25] },
]
"""
    picks = [_normal_aims(units, f"mission = 6\nrelic = [{x}, {y}]\n", 4) for x, y in RELICS]
    assert picks == ["B1", "B2"]


def test_a_unit_shoots_the_relics_carrier() -> None:
    """A Warden Squad with a Horde mob 8" off (the nearest brawler, the one it shoots by
    the brawler rule) and another 14" off: where the farther one carries the Relic,
    normal shoots the carrier (it scores 3 VP at the end wherever it stands; the Horde
    picked the Relic up in turn 5 or 6 and kept it in three of the Wardens' Relic losses,
    seeds 867, 883 and 929 against easy)."""
    units = """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [
  { cell = [29, 36] }, { cell = [30, 36] }, { cell = [31, 36] }, { cell = [32, 36] },
  { cell = [33, 36] },
]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [
  { cell = [30, 28] }, { cell = [31, 28] }, { cell = [32, 28] }, { cell = [30, 27] },
  { cell = [31, 27] }, { cell = [32, 27] },
]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [
  { cell = [40, 24] %s}, { cell = [41, 24] }, { cell = [42, 24] }, { cell = [40, 23] },
  { cell = [41, 23] }, { cell = [42, 23] },
]
"""
    carried = _normal_aims(units % ', states = ["carries relic"] ', "mission = 6\n", 4)
    elsewhere = _normal_aims(units % "", "mission = 6\nrelic = [10, 10]\n", 4)
    assert (carried, elsewhere) == ("B2", "B1")
