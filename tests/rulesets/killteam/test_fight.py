"""Fight phase: eligibility, targets, attacks, stratagems (digest killteam §6.6, §8.1, §9 D16)."""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Decision, DecisionKind
from engine.rulesets.killteam.fight import can_fight, fight_phase
from engine.rulesets.killteam.melee import (
    attack_count,
    fight_sequence,
    fight_targets,
    hit_modifier,
    strength,
)
from engine.rulesets.killteam.state import Model
from tests.driver import Answer
from tests.rulesets.killteam.table import Table, no


def _charge(charger: Model, *targets: Model) -> None:
    """Record a successful charge, as the Movement phase leaves it (§6.3.6 step 5)."""
    charger.charge_declared = charger.charge_successful = True
    charger.charge_targets = {t.id for t in targets}
    for t in targets:
        t.charged_by.add(charger.id)


def stay(decision: Decision) -> str:
    """Answer a Pile In / Consolidate question by staying put (the first option)."""
    assert decision.kind is DecisionKind.PICK_CELL
    return decision.keys()[0]


def test_d16_zealot_stratagem_extra_attacks() -> None:
    """D16: Zealot (A2, S4) that charged, Zealot stratagem, cleaver: hits 6, 6, 3.

    3 attacks at S5; the two 6s give 2 extra attacks whose own 6s give nothing more.
    S5 against T4 wounds on 3+ (S4 would need 4+).
    """
    hits: list[int | tuple[int, str]] = [6, 6, 3, (6, "hit"), (6, "hit")]
    # The cleaver's AP -1 leaves the brute's Sv 6+ needing 7+: no save dice are rolled.
    rest: list[int | tuple[int, str]] = [(3, "wound") for _ in range(5)]
    t = Table(dice=[*hits, *rest, (4, "injury")], factions=("reavers", "reavers"))
    t.state.team(0).cp = 1
    zealot = t.add(0, "brute", (5, 5), specialism="Zealot")
    target = t.add(1, "brute", (6, 5))
    t.add(1, "brute", (15, 11))
    _charge(zealot, target)
    assert attack_count(zealot) == 3 and strength(zealot) == 5
    t.run(fight_sequence(t.state, t.ctx, zealot), [stay, "0", "yes", stay])
    declared = t.find("AttacksDeclared")[0]
    assert declared.get("attacks") == 3 and declared.get("strength") == 5
    assert t.find("ExtraAttacks")[0].get("count") == 2
    assert t.find("WoundsRolled")[0].get("successes") == 5
    assert target.out_of_action
    assert t.dice.unused == 0


def test_charger_may_not_attack_an_enemy_it_did_not_declare() -> None:
    """§6.6.2 step 2, §10 A18: declared targets, or enemies that declared it, only."""
    t = Table()
    sergeant = t.add(0, "sergeant", (5, 5))
    declared = t.add(1, "brute", (6, 5))
    bystander = t.add(1, "brute", (5, 6))
    charged_me = t.add(1, "brute", (4, 4))
    _charge(sergeant, declared)
    charged_me.charge_declared = True  # a failed charge that named the sergeant
    charged_me.charge_targets = {sergeant.id}
    assert fight_targets(t.state, sergeant) == [declared, charged_me]
    assert fight_targets(t.state, bystander) == [sergeant]


def test_no_valid_target_ends_the_fight_without_consolidate() -> None:
    """§6.6.2 step 2: a charger next only to an undeclared enemy makes no attack."""
    t = Table()
    sergeant = t.add(0, "sergeant", (5, 5))
    declared = t.add(1, "brute", (12, 5))
    t.add(1, "brute", (6, 5))
    _charge(sergeant, declared)
    t.run(fight_sequence(t.state, t.ctx, sergeant), [stay])
    assert "FightEnded" in t.kinds() and "AttacksDeclared" not in t.kinds()
    assert len(t.decisions) == 1 and sergeant.has_fought


def test_shaken_model_cannot_fight() -> None:
    """§6.6.1, §10 A40: a shaken model is not eligible; its side fights with no one."""
    t = Table()
    a = t.add(0, "trooper", (5, 5))
    b = t.add(1, "brute", (6, 5))
    a.shaken = True
    assert not can_fight(t.state, a) and can_fight(t.state, b)
    t.run(fight_phase(t.state, t.ctx), ["pass"])  # B1, the only one left, is not picked
    assert "FightStarted" not in t.kinds()
    assert (1, "Fight for Your Lives: B1 Reaver Brute is your only model left to act.") in (
        t.ctx.notes
    )


def test_eligibility_charge_and_engagement() -> None:
    """§6.6.1: charged, was charged (even far away), or within 1"; not twice."""
    t = Table()
    far = t.add(0, "trooper", (0, 0))
    close = t.add(0, "trooper", (8, 8))
    t.add(1, "brute", (9, 8))
    lonely = t.add(1, "brute", (15, 0))
    assert not can_fight(t.state, far) and can_fight(t.state, close)
    assert not can_fight(t.state, lonely)
    lonely.charged_by.add("A9")
    assert can_fight(t.state, lonely)
    close.has_fought = True
    assert not can_fight(t.state, close)


