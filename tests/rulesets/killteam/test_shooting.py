"""The Shooting phase: digest killteam §6.5 and §9 examples with scripted dice."""

from __future__ import annotations

from engine.decisions import DecisionKind
from engine.rulesets.killteam.profiles import load_factions
from engine.rulesets.killteam.shooting import can_overwatch, shoot_with, shooting_phase
from engine.rulesets.killteam.state import Model
from engine.rulesets.killteam.targets import (
    Firing,
    fireable_sets,
    hit_modifiers,
    sightings,
    weapon_sets,
)
from tests.rulesets.killteam.table import Table


def shoot(t: Table, model: Model, answers: list[str]) -> None:
    """Activate one model in the Shooting phase and answer its Decisions."""
    t.run(shoot_with(t.state, t.ctx, model, fireable_sets(t.state, model)), answers)


def hit_dice(t: Table) -> list[int]:
    """How many hit dice each HitsRolled event reports."""
    return [int(e.get("dice") or e.get("hits") or 0) for e in t.find("HitsRolled")]


def targets_offered(t: Table) -> list[str]:
    """Models offered by the last PICK_TARGET Decision."""
    pick = [d for d in t.decisions if d.kind is DecisionKind.PICK_TARGET][-1]
    return [o.model or "" for o in pick.options]


def test_s4_flamer_split_fire_within_2_inches_of_the_original_target() -> None:
    """S4: flamer D6 = 5 at the middle of three models 2" apart: 2 / 2 / 1 auto-hits."""
    t = Table(dice=[(5, "shots"), 1, 1, 1, 1, 1])
    gunner = t.add(0, "gunner", (7, 3), options=["flame_projector"])
    left = t.add(1, "brute", (5, 8))
    middle = t.add(1, "brute", (7, 8))
    right = t.add(1, "brute", (9, 8))
    shoot(t, gunner, ["others", middle.id, middle.id, left.id, left.id, right.id])
    assert t.decisions[-1].kind is DecisionKind.ALLOCATE
    hits = {e.get("target"): e.get("hits") for e in t.find("HitsRolled")}
    assert hits == {middle.id: 2, left.id: 2, right.id: 1}
    assert t.dice.unused == 0


def test_s4_far_model_cannot_receive_attacks_of_the_left_original() -> None:
    """S4: with L as the original target, R (4" from L) is not offered any attack."""
    t = Table(dice=[(2, "shots"), 1, 1])
    gunner = t.add(0, "gunner", (7, 3), options=["flame_projector"])
    left = t.add(1, "brute", (5, 8))
    middle = t.add(1, "brute", (7, 8))
    right = t.add(1, "brute", (9, 8))
    shoot(t, gunner, ["others", left.id, middle.id])
    allocate = t.decisions[-1]
    assert allocate.kind is DecisionKind.ALLOCATE
    assert right.id not in {o.model for o in allocate.options}
    assert t.dice.unused == 0


def test_s5_d1_attack_gives_one_injury_die() -> None:
    """S5: a D1 attack that takes the target to 0 wounds gives 1 injury die."""
    t = Table(dice=[4, 1, 5, 1, (2, "injury")])  # 2 shots (RF at half range): hit, miss
    trooper = t.add(0, "trooper", (2, 2))
    brute = t.add(1, "brute", (2, 10))
    shoot(t, trooper, ["others"])
    injury = [r for r in t.dice.rolls if "injury" in r.reason]
    assert [r.dice for r in injury] == ["1D6"]
    assert brute.flesh_wounds == 1 and brute.wounds == 1
    assert t.dice.unused == 0


def test_s6_overcharged_plasma_gives_two_injury_dice() -> None:
    """S6: overcharged plasma (D2) that takes the target to 0 wounds: 2 injury dice."""
    # Hit 5, wound 3; AP -3 leaves the brute's Sv 6+ needing 9+: no save die is rolled.
    t = Table(dice=[5, 3, (1, "injury"), (2, "injury")])
    gunner = t.add(0, "gunner", (0, 0), options=["plasma_carbine"])
    brute = t.add(1, "brute", (14, 11))  # 19": long range, 1 shot
    shoot(t, gunner, ["others", "1"])
    assert "overcharge" in t.decisions[1].options[1].label
    injury = [r for r in t.dice.rolls if "injury" in r.reason]
    assert [r.dice for r in injury] == ["2D6"]
    assert brute.flesh_wounds == 1 and not gunner.out_of_action
    assert t.dice.unused == 0


def test_overheat_on_a_hit_roll_of_one_takes_the_bearer_out() -> None:
    """§10 A45: an unmodified 1 with the overcharge profile: bearer out of action."""
    t = Table(dice=[1])
    gunner = t.add(0, "gunner", (0, 0), options=["plasma_carbine"])
    t.add(1, "brute", (14, 11))
    t.add(0, "trooper", (0, 1))
    shoot(t, gunner, ["others", "1"])
    assert gunner.out_of_action
    assert t.dice.unused == 0


