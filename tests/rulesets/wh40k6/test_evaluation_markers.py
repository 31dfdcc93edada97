"""How the wh40k6 computer player weighs objective markers (engine.rulesets.wh40k6
.evaluation, issue 20): only a scoring unit holds one (§4.6), each is worth its VP, and a
side level or behind goes for the markers the other side holds."""

from __future__ import annotations

from dataclasses import replace

from engine.board import Cell, distance
from engine.bot.players import make_bot
from engine.decisions import DecisionKind
from engine.game import Game
from engine.rulesets.wh40k6.evaluation import Wh40k6Evaluation
from engine.scenario import load_scenario
from tests.rulesets.wh40k6.open_war import SCENARIOS, open_war


def _move(game: Game, unit: str) -> list[Cell]:
    """The normal player moves ``unit`` (the Movement phase's first question); its cells."""
    game.choose_key(unit)
    assert game.pending is not None and game.pending.subject is not None
    game.choose(make_bot("normal", 3).decide(game))
    prefix = unit + "."
    return [m.cell for m in game.view().models if m.id.startswith(prefix) and m.cell]


FAR_MOB = """
[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [60, 44] }, { cell = [61, 44] }, { cell = [62, 44] }]
"""


def test_only_a_scoring_unit_holds_a_marker() -> None:
    """§4.6: a Troops unit within 3" holds a marker; the Warlord (HQ) only denies it. The
    evaluation counted any model: the Warden Lexicar sat on a 3 VP marker that scored
    nothing at the end while a squad held a 1 VP one (seed 5004 against easy)."""
    units = (
        """
[[wh40k6.units]]
player = 1
unit = "warden_lexicar"
warlord = true
models = [{ cell = [20, 20] }]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [40, 20] }, { cell = [41, 20] }, { cell = [42, 20] }]
"""
        + FAR_MOB
    )
    head = (
        "mission = 1\nobjectives = [{ cell = [21, 21], value = 3 }, "
        "{ cell = [41, 22], value = 3 }]\n"
    )
    game = open_war(units, "Movement", 1, head)
    view = game.view()
    lexicar, squad = view.model("A1.1"), view.model("A2.1")
    assert lexicar is not None and "scoring unit" not in lexicar.states
    assert squad is not None and "scoring unit" in squad.states
    evaluation = game.ruleset.EVALUATION
    standing = [m for m in view.models if m.cell is not None and not m.removed]
    assert evaluation._holder(Cell(21, 21), standing, game.board, 0) == 0
    assert evaluation._holder(Cell(41, 22), standing, game.board, 0) == 1
    # the Lexicar still keeps the Horde from a marker it stands by
    raider = next(m for m in standing if m.player == 1)
    beside = [m for m in standing if m.player == 0] + [replace(raider, cell=Cell(22, 22))]
    assert evaluation._holder(Cell(21, 21), beside, game.board, 1) == 0
    assert evaluation._holder(Cell(21, 21), beside[1:], game.board, 1) == 1


def test_a_squad_takes_the_marker_worth_more() -> None:
    """The Scouring's markers are worth 4 to 1 VP: a Warden Squad a move from a 1 VP
    marker to its west and a 4 VP one to its east takes the 4 VP one (every marker was
    worth the same to it, and it held the nearer)."""
    units = (
        """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [31, 20] }, { cell = [32, 20] }, { cell = [33, 20] }, { cell = [34, 20] },
          { cell = [35, 20] }]
"""
        + FAR_MOB
    )
    head = (
        "mission = 4\nobjectives = [{ cell = [26, 20], value = 1 }, "
        "{ cell = [42, 20], value = 4 }]\n"
    )
    cells = _move(open_war(units, "Movement", 1, head), "A1")
    assert any(distance(c, Cell(42, 20)) <= 3 for c in cells), cells
    assert not any(distance(c, Cell(26, 20)) <= 3 for c in cells), cells


