"""Shooting, misfires, camouflage and ambush (digest fatigue §6.10, §6.29, §6.30; §9 D14)."""

from __future__ import annotations

from engine.board import Cell
from engine.events import Event
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.activation import activate
from engine.rulesets.fatigue.aftermath import panic_triggers
from engine.rulesets.fatigue.profiles import Modules
from engine.rulesets.fatigue.scrums import start_scrum
from engine.rulesets.fatigue.shooting import shoot_targets, shooters
from tests.rulesets.fatigue.table import Table


def longgun_table(dice: list[int | tuple[int, str]], modules: Modules | None = None) -> Table:
    table = Table(dice=dice, modules=modules)
    table.add(0, "Relic Longguns", [(2, 1)])
    table.add(1, "Road Spears", [(2, 9), (3, 9)], faction="ASHFANG")
    table.state.side(0).fp = 3
    return table


def test_blowback_takes_the_firer_out_and_destroys_the_gun() -> None:
    """Digest fatigue §9 D14: natural 1, misfire 1: 1 damage (R1: out), weapon destroyed."""
    table = longgun_table([(1, "shooting to-hit"), (1, "misfire")])
    gunner = table.state.units[1].models[0]
    table.run(activate(table.state, table.ctx, table.state.units[1]), ["SHOOT"])
    assert gunner.weapon_destroyed
    assert gunner.out_of_action
    assert table.state.units[2].lost_to_shooting == 0


def test_jam_lasts_this_round_and_the_next() -> None:
    """Digest fatigue §9 D14: a misfire of 3 jams the weapon this round and the next."""
    table = longgun_table([(1, "shooting to-hit"), (3, "misfire")])
    state = table.state
    longguns = state.units[1]
    table.run(activate(state, table.ctx, longguns), ["SHOOT"])
    gunner = longguns.models[0]
    assert not gunner.can_fire(1) and not gunner.can_fire(2) and gunner.can_fire(3)
    assert shoot_targets(state, longguns) == []
    state.round = 3
    assert shoot_targets(state, longguns) == [state.units[2]]


def test_misfires_module_off() -> None:
    """§12.4 ADV_MISFIRES: switched off, a natural 1 is only a miss."""
    table = longgun_table([(1, "shooting to-hit")], Modules(misfires=False))
    table.run(activate(table.state, table.ctx, table.state.units[1]), ["SHOOT"])
    assert not table.find("WeaponMisfired")


def test_shot_kills_count_for_the_panic_threshold() -> None:
    """§6.10 step 6: models removed by shooting count toward 'shot up' (D8)."""
    table = longgun_table([(6, "shooting to-hit")])
    table.run(activate(table.state, table.ctx, table.state.units[1]), ["SHOOT", "B2"])
    spears = table.state.units[2]
    assert spears.lost_to_shooting == 1
    assert panic_triggers(table.state, spears) == []  # 1 of 2 is not more than half


def test_camouflaged_units_are_hidden_beyond_three_steps() -> None:
    """§6.30 (FILL-IN): no shooting or attacking a camouflaged unit beyond 3 steps."""
    table = Table()
    state = table.state
    captain = table.add(1, "Warden-Captain", [(2, 8)])
    longguns = table.add(0, "Relic Longguns", [(2, 2)])
    longguns.camouflaged = True
    assert shoot_targets(state, captain) == []
    captain.models[0].cell = Cell(2, 5)
    assert shoot_targets(state, captain) == [longguns]


def test_shooting_from_hiding_ambushes_and_reveals() -> None:
    """§6.30 item 4 (SEED trigger): the target is AMBUSHED and must take a panic test."""
    table = longgun_table([(2, "shooting to-hit")])
    longguns = table.state.units[1]
    longguns.camouflaged = True
    table.run(activate(table.state, table.ctx, longguns), ["SHOOT"])
    spears = table.state.units[2]
    assert spears.ambushed and not longguns.camouflaged
    assert panic_triggers(table.state, spears) == ["ambushed"]


def test_no_shooting_into_a_scrum_and_walls_block_sight() -> None:
    """§6.10 step 2 (PROPOSED) and §11.3: engaged targets and walls stop the shot."""
    rows = ["." * 8] * 4 + ["..###..."] + ["." * 8] * 4
    table = Table(rows=rows)
    state, ctx = table.state, table.ctx
    longguns = table.add(0, "Relic Longguns", [(3, 1)])
    spears = table.add(1, "Road Spears", [(3, 7)])
    assert shoot_targets(state, longguns) == []
    spears.models[0].cell = Cell(7, 7)
    assert shooters(state, longguns, spears)
    captain = table.add(0, "Warden-Captain", [(7, 6)])
    start_scrum(state, ctx, captain, spears)
    assert shoot_targets(state, longguns) == []