def test_s9_rapid_fire_doubles_within_half_range() -> None:
    """S9: Rapid Fire 1, 24": 2 attacks at 12", 1 attack at 13"."""
    for x, dice in ((12, 2), (13, 1)):
        t = Table(dice=[1] * dice)
        trooper = t.add(0, "trooper", (0, 0))
        t.add(1, "brute", (x, 0))
        shoot(t, trooper, ["others"])
        assert hit_dice(t) == [dice]
    assert t.dice.unused == 0


def test_long_range_is_minus_one_except_for_grenades() -> None:
    """§6.5.5: beyond half range -1 to hit (a 4 misses at BS 4+); grenades ignore it."""
    t = Table(dice=[4])
    trooper = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (13, 0))
    shoot(t, trooper, ["others"])
    assert t.find("HitsRolled")[0].get("successes") == 0
    g = Table()
    thrower = g.add(0, "trooper", (0, 0))
    g.add(1, "brute", (5, 0))
    seen = sightings(g.state, thrower, engaged=False, reach=6)
    grenade = thrower.weapons[1].profiles[0]
    assert hit_modifiers(g.state, Firing(thrower), grenade, seen[0]) == []
    assert t.dice.unused == 0


def test_target_within_1_inch_of_a_friend_is_not_offered() -> None:
    """§6.5.4 item 2: an enemy within 1" of the shooter's friend cannot be targeted."""
    t = Table(dice=[1, 1])
    trooper = t.add(0, "trooper", (0, 0))
    t.add(0, "trooper", (5, 5))
    locked = t.add(1, "brute", (6, 6))
    free = t.add(1, "brute", (2, 8))
    shoot(t, trooper, ["others"])
    assert t.find("TargetDeclared")[0].get("target") == free.id
    assert all(s.target is not locked for s in sightings(t.state, trooper, engaged=False, reach=24))
    assert t.dice.unused == 0


def test_d11_heavy_weapon_after_moving() -> None:
    """D11: Heavy 3, BS 4+, moved: 4 and 4 miss, 5 hits; a Heavy specialist hits with all."""
    for specialism, hit in ((None, 1), ("Heavy", 3)):
        t = Table(dice=[4, 5, 4] + [1] * hit)
        gunner = t.add(0, "gunner", (0, 0), specialism=specialism)
        gunner.moved = True
        t.add(1, "brute", (0, 10))
        shoot(t, gunner, ["others"])
        assert t.find("HitsRolled")[0].get("successes") == hit
    assert t.dice.unused == 0


def test_d17_heavy_stratagem_only_for_weapons_with_more_than_one_shot() -> None:
    """D17: Rapid Fire 1 gets no Heavy stratagem; Heavy 3 fires 4 shots with it."""
    t = Table(dice=[1, 1])
    plasma = t.add(0, "gunner", (0, 0), specialism="Heavy", options=["plasma_carbine"])
    t.add(1, "brute", (0, 10))
    t.state.team(0).cp = 1
    shoot(t, plasma, ["others", "0", "no"])  # no Heavy offer; "no" declines a re-roll
    assert hit_dice(t) == [2] and t.state.team(0).cp == 1
    c = Table(dice=[1, 1, 1, 1])
    cannon = c.add(0, "gunner", (0, 0), specialism="Heavy")
    c.add(1, "brute", (0, 10))
    c.state.team(0).cp = 1
    shoot(c, cannon, ["others", "yes"])
    assert hit_dice(c) == [4] and c.state.team(0).cp == 0
    assert t.dice.unused == 0


def test_d12_one_grenade_per_team_per_phase() -> None:
    """D12: after model A throws a grenade, model B may not (but may fire its rifle)."""
    t = Table(dice=[(1, "shots"), 1])
    a = t.add(0, "trooper", (4, 4))
    b = t.add(0, "trooper", (6, 4))
    t.add(1, "brute", (5, 8))
    assert [s.key for s in fireable_sets(t.state, b)] == ["others", "grenade0"]
    shoot(t, a, ["grenade0"])
    assert t.state.team(0).grenade_used
    assert [s.key for s in fireable_sets(t.state, b)] == ["others"]
    assert t.dice.unused == 0