def test_level_late_a_unit_goes_for_the_marker_the_enemy_holds() -> None:
    """Turn 4, level: each side holds one 3 VP marker (a squad on the Wardens', a mob on
    the Horde's), and an empty one lies west of the Rangers, who cannot hold it (Elites
    score nothing in Crusade). They went for the empty marker, which gains nothing, and
    the game ended level; now they march on the Horde's marker to deny it."""
    units = """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [10, 40] }, { cell = [11, 40] }, { cell = [12, 40] }]

[[wh40k6.units]]
player = 1
unit = "warden_rangers"
models = [{ cell = [32, 28] }, { cell = [33, 28] }, { cell = [34, 28] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [60, 8] }, { cell = [61, 8] }, { cell = [62, 8] }]
"""
    head = (
        "mission = 1\nobjectives = [{ cell = [11, 42], value = 3 }, "
        "{ cell = [61, 10], value = 3 }, { cell = [24, 28], value = 3 }]\n"
    )
    before = [Cell(32, 28), Cell(33, 28), Cell(34, 28)]
    cells = _move(open_war(units, "Movement", 1, head, round_=4), "A2")
    east = sum(c.x for c in cells) - sum(c.x for c in before)
    assert east > 0, cells


def test_a_mob_away_from_the_markers_does_not_go_to_ground() -> None:
    """A Horde mob wounded by a Warden Squad's rifles, no marker near: going to ground
    would pin it for its next turn. Normal went to ground each time it was shot at and
    its mobs never reached the Wardens (seed 5021 against easy); it now goes on."""
    units = """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [30, 30] }, { cell = [31, 30] }, { cell = [32, 30] }, { cell = [33, 30] },
          { cell = [34, 30] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [30, 12] }, { cell = [31, 12] }, { cell = [32, 12] }, { cell = [33, 12] },
          { cell = [34, 12] }, { cell = [30, 11] }, { cell = [31, 11] }, { cell = [32, 11] }]
"""
    # a checkpoint at the Shooting phase
    game = open_war(units, "Movement", 1, "mission = 2\n", round_=3)
    wardens, horde = make_bot("normal", 3), make_bot("normal", 4)
    asked = []
    while game.pending is not None and game.view().phase in ("Movement", "Shooting"):
        decision = game.pending
        if decision.player == 1:
            choice = horde.decide(game)
            asked.append((decision.prompt, choice.key))
        else:
            choice = wardens.decide(game)
        game.choose(choice)
    ground = [key for prompt, key in asked if "Go to Ground" in prompt]
    assert ground and set(ground) == {"no"}, asked


RELIC_FIELD = """
[[wh40k6.units]]
player = 1
unit = "warden_outriders"
models = [{ cell = [30, 30] }, { cell = [31, 30] }, { cell = [32, 30] }]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [20, 36] }, { cell = [21, 36] }, { cell = [22, 36] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [40, 8] }, { cell = [41, 8] }, { cell = [42, 8] }]
"""


def test_the_relic_is_left_to_a_unit_that_can_pick_it_up() -> None:
    """The Relic lies between the Wardens' bikes (no scoring unit: they cannot pick it
    up) and a squad. The bikes parked beside it and the Warlord on it, where the squads
    could not reach it (seed 5028 against easy); now they keep off it, and beside it is
    worth carrying it for a squad (its move ends there: it picks it up)."""
    halves = 'halves = ["north", "south"]\n'  # no side in the other's zone (Linebreaker)
    game = open_war(RELIC_FIELD, "Movement", 1, f"mission = 6\nrelic = [24, 32]\n{halves}")
    evaluation = game.ruleset.EVALUATION
    assert isinstance(evaluation, Wh40k6Evaluation)
    bikes = _move(game, "A1")
    assert min(distance(c, Cell(24, 32)) for c in bikes) > 1, bikes
    view = game.view()
    beside = [m for m in view.models if m.id == "A2.3"]
    assert evaluation.side_worth(view, 0) == 0
    moved = replace(
        view,
        models=(*[m for m in view.models if m.id != "A2.3"], replace(beside[0], cell=Cell(24, 33))),
    )
    assert evaluation.side_worth(moved, 0) == evaluation.vp_weight(view) * 3


def test_the_tank_does_not_park_on_the_relic() -> None:
    """The Bastion Tank 6" from the Relic on the ground: the quick worth draws it onto the
    nearest objective, and it parked on the Relic where the squad behind it would pick
    it up (seed 5028 against easy); normal keeps it off."""
    units = """
[[wh40k6.units]]
player = 1
unit = "bastion_tank"
models = [{ cell = [30, 30], facing = 270 }]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [20, 40] }, { cell = [21, 40] }, { cell = [22, 40] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [40, 8] }, { cell = [41, 8] }, { cell = [42, 8] }]
"""
    game = open_war(units, "Movement", 1, "mission = 6\nrelic = [25, 32]\n", round_=3)
    game.choose_key("A1")
    while game.pending is not None and game.pending.kind is not DecisionKind.PICK_CELL:
        game.choose(make_bot("normal", 3).decide(game))  # through difficult terrain?
    game.choose(make_bot("normal", 3).decide(game))
    tank = [m.cell for m in game.view().models if m.id.startswith("A1.") and m.cell]
    assert min(distance(c, Cell(25, 32)) for c in tank) > 1, tank


