"""The Damage phase, destruction, explosions and succession (digest §6.12-§6.14, §9)."""

from __future__ import annotations

from engine.rulesets.apocalypse.assets import draw_assets
from engine.rulesets.apocalypse.damage import damage_phase, resolve_blasts
from engine.rulesets.apocalypse.destruction import add_damage, destroy_unit
from engine.rulesets.apocalypse.state import DESTROYED, EMBARKED, RESERVE, Unit
from engine.rulesets.apocalypse.transports import board
from engine.rulesets.apocalypse.turn import end_of_turn
from tests.rulesets.apocalypse.table import Table, first, sheet


def test_an_impossible_save_rolls_no_die() -> None:
    """Digest §9 E2: Sv 7+, one large blast: no die, the save fails, +1 damage."""
    t = Table(dice=[(2, "morale")])
    unit = t.add(1, sheet("horde_brute_mob", save=7), (5, 5))
    unit.blast_large = 1
    destroyed = t.run(resolve_blasts(t.state, t.ctx, unit))
    assert not destroyed
    assert unit.damage == 1
    assert [r.reason for r in t.dice.rolls] == [f"morale test: {unit.name}"]
    assert t.find("SaveFailed")[0].get("rolled") is False


def test_death_is_checked_after_each_marker() -> None:
    """Digest §9 E7: W 2, damage 1, two large blasts: the first fails, no more rolls."""
    t = Table(dice=[(3, "large blast save")])
    unit = t.add(0, sheet("legion_line_squad"), (5, 5))
    unit.damage = 1
    unit.blast_large = 2
    assert t.run(resolve_blasts(t.state, t.ctx, unit))
    assert unit.location == DESTROYED
    assert t.dice.unused == 0
    assert "MoralePassed" not in t.kinds() and "MoraleFailed" not in t.kinds()


def test_full_damage_resolution() -> None:
    """Digest §9 D4: large D6 4 fails, small D12 9 passes, morale 6 + 2 > 7: critical."""
    t = Table(dice=[(4, "large"), (9, "small"), (6, "morale")])
    unit = t.add(1, sheet("horde_brute_mob", wounds=3, save=6, leadership=7), (5, 5))
    unit.blast_large = unit.blast_small = 1
    t.run(resolve_blasts(t.state, t.ctx, unit))
    assert unit.damage == 2 and unit.critical
    assert unit.blasts == 0


def test_a_natural_one_always_passes_morale() -> None:
    """Digest §9 D5: Ld 6 with 5 blast markers: a 1 passes, a 2 fails."""
    for face, damage in ((1, 0), (2, 1)):
        t = Table(dice=[2, 2, 2, 2, 2, (face, "morale")])
        unit = t.add(1, sheet("horde_brute_mob", save=2, leadership=6), (5, 5))
        unit.blast_large, unit.blast_small = 4, 1
        t.run(resolve_blasts(t.state, t.ctx, unit))
        assert unit.damage == damage


def test_morale_is_taken_even_when_every_save_passes() -> None:
    """Digest §9 D6: Sv 2+, Ld 7, saves 5 and 4 pass; morale 6 + 2 = 8 > 7: +1 damage."""
    t = Table(dice=[(5, "large"), (4, "small"), (6, "morale")])
    unit = t.add(0, sheet("legion_battle_tank", save=2, leadership=7), (5, 5))
    unit.blast_large = unit.blast_small = 1
    t.run(resolve_blasts(t.state, t.ctx, unit))
    assert unit.damage == 1


def test_critical_damage_thresholds() -> None:
    """Digest §6.14 step 3 and §9 D7: W 4 is critical at its 3rd damage marker."""
    for wounds, at in ((3, 2), (4, 3), (5, 3), (6, 4), (7, 4)):
        t = Table()
        unit = t.add(0, sheet("legion_battle_tank", wounds=wounds), (5, 5))
        for n in range(1, at + 1):
            t.run(add_damage(t.state, t.ctx, unit, "test"))
            assert unit.critical == (n == at)


def _explosion_table(face: int) -> tuple[Table, dict[str, Unit]]:
    t = Table(dice=[(face, "explosion")])
    colossus = t.add(0, "legion_colossus", (10, 10))  # cells 10-12
    friend = t.add(0, "legion_line_squad", (14, 10))  # 2" away, no markers
    tank = t.add(1, "horde_scrap_walker", (10, 14))  # 2" away, one small blast
    tank.blast_small = 1
    enemy_sh = t.add(1, "horde_scrap_colossus", (10, 4))  # 4" away
    carrier = t.add(0, "legion_carrier", (17, 13))
    inside = t.add(0, "legion_line_squad", None, location=EMBARKED)
    board(t.state, inside, carrier)
    far = t.add(1, "horde_brute_mob", (20, 10))  # 20 - 12 = 8 > 6
    units = {"friend": friend, "tank": tank, "sh": enemy_sh, "inside": inside, "far": far}
    t.run(destroy_unit(t.state, t.ctx, colossus, "test"))
    return t, units


def test_a_super_heavy_explodes_on_ten_plus() -> None:
    """Digest §9 D8: blast markers within 6" except on SH, embarked and farther units."""
    t, u = _explosion_table(10)
    assert "Exploded" in t.kinds()
    marks = {k: (v.blast_small, v.blast_large) for k, v in u.items()}
    assert marks == {
        "friend": (1, 0),
        "tank": (0, 1),
        "sh": (0, 0),
        "inside": (0, 0),
        "far": (0, 0),
    }
    sizes = {e.get("unit"): e.get("size") for e in t.find("BlastMarked")}
    assert (sizes[u["friend"].uid], sizes[u["tank"].uid]) == ("small", "large")


