"""Scrums: strike order, Brace, Leap Attack, Hatred, Fear (a), draw-in (digest fatigue §6.6-§6.8;
§9 T4, T6, T7, D4, D5, D10, D12)."""

from __future__ import annotations

from engine.rulesets.fatigue.actions import legal_actions
from engine.rulesets.fatigue.activation import activate, is_eligible
from engine.rulesets.fatigue.checks import effective_morale, is_hit, melee_modifier
from engine.rulesets.fatigue.exchange import dice_per_model, effective_mobility, resolve_exchange
from engine.rulesets.fatigue.profiles import ModelProfile, Psych, Weapon
from engine.rulesets.fatigue.scrums import start_scrum
from engine.rulesets.fatigue.tables import d2
from tests.rulesets.fatigue.table import Table, first, spec, variant


def test_frenzy_doubles_attack_dice() -> None:
    """Digest fatigue §9 T4: frenzied A1 and A2 models roll 2 and 4 dice; never x4."""
    table = Table()
    base = spec("Ashfang Chief")
    a1 = ModelProfile("Berserker", "b", 5, 1, 3, 4, Weapon("Axe", False, 1, 1))
    berserkers = table.add(1, variant("Ashfang Chief", models=(a1,)), [(5, 5)])
    chief = table.add(1, base, [(7, 5)])
    assert dice_per_model(berserkers, berserkers.models[0], chief) == 2
    assert dice_per_model(chief, chief.models[0], berserkers) == 4
    chief.whirlwind = True
    assert dice_per_model(chief, chief.models[0], chief) == 4  # PROPOSED §10 #24
    chief.frenzy_lost = True
    assert dice_per_model(chief, chief.models[0], berserkers) == 2


def test_to_hit_with_brace_and_fatigue() -> None:
    """Digest fatigue §9 D4: braced (+1), 1 fatigue (-1) against Def 4."""
    table = Table()
    spears = table.add(0, "Road Spears", [(2, 2)])
    spears.braced = True
    spears.fatigue = 1
    mod = melee_modifier(spears)
    assert mod == 0
    assert is_hit(4, mod, 4)
    assert not is_hit(3, mod, 4)
    assert is_hit(6, -5, 4)
    assert not is_hit(1, +5, 4)


def leaper_table(dice: list[int | tuple[int, str]]) -> Table:
    leaper = ModelProfile("Leaper", "L", 4, 2, 4, 4, Weapon("Claws", False, 1, 1))
    rows = ["." * 10] * 3 + ["XXXXXXXXX."] + ["." * 10] * 3
    table = Table(dice=dice, rows=rows)
    table.add(1, variant("Tunnel Brute", models=(leaper,), psych=frozenset()), [(3, 5)])
    table.add(0, "Warden-Captain", [(3, 1)])
    table.state.side(1).fp = 5
    return table


def test_leap_attack_bonus_in_the_first_exchange_only() -> None:
    """Digest fatigue §9 T6: M4 leaps into contact: M5 and a Ramming die (D2) in exchange 1."""
    table = leaper_table(
        [
            (2, "melee to-hit: B1"),  # the leaper's own die misses (M5 with the Captain)
            (4, "ramming strike: B1"),  # the Ramming die hits Def 4
            (3, "D2 damage"),  # D6 3 -> 1 damage
            (1, "melee to-hit: A"),  # the Captain strikes in the same step
            1,
            (1, "melee to-hit: A"),  # exchange 2: the Captain (M5) first
            1,
            (1, "melee to-hit: B1"),  # then the leaper at M4, no Ramming die
        ]
    )
    state, ctx = table.state, table.ctx
    leaper = state.units[1]
    table.run(activate(state, ctx, leaper), ["ATTACK", "3,2"])
    assert table.find("LeapAttackMade")
    captain = state.units[2].models[0]
    assert captain.wounds_taken == 1
    assert not leaper.leap_bonus
    assert effective_mobility(leaper, leaper.models[0]) == 4
    table.run(activate(state, ctx, leaper), ["ATTACK"])
    assert table.rolled("ramming") == [(4,)]
    steps = [e.text.split("(step ")[1][0] for e in table.find("StrikesResolved")]
    assert steps == ["5", "5", "5", "4"]
    assert table.dice.unused == 0