def test_purge_the_alien_counts_units_destroyed_not_only_models() -> None:
    """Purge the Alien scores 1 VP for each enemy unit destroyed (§4.2): the last two
    Raiders of a mob are worth more than two of a full one. The evaluation counted
    models alone; normal spread its shots and lost 1-4 on units to the random side
    (seed 5038)."""

    def worth(first: int, second: int) -> int:
        def mob(start: int, count: int) -> str:
            cells = ", ".join(f"{{ cell = [{x}, 14] }}" for x in range(start, start + count))
            return f'\n[[wh40k6.units]]\nplayer = 2\nunit = "horde_mob"\nmodels = [{cells}]\n'

        units = (
            """
[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [30, 40] }, { cell = [31, 40] }, { cell = [32, 40] }]
"""
            + (mob(20, first) if first else "")
            + mob(20 + first, second)
        )
        game = open_war(units, "Movement", 1, "mission = 2\n", round_=3)
        return game.ruleset.EVALUATION.score(game.view(), game.board, 0)

    assert worth(0, 8) > worth(2, 6)


def test_the_warlord_leaves_room_at_the_marker_for_a_squad() -> None:
    """The Emperor's Will: the Wardens' marker unheld, a squad 5" from it and the
    Lexicar 5" on its other side. The quick worth draws every model to the nearest
    marker: the Horde's Chieftain, walker and transport stood round its own marker, its
    mobs 4" away all game, and the marker scored nothing (seed 5049 against easy). The
    Lexicar, which cannot hold it, keeps out of its 3" while the squad comes."""
    units = """
[[wh40k6.units]]
player = 1
unit = "warden_lexicar"
warlord = true
models = [{ cell = [25, 30] }]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [15, 30] }, { cell = [14, 30] }, { cell = [13, 30] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [60, 8] }, { cell = [61, 8] }, { cell = [62, 8] }]
"""
    head = "mission = 5\nobjectives = [{ cell = [20, 30], value = 3 }]\n"
    game = open_war(units, "Movement", 1, head)
    cells = _move(game, "A1")
    assert min(distance(c, Cell(20, 30)) for c in cells) > 3, cells


def test_a_whole_mob_takes_its_marker() -> None:
    """A ten-model Horde mob 4" south of its 3 VP marker, the Wardens' far away. Each
    model of the mob on the marker saw it held by the other nine and drew toward the
    Wardens' marker 50" off: ten models' worth of distance outweighed the marker; the
    mob stood 4" from it all game (seed 5001 against easy, as the Horde), or here held
    it by one model alone, which one casualty would lose. The whole mob stands by it."""
    row = ", ".join(f"{{ cell = [{x}, {y}] }}" for y in (34, 35) for x in range(6, 11))
    units = f"""
[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{row}]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{{ cell = [60, 8] }}, {{ cell = [61, 8] }}, {{ cell = [62, 8] }}]
"""
    head = (
        "mission = 1\nobjectives = [{ cell = [8, 30], value = 3 }, "
        "{ cell = [58, 30], value = 3 }]\n"
    )
    cells = _move(open_war(units, "Movement", 2, head, round_=4), "B1")
    assert len(cells) == 10
    assert sum(distance(c, Cell(8, 30)) <= 3 for c in cells) >= 5, cells


def test_a_mob_gets_out_of_its_transport() -> None:
    """A Horde mob rides the Scrap Hauler 23" from its marker, the Wardens holding
    theirs. Embarked, its models stood nowhere and no distance counted against them:
    riding was worth more than walking, the Hauler drove on too fast for it to get out,
    and a mob rode all game where it can never hold a marker. The Hauler moves first, no
    more than 6" (§6.15), and the mob gets out."""
    units = """
[[wh40k6.units]]
player = 2
unit = "scrap_hauler"
models = [{ cell = [45, 30], facing = 270 }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
embarked_in = "B1"
models = [{}, {}, {}, {}, {}, {}]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [60, 8] }, { cell = [61, 8] }, { cell = [62, 8] }]
"""
    head = (
        "mission = 1\nobjectives = [{ cell = [22, 30], value = 3 }, "
        "{ cell = [62, 10], value = 3 }]\n"
    )
    game = open_war(units, "Movement", 2, head, round_=3)
    bot = make_bot("normal", 3)
    order = []
    while game.pending is not None and game.view().phase == "Movement":
        if game.pending.prompt == "Which unit moves next?":
            order.append(bot.decide(game).key)
        game.choose(bot.decide(game))
    assert order[:2] == ["B1", "B2"]
    hauler = game.view().model("B1.1")
    assert hauler is not None and hauler.cell is not None
    assert distance(hauler.cell, Cell(45, 30)) <= 6, hauler.cell
    mob = [m for m in game.view().models if m.id.startswith("B2.") and not m.removed]
    assert mob and all(m.cell is not None for m in mob), mob