def test_a_super_heavy_does_not_explode_on_nine() -> None:
    """Digest §9 D8: D12 = 9: no explosion."""
    t, u = _explosion_table(9)
    assert "ExplosionAverted" in t.kinds()
    assert u["friend"].blasts == 0


def _transport_table(wreck_face: int) -> tuple[Table, Unit, Unit]:
    dice = [(2, "large blast save"), (wreck_face, "wreck")]
    if wreck_face == 1:
        dice += [(8, "small blast save"), (3, "morale")]
    t = Table(dice=dice)
    carrier = t.add(0, "legion_carrier", (10, 10))
    carrier.damage = 2
    carrier.blast_large = 1
    squad = t.add(0, "legion_line_squad", None, det=t.state.detachments["A-D1"], location=EMBARKED)
    board(t.state, squad, carrier)
    t.run(damage_phase(t.state, t.ctx), [first])
    return t, carrier, squad


def test_passengers_of_a_destroyed_transport_get_out_and_may_be_hurt() -> None:
    """Digest §9 D11: placed within 6"; D6 1: a small blast, resolved later this phase."""
    t, carrier, squad = _transport_table(1)
    assert carrier.location == DESTROYED
    assert squad.on_battlefield
    assert t.decisions[0].prompt.endswith("where does " + squad.name + " get out?")
    saved = [e for e in t.find("SavePassed") if e.get("unit") == squad.uid]
    assert saved and squad.blasts == 0
    assert t.dice.unused == 0


def test_passengers_unhurt_on_a_four() -> None:
    """Digest §9 D11: D6 = 4: no marker, nothing more to resolve."""
    t, _, squad = _transport_table(4)
    assert squad.blasts == 0
    assert t.dice.unused == 0


def test_command_succession_tie_is_the_owners_choice() -> None:
    """Digest §9 D12: three Ld 8 survivors (one embarked) tie; the new Commander is no
    Warlord, so the player draws one asset fewer."""
    t = Table()
    det = t.detachment(0, "Cohort")
    captain = t.add(0, "legion_captain", (5, 5), det=det, commander=True, warlord=True)
    alpha = t.add(0, "legion_line_squad", (8, 5), det=det)
    carrier = t.add(0, "legion_carrier", (12, 5), det=det)
    beta = t.add(0, "legion_line_squad", None, det=det, location=EMBARKED)
    board(t.state, beta, carrier)
    t.run(destroy_unit(t.state, t.ctx, captain, "test"), [beta.uid])
    choice = t.decisions[0]
    assert set(choice.keys()) == {alpha.uid, beta.uid, carrier.uid}
    assert beta.is_commander and not beta.is_warlord
    deck = t.state.side(0).deck
    deck.draw_pile.extend(f"fortitude#{n}" for n in range(1, 6))
    draw_assets(t.state, t.ctx)
    assert len(deck.hand) == 1


def test_damage_phase_order() -> None:
    """Digest §9 D14: SH first (A's Colossus explodes onto B's gunners), then B, A, B, B."""
    t = Table(
        dice=[
            (2, "large blast save: Legion Colossus"),
            (11, "explosion"),
            (9, "small blast save: mob"),
            (1, "morale test: mob"),
            (7, "small blast save: squad"),
            (1, "morale test: squad"),
            (6, "small blast save: walker"),
            (1, "morale test: walker"),
            (9, "small blast save: gunners"),
            (1, "morale test: gunners"),
        ]
    )
    t.state.initiative = 1
    colossus = t.add(0, "legion_colossus", (10, 10), name="Legion Colossus")
    colossus.damage, colossus.blast_large = 5, 1
    squad = t.add(0, "legion_line_squad", (2, 25), name="squad")
    mob = t.add(1, "horde_brute_mob", (30, 20), name="mob")
    walker = t.add(1, "horde_scrap_walker", (30, 25), name="walker")
    gunners = t.add(1, "horde_scrap_gunners", (17, 10), name="gunners")  # 5" from the Colossus
    for unit in (squad, mob, walker):
        unit.blast_small = 1
    t.run(damage_phase(t.state, t.ctx), [mob.uid, walker.uid])
    resolved = [e.get("unit") for e in t.find("SavePassed")]
    assert resolved == [mob.uid, squad.uid, walker.uid, gunners.uid]
    assert t.dice.unused == 0


def test_deserters_die_in_the_damage_phase_without_saves() -> None:
    """Digest §9 D9: a marked unit still out of command is destroyed; no dice."""
    t = Table()
    t.add(0, "legion_captain", (0, 0))
    lost = t.add(0, "legion_line_squad", (20, 0), det=t.state.detachments["A-D1"])
    lost.deserter = True
    lost.blast_small = 1
    t.run(damage_phase(t.state, t.ctx))
    assert lost.location == DESTROYED
    assert not t.dice.rolls


def test_units_still_in_reserve_after_turn_four_are_destroyed() -> None:
    """Digest §9 D17: destroyed at the end of turn 4; a whole detachment: +2 VP (§4.4)."""
    t = Table()
    t.state.turn = 4
    late = t.add(1, "horde_sky_raiders", None, location=RESERVE)
    t.add(0, "legion_line_squad", (5, 5))
    t.run(end_of_turn(t.state, t.ctx))
    assert late.location == DESTROYED
    assert t.state.detachment_of(late).destroyed
    assert t.state.side(0).vp == 2
    assert "Exploded" not in t.kinds()