def test_obscured_target_in_rubble() -> None:
    """§11.3 (FILL-IN): a target standing in difficult ground is obscured: -1."""
    rows = ["." * 8] * 2 + ["..~~...."] + ["." * 8] * 6
    table = Table(dice=[(4, "shooting to-hit")], rows=rows)
    longguns = table.add(0, "Relic Longguns", [(2, 1)])
    table.add(1, "Road Spears", [(2, 6)])
    table.state.side(0).fp = 1
    table.run(activate(table.state, table.ctx, longguns), ["SHOOT"])
    assert table.find("ShotsResolved")[0].get("modifier") == -1


def test_shooters_skip_only_models_with_no_target_in_range() -> None:
    """§6.10 step 3: a model no target model is in range of is left out before any sight
    line is traced; every other model is judged as before (the nearest visible target
    model in range), at every decision of bot games on both shipped scenarios."""
    from engine.bot import RandomBot
    from engine.game import Game
    from engine.rulesets.fatigue.geometry import dist, has_los
    from engine.scenario import SHIPPED_SCENARIOS, load_scenario

    asked = shooting = 0
    for name, seed in (("fatigue-crossroads", 1), ("fatigue-broken-span", 2)):
        game, bot = Game(load_scenario(SHIPPED_SCENARIOS / f"{name}.toml"), seed), RandomBot(seed)
        state = game.ruleset.state  # type: ignore[attr-defined]
        while game.pending is not None:
            for unit in state.units_in_order():
                for target in state.units_in_order():
                    if target.player == unit.player:
                        continue
                    want = []
                    for model in unit.alive():
                        if model.cell is None or not model.can_fire(state.round):
                            continue
                        seen = [c for c in target.cells() if has_los(state, model.cell, c)]
                        near = min((dist(state, model.cell, c) for c in seen), default=None)
                        if near is not None and near <= model.profile.ranged.range:
                            want.append((model, seen))
                    assert shooters(state, unit, target) == want
                    asked += 1
                    shooting += bool(want)
            game.choose(bot.choose(game.pending))
    assert asked > 1000 and shooting > 20


def shot_from_hiding(
    cells: list[tuple[int, int]], answers: tuple[str, ...] = ()
) -> tuple[Table, list[tuple[str, int]]]:
    """Camouflaged Relic Longguns shoot Road Spears at ``cells`` with a 6 to hit; each
    event told, with the number of rolls made before it."""
    table = Table(dice=[(6, "shooting to-hit")])
    said: list[tuple[str, int]] = []

    def sink(event: Event) -> None:
        table.events.append(event)
        said.append((event.kind, len(table.dice.rolls)))

    table.ctx = RuleContext(table.dice, sink)
    longguns = table.add(0, "Relic Longguns", [(2, 1)])
    table.add(1, "Road Spears", cells, faction="ASHFANG")
    table.state.side(0).fp = 3
    longguns.camouflaged = True
    table.run(activate(table.state, table.ctx, longguns), ["SHOOT", *answers])
    return table, said


def test_a_shot_from_hiding_is_told_in_the_order_of_the_rules() -> None:
    """§6.10 steps 4-7: who shoots whom before the to-hit dice, the hits after them, the
    losses (step 6), then the ambush and the reveal (step 7). The playtest's log had the
    dice first with no word of the target, and later the ambush before the to-hit dice."""
    table, said = shot_from_hiding([(2, 9), (3, 9)], ("B1",))
    assert said == [
        ("UnitActivated", 0),
        ("ShotDeclared", 0),
        ("ShotsResolved", 1),  # after the one to-hit die
        ("ModelWounded", 1),
        ("ModelOutOfAction", 1),
        ("UnitAmbushed", 1),
        ("UnitRevealed", 1),
    ]
    assert table.find("UnitAmbushed")[0].text == "Road Spears are ambushed by Relic Longguns"


def test_a_shot_from_hiding_that_destroys_its_target_tells_no_ambush() -> None:
    """A destroyed unit takes no panic test: "ambushed by Relic Longguns" after "is
    destroyed" told of nothing to come."""
    table, said = shot_from_hiding([(2, 9)])
    assert said == [
        ("UnitActivated", 0),
        ("ShotDeclared", 0),
        ("ShotsResolved", 1),
        ("ModelWounded", 1),
        ("ModelOutOfAction", 1),
        ("UnitDestroyed", 1),
        ("UnitRevealed", 1),
    ]
    declared = table.find("ShotDeclared")[0].text
    assert declared.startswith("Relic Longguns shoot Road Spears at ") and "1 die" in declared
    assert table.find("ShotsResolved")[0].text == "Relic Longguns score 1 hit on Road Spears"