def test_behind_late_a_mob_keeps_the_marker_it_holds() -> None:
    """Turn 6, the Horde behind: its mob holds a 3 VP marker, the Wardens hold two 3 VP
    markers 40" away. Drawn toward the Wardens' markers, the mob left its own in the
    last turns, reached nothing, and the game was lost 5-9 (seed 5001 against easy)."""
    row = ", ".join(f"{{ cell = [{x}, {y}] }}" for y in (28, 29) for x in range(10, 15))
    units = f"""
[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{row}]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{{ cell = [52, 30] }}, {{ cell = [53, 30] }}, {{ cell = [54, 30] }}]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{{ cell = [52, 10] }}, {{ cell = [53, 10] }}, {{ cell = [54, 10] }}]
"""
    head = (
        "mission = 1\nobjectives = [{ cell = [8, 30], value = 3 }, "
        "{ cell = [53, 32], value = 3 }, { cell = [53, 12], value = 3 }]\n"
    )
    cells = _move(open_war(units, "Movement", 2, head, round_=6), "B1")
    assert sum(distance(c, Cell(8, 30)) <= 3 for c in cells) >= 5, cells


def test_deploying_first_with_no_marker_goes_toward_the_enemy_zone() -> None:
    """Purge the Alien (no marker), Dawn of War, the Wardens deploy first: nothing on the
    table to draw toward, every unit went to the first cell offered, the corner (0,0) of
    the zone, and spent two turns walking out (seeds 3 and 5 against easy). Normal now
    deploys toward the middle of the other side's zone (y 36 and up: its front edge)."""
    scenario = load_scenario(SCENARIOS / "wh40k6-open-war.toml")
    game = Game(scenario, 5)
    bots = (make_bot("normal", 5), make_bot("easy", 5 + 7919))
    while game.pending is not None and not game.pending.prompt.startswith("Deploy A1.1"):
        game.choose(bots[game.pending.player].decide(game))
    assert "Purge the Alien" in " ".join(e.text for e in game.events)
    game.choose(bots[0].decide(game))
    lexicar = game.view().model("A1.1")
    assert lexicar is not None and lexicar.cell is not None
    assert distance(lexicar.cell, Cell(36, 41)) < 36, lexicar.cell


def test_a_model_in_the_other_sides_zone_counts_for_linebreaker() -> None:
    """Linebreaker scores 1 VP at the end for a unit in the other side's deployment zone
    (§4.2); the view tints the zones only while setting up, so the evaluation reads them
    from its areas. A Warden Ranger inside the Horde's zone in turn 5 is worth the VP
    (`vp_weight`) more than one a step outside it; one falling back scores nothing."""
    units = """
[[wh40k6.units]]
player = 1
unit = "warden_rangers"
models = [{ cell = [30, 24] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [60, 24] }, { cell = [61, 24] }, { cell = [62, 24] }]
"""
    game = open_war(units, "Movement", 1, "mission = 2\n", round_=5)
    view = game.view()
    assert view.zones == ()  # nothing tinted in the battle
    zones = dict(view.areas)
    horde = zones["Rustbound Horde deployment zone"]
    inside = min(horde, key=lambda c: distance(c, Cell(30, 24)))
    outside = Cell(inside.x, inside.y + (1 if inside.y < 24 else -1))
    assert outside not in horde
    evaluation = game.ruleset.EVALUATION
    assert isinstance(evaluation, Wh40k6Evaluation)

    def worth(cell: Cell, *states: str) -> int:
        models = tuple(
            replace(m, cell=cell, states=m.states + states) if m.id == "A1.1" else m
            for m in view.models
        )
        return evaluation.score(replace(view, models=models), game.board, 0)

    gain = worth(inside) - worth(outside)
    assert gain >= evaluation.vp_weight(view) - 2 * evaluation.approach_weight
    assert worth(inside, "falling back") - worth(outside, "falling back") < gain // 2
