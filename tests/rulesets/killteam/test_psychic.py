"""The Psychic phase: digest killteam §6.4, §6.7 and §9 examples with scripted dice."""

from __future__ import annotations

from engine.decisions import DecisionKind
from engine.rulesets.killteam.attacks import AttackGroup, AttackSpec, resolve_attacks
from engine.rulesets.killteam.profiles import POWERS, load_factions
from engine.rulesets.killteam.psychic import cast_power, psychic_phase
from tests.rulesets.killteam.table import Table

PSYBOLT = POWERS["psybolt"]
Die = int | tuple[int, str]


def test_s16_psybolt_test_of_4_fails() -> None:
    """S16: Psybolt (difficulty 5) with 3+1 = 4 fails."""
    t = Table(dice=[3, 1])
    t.add(0, "seer", (0, 0))
    brute = t.add(1, "brute", (0, 5))
    t.run(psychic_phase(t.state, t.ctx), ["A1", "psybolt"])
    assert "PowerFailed" in t.kinds() and "MortalWounds" not in t.kinds()
    assert brute.wounds == 1 and t.state.team(0).psyker_cast
    assert t.dice.unused == 0


def test_s17_psybolt_of_11_inflicts_d3_mortal_wounds() -> None:
    """S17: 5+6 = 11: the closest visible enemy within 18" suffers D3 mortal wounds."""
    t = Table(dice=[5, 6, (5, "Psybolt"), (1, "injury"), 1, 1])
    t.add(0, "seer", (0, 0))
    near = t.add(1, "brute", (0, 5))
    far = t.add(1, "brute", (0, 9))
    t.run(psychic_phase(t.state, t.ctx), ["A1", "psybolt"])
    assert t.find("MortalWounds")[0].get("amount") == 3
    assert [r.dice for r in t.dice.rolls if "injury" in r.reason] == ["3D6"]
    assert near.flesh_wounds == 1 and far.wounds == 1
    assert t.dice.unused == 0


def test_s18_twelve_succeeds_and_perils() -> None:
    """S18: 6+6 = 12: Perils (D3 MW to the caster) first, then D3 MW to the target (A8)."""
    dice: list[Die] = [6, 6, (1, "Perils"), (1, "injury roll of A1")]
    dice += [(2, "Psybolt"), (1, "injury roll of B1")]
    t = Table(dice=dice)
    seer = t.add(0, "seer", (0, 0))
    brute = t.add(1, "brute", (0, 5))
    t.run(psychic_phase(t.state, t.ctx), ["A1", "psybolt"])
    assert "PerilsSuffered" in t.kinds() and "PowerManifested" in t.kinds()
    assert seer.flesh_wounds == 1 and not seer.out_of_action
    assert brute.flesh_wounds == 1
    injury_rollers = [r.player for r in t.dice.rolls if "injury" in r.reason]
    assert injury_rollers == [1, 0]  # Perils: the opponent rolls (§6.7 item 3)
    assert t.dice.unused == 0


def test_s19_double_one_fails_with_perils() -> None:
    """S19: 1+1 = 2 fails, and the caster suffers D3 mortal wounds."""
    t = Table(dice=[1, 1, (2, "Perils"), (3, "injury")])
    seer = t.add(0, "seer", (0, 0))
    t.add(1, "brute", (0, 5))
    t.run(psychic_phase(t.state, t.ctx), ["A1", "psybolt"])
    assert t.kinds().index("PerilsSuffered") < t.kinds().index("PowerFailed")
    assert seer.flesh_wounds == 1
    assert t.dice.unused == 0


def test_d14_perils_slays_the_psyker_and_explodes() -> None:
    """D14: Perils 2 MW, injury 5, 1: out of action; power fails; D3 MW to all within 3"."""
    dice: list[Die] = [6, 6, (3, "Perils"), (5, "injury roll of A1"), (1, "injury roll of A1")]
    dice += [(1, "explosion on A2"), (1, "injury roll of A2")]
    dice += [(1, "explosion on B1"), (1, "injury roll of B1")]
    t = Table(dice=dice)
    seer = t.add(0, "seer", (5, 5))
    friend = t.add(0, "trooper", (7, 5))
    near = t.add(1, "brute", (8, 5))
    far = t.add(1, "brute", (9, 5))
    t.run(psychic_phase(t.state, t.ctx), ["A1", "psybolt"])
    assert seer.out_of_action
    assert "PowerManifested" not in t.kinds()
    assert friend.flesh_wounds == 1 and near.flesh_wounds == 1
    assert far.wounds == 1 and far.flesh_wounds == 0
    assert t.dice.unused == 0


def test_d15_deny_needs_a_greater_total() -> None:
    """D15: caster's total 7: a deny of 7 fails, a deny of 8 cancels the power."""
    for deny, denied in (((3, 4), False), ((4, 4), True)):
        t = Table(dice=[3, 4, *deny] + ([] if denied else [(1, "injury")]))
        seer = t.add(0, "seer", (0, 0))
        hexer = t.add(1, "hexcaller", (0, 10))
        brute = t.add(1, "brute", (0, 4))
        t.run(cast_power(t.state, t.ctx, seer, PSYBOLT), [hexer.id])
        assert ("PowerDenied" in t.kinds()) is denied
        assert (brute.flesh_wounds == 1) is not denied
        assert hexer.denies_used == 1
        assert t.dice.unused == 0