def test_d13_pistol_only_at_the_closest_enemy_when_engaged() -> None:
    """D13: within 1" of E1 (itself next to a friend) and 2" from E2: Pistol at E1 only."""
    t = Table(dice=[1])
    sergeant = t.add(0, "sergeant", (5, 5))
    t.add(0, "trooper", (7, 6))
    e1 = t.add(1, "brute", (6, 6))
    t.add(1, "brute", (5, 7))
    assert [s.key for s in fireable_sets(t.state, sergeant)] == ["pistol"]
    shoot(t, sergeant, ["pistol"])
    assert t.find("TargetDeclared")[0].get("target") == e1.id
    sergeant.charged_by.add(e1.id)
    assert fireable_sets(t.state, sergeant) == []
    assert t.dice.unused == 0


def test_pistol_ties_for_closest_are_chosen_by_the_player() -> None:
    """§10 A28: two enemies equally close: the shooter's player picks one."""
    t = Table(dice=[1])
    sergeant = t.add(0, "sergeant", (5, 5))
    t.add(1, "brute", (6, 5))
    other = t.add(1, "brute", (4, 5))
    shoot(t, sergeant, ["pistol", other.id])
    assert sorted(targets_offered(t)) == ["B1", "B2"]
    assert t.dice.unused == 0


def test_who_may_not_shoot() -> None:
    """§6.5.2: charged, fell back, retreated (unless FLY), shaken: no shooting at all."""
    t = Table()
    trooper = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (0, 8))
    for flag in ("charge_declared", "fell_back", "retreated", "shaken"):
        setattr(trooper, flag, True)
        assert fireable_sets(t.state, trooper) == []
        setattr(trooper, flag, False)
    assert fireable_sets(t.state, trooper)


def test_advanced_models_fire_only_assault_weapons_at_minus_one() -> None:
    """§10 A12: after Advancing only Assault weapons, at -1 to hit (Heavy specialist: 0)."""
    t = Table(dice=[4, 5, 1])
    trooper = t.add(0, "trooper", (0, 0))
    flamer = t.add(0, "gunner", (3, 0), options=["plasma_carbine"])
    trooper.advanced = flamer.advanced = True
    scrap = t.add(1, "scrapling", (1, 5))
    scrap.advanced = True
    t.add(0, "trooper", (15, 0))
    assert fireable_sets(t.state, trooper) == []
    assert fireable_sets(t.state, flamer) == []
    shoot(t, scrap, ["others", "A1"])
    assert t.find("HitsRolled")[0].get("successes") == 1  # 4-1 misses at BS 4+, 5-1 hits
    assert t.dice.unused == 0


def test_comms_passive_gives_plus_one_once_per_phase() -> None:
    """§8.1 Comms: another friend within 6" gets +1 to hit, once per Shooting phase."""
    t = Table(dice=[3, 3, 1, 1, 1, 1])
    t.add(0, "trooper", (0, 0), specialism="Comms")
    a = t.add(0, "trooper", (3, 0))
    b = t.add(0, "trooper", (5, 0))
    t.add(1, "scrapling", (3, 10))
    shoot(t, a, ["others", "yes"])  # BS 4+: 3+1 hits twice; wound dice 1 fail
    assert a.comms_bonus and t.state.team(0).comms_passive_used
    assert t.find("HitsRolled")[0].get("successes") == 2
    shoot(t, b, ["others"])
    assert not b.comms_bonus
    assert t.dice.unused == 0


def test_sniper_rerolls_ones_and_stratagem_adds_one() -> None:
    """§8.1 Sniper: hit rolls of 1 re-rolled automatically; stratagem +1 to hit."""
    t = Table(dice=[1, 3, (3, "Sniper"), 1, 1])
    sniper = t.add(0, "trooper", (0, 0), specialism="Sniper")
    t.add(1, "brute", (0, 10))
    t.state.team(0).cp = 1
    shoot(t, sniper, ["others", "yes"])
    assert t.find("HitsRolled")[0].get("successes") == 2  # 3+1 and re-rolled 3+1
    assert t.dice.unused == 0


def test_demolitions_wounds_obscured_targets_more_easily() -> None:
    """§8.1 Demolitions: +1 to wound an obscured target, +1 more with the stratagem."""
    rows = ["." * 16] * 6 + ["oooooooooooooooo"] + ["." * 16] * 5
    t = Table(dice=[6, 6, 3, 1, 1, 1], rows=rows)
    demo = t.add(0, "trooper", (0, 0), specialism="Demolitions")
    t.add(1, "brute", (0, 8))
    t.state.team(0).cp = 1
    shoot(t, demo, ["others", "yes"])
    # S3 vs T4 needs 5+; +2 makes a 3 wound.
    wounds = t.find("WoundsRolled")[0]
    assert wounds.get("successes") == 1
    assert t.dice.unused == 0