def test_d2_reads_a_d6() -> None:
    """Digest fatigue §9 T6 / §6.1: D6 3 -> 1 damage, D6 5 -> 2 damage."""
    assert d2(3) == 1
    assert d2(5) == 2


def test_brace_near_a_scrum_then_charged() -> None:
    """Digest fatigue §9 T7: Brace 3 steps from a scrum: legal, not drawn in, +1 M and dice."""
    table = Table(dice=[(4, "melee to-hit: A"), (6, "melee to-hit: B")])
    state, ctx = table.state, table.ctx
    fighters = table.add(0, "Warden-Captain", [(5, 5)])
    enemy = table.add(1, "Ashfang Chief", [(5, 6)])
    scrum = start_scrum(state, ctx, fighters, enemy)
    spears = table.add(0, "Road Spears", [(5, 9)])  # 3 steps from the Chief
    state.side(0).fp = 3
    keys = [k for k, _, _ in legal_actions(state, spears, 3)]
    assert "BRACE" in keys
    table.run(activate(state, ctx, spears), ["BRACE"])
    assert not is_eligible(state, spears)
    from engine.rulesets.fatigue.drawin import draw_in

    draw_in(state, ctx, scrum)
    assert spears.scrum is None
    # A lone Scav charges the braced spearman: M4+1 = 5 strikes with the Scav's M5.
    scav = table.add(1, "Scav Pack", [(8, 11)])
    state.side(1).fp = 2
    table.run(activate(state, ctx, scav), ["ATTACK", "6,10"])
    strikes = table.find("StrikesResolved")
    assert [e.get("modifier") for e in strikes] == [1, 0]
    assert "step 5" in strikes[0].text and "step 5" in strikes[1].text
    assert effective_mobility(spears, spears.models[0]) == 5
    fighters.braced = False
    assert "BRACE" not in [k for k, _, _ in legal_actions(state, fighters, 3)]


def test_strike_order_by_mobility() -> None:
    """Digest fatigue §9 D12: Scavs (M5) strike before Spears (M4); slain spearmen do not."""
    table = Table(dice=[6, 6, 4, 4, 4, 4])  # two Scav dice, then four surviving Spears
    state, ctx = table.state, table.ctx
    scavs = table.add(1, variant("Scav Pack", hates=()), [(5, 6), (6, 6)])
    spears = table.add(0, "Road Spears", [(3, 5), (4, 5), (5, 5), (6, 5), (7, 5)])
    scrum = start_scrum(state, ctx, scavs, spears)
    table.run(resolve_exchange(state, ctx, scrum, scavs), [first, first, first])
    strikes = table.find("StrikesResolved")
    assert [e.get("unit") for e in strikes] == [scavs.id, spears.id]
    assert table.rolled("melee to-hit: A") == [(4,), (4,), (4,)]


def test_braced_spears_strike_together_with_plus_one() -> None:
    """Digest fatigue §9 D12: braced Spears (effective M5) strike with the Scavs, +1 each."""
    table = Table(dice=[3, 3, 3, 3, 3, 1, 1])
    state, ctx = table.state, table.ctx
    spears = table.add(0, "Road Spears", [(3, 5), (4, 5), (5, 5), (6, 5), (7, 5)])
    scavs = table.add(1, variant("Scav Pack", hates=()), [(5, 6), (6, 6)])
    spears.braced = True
    scrum = start_scrum(state, ctx, scavs, spears)
    table.run(resolve_exchange(state, ctx, scrum, scavs), [first])
    strikes = table.find("StrikesResolved")
    assert all("step 5" in e.text for e in strikes)
    assert strikes[0].get("modifier") == 1
    assert strikes[0].get("hits") == 5  # 3 + 1 >= Def 3