def test_one_deny_attempt_per_power_and_denies_per_round() -> None:
    """§10 A6: a psyker with 1 deny cannot deny again this round; none offered."""
    t = Table(dice=[3, 4, (1, "injury")])
    seer = t.add(0, "seer", (0, 0))
    hexer = t.add(1, "hexcaller", (0, 10))
    hexer.denies_used = 1
    t.add(1, "brute", (0, 4))
    t.run(cast_power(t.state, t.ctx, seer, PSYBOLT))
    assert not [d for d in t.decisions if "Deny" in d.prompt]
    assert t.dice.unused == 0


def test_deny_out_of_range_is_not_offered() -> None:
    """§6.4 item 5: the denier must be within 24" of the caster."""
    t = Table(dice=[3, 4, (1, "injury")], rows=["." * 30] * 12)
    seer = t.add(0, "seer", (0, 0))
    t.add(1, "hexcaller", (29, 0))
    t.add(1, "brute", (0, 4))
    t.run(cast_power(t.state, t.ctx, seer, PSYBOLT))
    assert t.dice.unused == 0


def test_command_reroll_of_a_failed_psychic_test() -> None:
    """§8.2: the caster may re-roll a failed psychic test for 1 CP."""
    t = Table(dice=[2, 1, 3, 3, (1, "injury")])
    seer = t.add(0, "seer", (0, 0))
    t.add(1, "brute", (0, 4))
    t.state.team(0).cp = 1
    t.run(cast_power(t.state, t.ctx, seer, PSYBOLT), ["yes"])
    assert t.state.team(0).cp == 0 and "PowerManifested" in t.kinds()
    assert t.dice.unused == 0


def test_psybolt_ties_chosen_by_the_caster_and_terrain_softens_injury() -> None:
    """§10 A28 ties; §6.7 item 3: terrain next to the target gives -1 to the injury roll."""
    rows = ["." * 16] * 5 + ["......o.........", "................"] + ["." * 16] * 5
    t = Table(dice=[3, 4, (4, "injury")], rows=rows)
    seer = t.add(0, "seer", (6, 2))
    behind = t.add(1, "brute", (6, 7))
    t.add(1, "brute", (1, 2))
    t.run(cast_power(t.state, t.ctx, seer, PSYBOLT), [behind.id])
    pick = t.decisions[-1]
    assert pick.kind is DecisionKind.PICK_TARGET and len(pick.options) == 2
    assert behind.flesh_wounds == 1 and not behind.out_of_action  # 4 - 1 = 3
    assert t.dice.unused == 0


def test_psybolt_without_a_visible_enemy_does_nothing() -> None:
    """§6.4: no eligible target: no effect."""
    t = Table(dice=[3, 4])
    seer = t.add(0, "seer", (0, 0))
    t.add(1, "brute", (15, 11))  # 15 + 5 = 20" away
    t.run(cast_power(t.state, t.ctx, seer, PSYBOLT))
    assert "PowerWasted" in t.kinds()
    assert t.dice.unused == 0


def test_ward_gives_a_5_plus_invulnerable_save_against_attacks() -> None:
    """§12.1 Ward: 5++ until the end of the round; a 5 saves against AP -3."""
    t = Table(dice=[3, 3, 3, 2, 5])
    t.add(0, "seer", (0, 0))
    trooper = t.add(0, "trooper", (3, 3))
    boss = t.add(1, "boss", (3, 4), options=["crusher_claw"])
    t.run(psychic_phase(t.state, t.ctx), ["A1", "ward", trooper.id])
    assert trooper.warded and trooper.invuln == 5
    claw = next(w for w in boss.weapons if w.id == "crusher_claw").profiles[0]
    spec = AttackSpec(boss, boss.sheet.WS, [AttackGroup(trooper, 1, claw, 10)])
    t.run(resolve_attacks(t.state, t.ctx, spec))
    assert t.find("SavesRolled")[0].get("successes") == 1
    assert trooper.wounds == 1 and not trooper.out_of_action
    assert t.dice.unused == 0


def test_fury_and_one_casting_psyker_per_round() -> None:
    """§12.2 Fury on a friend; §6.4 item 1: the player's psykers cast once per round."""
    t = Table(dice=[3, 3])
    t.add(0, "seer", (0, 0))
    hexer = t.add(1, "hexcaller", (0, 10))
    brute = t.add(1, "brute", (2, 10))
    t.state.initiative = 1
    t.run(psychic_phase(t.state, t.ctx), ["B1", "fury", brute.id, "no", "pass"])
    assert brute.fury and t.state.team(1).psyker_cast
    assert [d.player for d in t.decisions if d.kind is DecisionKind.PICK_MODEL][:1] == [1]
    t.decisions.clear()
    t.run(psychic_phase(t.state, t.ctx), ["pass"])
    assert all(d.player == 0 for d in t.decisions)
    assert hexer.casts_used == 1
    assert t.dice.unused == 0


def test_psykers_know_psybolt_and_their_datasheet_powers() -> None:
    """§6.4 item 2: every psyker knows Psybolt."""
    sheet = load_factions()["reavers"].datasheets["hexcaller"]
    assert sheet.is_psyker and "fury" in sheet.powers