def test_sections_ready_models_first_and_a_pass_spends_them() -> None:
    """§6.5.1, §10 A42, A43: Ready models shoot first; a passed Ready model is spent."""
    t = Table(dice=[1, 1])
    ready = t.add(0, "trooper", (0, 0))
    ready.ready = True
    other = t.add(0, "trooper", (4, 0))
    t.add(1, "brute", (2, 11))

    # Each side has one model to shoot in each section (the Ready one, then the other:
    # the passed Ready model is spent; then the Brute), so none is picked: the game says so.
    t.run(shooting_phase(t.state, t.ctx), ["pass", "others", "pass"])
    shooters = [d.subject for d in t.decisions if d.prompt.endswith("fire which weapons?")]
    assert shooters == [ready.id, other.id, "B1"]
    assert [text for _, text in t.ctx.notes if "only model" in text][:2] == [
        "Ready, Fire!: A1 Militia Trooper is your only model left to act.",
        "Fire at Will: A2 Militia Trooper is your only model left to act.",
    ]
    assert ready.has_shot and not ready.ready
    assert [e.get("section") for e in t.find("SectionStarted")] == ["Ready, Fire!", "Fire at Will"]
    assert t.dice.unused == 0


def test_pistol_others_and_grenade_are_exclusive_choices() -> None:
    """§6.5.10: Pistol, or all other ranged weapons, or one grenade."""
    militia = load_factions()["militia"].weapons
    weapons = [militia[w] for w in ("service_pistol", "service_rifle", "frag_grenade")]
    sets = weapon_sets(weapons)
    assert [(s.key, [w.id for w in s.weapons]) for s in sets] == [
        ("others", ["service_rifle"]),
        ("pistol", ["service_pistol"]),
        ("grenade0", ["frag_grenade"]),
    ]


def test_engaged_model_cannot_overwatch_or_fire_other_weapons() -> None:
    """§6.5.2: within 1" of an enemy only a Pistol; a rifleman has nothing to fire."""
    t = Table()
    trooper = t.add(0, "trooper", (5, 5))
    t.add(1, "brute", (6, 6))
    charger = t.add(1, "brute", (5, 10))
    assert fireable_sets(t.state, trooper) == []
    assert not can_overwatch(t.state, trooper, charger)


def test_all_remaining_attacks_at_once_and_odds_on_targets() -> None:
    """§6.5.4 item 4: the rest may go to one target in one answer; options carry odds."""
    t = Table(dice=[(4, "shots"), 1, 1, 1, 1])
    gunner = t.add(0, "gunner", (7, 3), options=["flame_projector"])
    left = t.add(1, "brute", (5, 8))
    middle = t.add(1, "brute", (7, 8))
    shoot(t, gunner, ["others", middle.id, "all:" + left.id])
    hits = {e.get("target"): e.get("hits") for e in t.find("HitsRolled")}
    assert hits == {middle.id: 1, left.id: 3}
    pick = next(d for d in t.decisions if d.kind is DecisionKind.PICK_TARGET)
    assert all(o.odds is not None and o.odds.hit == 1 for o in pick.options)
    assert t.dice.unused == 0


def test_the_last_attack_to_allocate_is_offered_once_per_target() -> None:
    """Playtest: "1 attack at B8 (1 so far)" and "All 1 remaining at B8" were one choice."""
    t = Table(dice=[(2, "shots"), 1, 1])
    gunner = t.add(0, "gunner", (7, 3), options=["flame_projector"])
    left = t.add(1, "brute", (5, 8))
    middle = t.add(1, "brute", (7, 8))
    shoot(t, gunner, ["others", middle.id, left.id])
    allocate = t.decisions[-1]
    assert allocate.kind is DecisionKind.ALLOCATE
    assert [o.label for o in allocate.options] == [
        f"The last attack at {middle.name} (1 so far)",
        f"The last attack at {left.name} (0 so far)",
    ]
    hits = {e.get("target"): e.get("hits") for e in t.find("HitsRolled")}
    assert hits == {middle.id: 1, left.id: 1}


def test_the_weapon_list_says_which_profile_and_target_its_odds_are_for() -> None:
    """Played: the plasma carbine's option showed 'wound 42%' (overcharged, at the best
    target) and the standard shot at the same Brute then read 'wound 33%'; with two
    targets, the player read the list's odds as odds at the one they meant."""
    t = Table(dice=[1, 1])
    plasma = t.add(0, "gunner", (0, 0), options=["plasma_carbine"])
    t.add(1, "brute", (0, 10))
    t.add(1, "brute", (8, 10))
    shoot(t, plasma, ["pass"])
    fire = t.decisions[0].option("others")
    assert fire is not None and fire.odds is not None
    assert fire.odds.hit is not None and fire.odds.wound == fire.odds.hit * 5 / 6
    assert fire.detail.startswith("Odds for Plasma carbine (overcharge) at B1 Reaver Brute. ")