def test_hatred_rerolls_misses_in_the_first_exchange() -> None:
    """Digest fatigue §9 D10: 1-6 against Def 4 hit 3; re-rolls 4, 1, 2 add one: 4 hits."""
    table = Table(dice=[1, 2, 3, 4, 5, 6, (4, "hatred"), 1, 2, 1])
    state, ctx = table.state, table.ctx
    scavs = table.add(1, "Scav Pack", [(3, 6), (4, 6), (5, 6), (6, 6), (7, 6), (8, 6)])
    spears = table.add(0, "Road Spears", [(3, 5), (4, 5), (5, 5), (6, 5), (7, 5)])
    scrum = start_scrum(state, ctx, scavs, spears)
    table.run(resolve_exchange(state, ctx, scrum, scavs), ["all", first, first, first, first])
    assert table.find("StrikesResolved")[0].get("hits") == 4
    assert table.find("DiceRerolled")[0].get("count") == 3
    # Next exchange: no re-roll offered (first exchange over).
    table2_dice = [1] * 6 + [1]
    table.dice.script += [(f, None) for f in table2_dice]
    table.run(resolve_exchange(state, ctx, scrum, scavs), [])
    assert len(table.find("DiceRerolled")) == 1


def test_fear_a_when_attacked_by_the_brute() -> None:
    """Digest fatigue §9 D5: Spears fail Fear (a) on a 5: -1 melee to-hit, panic at Mo 3."""
    table = Table(dice=[(5, "fear of Tunnel Brute"), (1, "melee to-hit: B1"), 1, 1, 4, 4, 4, 4, 5])
    state, ctx = table.state, table.ctx
    brute = table.add(1, variant("Tunnel Brute", giant_leap=0), [(5, 7)])
    spears = table.add(0, "Road Spears", [(3, 5), (4, 5), (5, 5), (6, 5), (7, 5)])
    state.side(1).fp = 2
    table.run(activate(state, ctx, brute), ["ATTACK", "5,6"])
    assert spears.feared
    strikes = table.find("StrikesResolved")
    assert strikes[1].get("modifier") == -1
    assert strikes[1].get("hits") == 1
    assert effective_morale(spears) == 3


def test_draw_in_pulls_free_units_but_not_braced_or_camouflaged() -> None:
    """§6.7: one pass, radius 3; braced and camouflaged units stay out (FILL-IN)."""
    table = Table()
    state, ctx = table.state, table.ctx
    captain = table.add(0, "Warden-Captain", [(5, 5)])
    chief = table.add(1, "Ashfang Chief", [(5, 6)])
    scrum = start_scrum(state, ctx, captain, chief)
    spears = table.add(0, "Road Spears", [(7, 8), (8, 8)])
    longguns = table.add(0, "Relic Longguns", [(3, 8)])
    longguns.camouflaged = True
    far = table.add(0, "Road Spears", [(12, 10)])
    from engine.rulesets.fatigue.drawin import draw_in

    draw_in(state, ctx, scrum)
    assert spears.scrum == scrum.id and spears.first_exchange
    assert longguns.scrum is None and far.scrum is None
    assert any(max(abs(m.cell.x - 5), abs(m.cell.y - 6)) == 1 for m in spears.alive() if m.cell)


def test_stupid_units_strike_with_no_dice() -> None:
    """§6.25 item 3.1 (SEED): a STUPID unit rolls 0 dice but is hit normally."""
    table = Table()
    brute = table.add(1, "Tunnel Brute", [(5, 5)])
    brute.stupid = True
    assert dice_per_model(brute, brute.models[0], brute) == 0
    assert brute.has(Psych.STUPIDITY)