def test_hammer_of_wrath_before_fight_for_your_lives() -> None:
    """§6.6.1: the charger fights first even when the other player has the initiative."""
    t = Table(dice=[(1, "hit")] * 3)
    t.state.initiative = 1
    charger = t.add(0, "trooper", (5, 5))
    target = t.add(1, "brute", (6, 5))
    _charge(charger, target)
    answers: list[Answer] = ["fight", stay, stay, "fight", stay, "0", stay]  # lone models
    t.run(fight_phase(t.state, t.ctx), answers)
    fought = [e.get("model") for e in t.find("FightStarted")]
    assert fought == ["A1", "B1"]
    assert t.dice.unused == 0


def test_leader_stratagem_extra_fight_then_opponent() -> None:
    """§8.1 Leader, §10 A36: after the Leader fights, a friend within 3" fights at once;
    then the alternation resumes with the opponent."""
    t = Table(dice=[(1, "hit"), (1, "hit"), (1, "hit")])
    t.state.team(0).cp = 1
    t.add(0, "sergeant", (5, 5), specialism="Leader")
    t.add(0, "trooper", (5, 6))
    t.add(0, "trooper", (7, 4))
    t.add(1, "brute", (6, 5))
    answers: list[Answer] = [
        "A1",
        "fight",
        stay,
        "1",  # Leader, improvised attack
        no,  # Command Re-roll offer of a hit die
        stay,
        "A2",  # Consolidate, then the Leader stratagem sends in A2
        stay,
        stay,  # A2 piles in and consolidates
        "pass",  # the opponent's turn: B1, its only model, is asked at once
        "pass",  # A3, the last of player 1's, likewise
    ]
    t.run(fight_phase(t.state, t.ctx), answers)
    assert [e.get("model") for e in t.find("FightStarted")] == ["A1", "A2"]
    pass_b = next(d for d in t.decisions if d.prompt.startswith("B1 Reaver Brute: fight now"))
    assert pass_b.player == 1
    assert t.state.team(0).cp == 0
    assert t.find("StratagemUsed")[0].get("stratagem") == "Leader stratagem"


def test_combat_stratagem_after_any_own_fight() -> None:
    """§8.1 Combat: after a friend fought, the Combat specialist fights at once (+1 A)."""
    t = Table(dice=[(1, "hit")] * 4)
    t.state.team(0).cp = 1
    t.add(0, "trooper", (5, 5))
    combat = t.add(0, "sergeant", (7, 4), specialism="Combat")
    t.add(1, "brute", (6, 5))
    assert attack_count(combat) == 3
    answers: list[Answer] = ["A1", "fight", stay, no, stay, "yes", stay, "1", stay, "pass"]
    t.run(fight_phase(t.state, t.ctx), answers)
    assert [e.get("model") for e in t.find("FightStarted")] == ["A1", "A2"]
    assert t.find("AttacksDeclared")[1].get("attacks") == 3


def test_chain_blade_adds_an_attack_with_it() -> None:
    """§12.1 chain blade: +1 attack when the bearer fights with it."""
    t = Table(dice=[(1, "hit")] * 3)
    sergeant = t.add(0, "sergeant", (5, 5))
    t.add(1, "brute", (6, 5))
    t.run(fight_sequence(t.state, t.ctx, sergeant), [stay, "0", stay])
    assert t.find("AttacksDeclared")[0].get("attacks") == 3


def test_split_attacks_one_at_a_time_with_a_weapon_per_target() -> None:
    """§6.6.2 steps 3-4, §10 A37: attacks split one by one, a weapon declared per target."""
    t = Table(dice=[(1, "vs B2"), (1, "vs B1")])
    boss = t.add(0, "sergeant", (5, 5), options=["shock_axe"])
    b1 = t.add(1, "brute", (6, 5))
    b2 = t.add(1, "brute", (5, 6))
    answers: list[Answer] = [stay, b2.id, b1.id, "1", "0", stay]
    t.run(fight_sequence(t.state, t.ctx, boss), answers)
    allocs = [d for d in t.decisions if d.kind is DecisionKind.ALLOCATE]
    assert len(allocs) == 2
    declared = t.find("AttacksDeclared")
    assert [(e.get("target"), e.get("weapon"), e.get("attacks")) for e in declared] == [
        ("B2", "improvised", 1),
        ("B1", "shock_axe", 1),
    ]
    assert t.dice.unused == 0


def test_melee_hit_modifiers() -> None:
    """§6.6.2 step 5: flesh wounds, broken, terrain between, crusher claw -1 each."""
    rows = ["." * 16] * 6 + [".....o.........."] + ["." * 16] * 5
    t = Table(rows=rows, factions=("reavers", "militia"))
    boss = t.add(0, "boss", (5, 4), options=["crusher_claw"])
    enemy = t.add(1, "trooper", (6, 4))
    claw = next(w for w in boss.weapons if w.id == "crusher_claw").profiles[0]
    assert hit_modifier(t.state, boss, enemy, claw) == -1
    boss.flesh_wounds = 2
    t.state.team(0).broken = True
    boss.cell = Cell(5, 5)  # now on the low barricade
    assert hit_modifier(t.state, boss, enemy, claw) == -5


def test_fury_and_injection_bonuses() -> None:
    """§8.1 Medic injection +1 A; §12.2 Fury +1 S +1 A."""
    t = Table(factions=("reavers", "militia"))
    brute = t.add(0, "brute", (5, 5))
    brute.injected = brute.fury = True
    assert attack_count(brute) == 4 and strength(brute) == 5
