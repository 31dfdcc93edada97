"""Asset windows and the §12.4 cards (digest apocalypse §6.4, §12.4)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from engine.bot.heuristic import OptionScorer
from engine.game import Game
from engine.rulesets.apocalypse.activation import activate
from engine.rulesets.apocalypse.assets import open_window
from engine.rulesets.apocalypse.damage import resolve_blasts
from engine.rulesets.apocalypse.geometry import obscured
from engine.rulesets.apocalypse.orders import initiative_phase
from engine.rulesets.apocalypse.state import DESTROYED
from engine.rulesets.apocalypse.window import Window
from engine.scenario import load_scenario
from tests.driver import drive
from tests.rulesets.apocalypse.table import Table

ROOT = Path(__file__).resolve().parents[3]


def give(t: Table, player: int, *kinds: str) -> list[str]:
    cards = [f"{k}#{n}" for n, k in enumerate(kinds, 1)]
    t.state.side(player).deck.hand.extend(cards)
    return cards


def test_a_window_offers_only_playable_cards_secretly() -> None:
    t = Table()
    t.add(0, "legion_line_squad", (5, 5))
    give(t, 0, "fortitude", "smoke_screen", "field_repairs")
    t.run(open_window(t.state, t.ctx, Window("W-DMG-END", (0, 1))))
    assert not t.decisions  # no damaged unit: Field Repairs has nothing to do
    win = Window("W-ACT-ENEMY", (0,), detachment="B-D1")
    t.run(open_window(t.state, t.ctx, win), ["pass"])
    offer = t.decisions[0]
    assert offer.hidden and set(offer.keys()) == {"smoke_screen#2", "pass", "quiet"}


def test_one_copy_per_window_and_the_window_closes_after_passes() -> None:
    """§6.4.2: alternate offers; at most one copy of a card name per window."""
    t = Table()
    target = t.add(1, "horde_brute_mob", (5, 20))
    t.add(0, "legion_line_squad", (5, 5))
    give(t, 0, "precision_barrage", "precision_barrage")
    t.dice = type(t.dice)([9, 9, 9])
    t.ctx.dice = t.dice
    t.run(
        open_window(t.state, t.ctx, Window("W-PREACT", (0, 1))), ["precision_barrage#1", target.uid]
    )
    assert len(t.decisions) == 2  # the second copy is not offered again
    assert (target.blast_small, target.blast_large) == (1, 1)
    assert t.state.side(0).deck.discard == ["precision_barrage#1"]


def test_tactical_insight_rerolls_the_initiative_die() -> None:
    t = Table(dice=[3, 9, (10, "re-roll")])
    give(t, 0, "tactical_insight")
    t.run(initiative_phase(t.state, t.ctx), ["tactical_insight#1"])
    assert t.state.initiative == 0


def test_hold_the_line_removes_up_to_two_deserter_markers() -> None:
    t = Table()
    units = [t.add(0, "legion_line_squad", (3 * n, 5)) for n in range(3)]
    for u in units:
        u.deserter = True
    give(t, 0, "hold_the_line")
    t.run(
        open_window(t.state, t.ctx, Window("W-DESERT", (0, 1))),
        ["hold_the_line#1", units[0].uid, units[2].uid],
    )
    assert [u.deserter for u in units] == [False, True, False]


def test_smoke_screen_obscures_against_the_activating_detachment() -> None:
    t = Table()
    shooter = t.add(1, "horde_scrap_gunners", (5, 20))
    squad = t.add(0, "legion_line_squad", (5, 5))
    give(t, 0, "smoke_screen")
    win = Window("W-ACT-ENEMY", (0,), detachment=shooter.detachment)
    t.run(open_window(t.state, t.ctx, win), ["smoke_screen#1", squad.uid])
    assert obscured(t.state, shooter, squad)


def test_forced_march_and_opportunity_fire() -> None:
    t = Table(dice=[6, 6, 1, 12, 12])
    det = t.detachment(0, order="ADVANCE")
    det.activated = True
    squad = t.add(0, "legion_line_squad", (5, 5), det=det)
    mob = t.add(1, "horde_brute_mob", (5, 15))
    give(t, 0, "forced_march", "opportunity_fire")
    t.run(
        open_window(t.state, t.ctx, Window("W-ACT-OWN", (0,), detachment=det.id)),
        ["forced_march#1", "reroll"],
    )
    assert det.id in t.state.effects.march_reroll
    t.run(
        open_window(t.state, t.ctx, Window("W-PREACT", (0, 1))),
        ["opportunity_fire#2", squad.uid, mob.uid],
    )
    assert squad.shot and mob.blasts


def test_fortitude_and_steady_nerves() -> None:
    t = Table(dice=[(8, "small blast save"), (8, "small blast save")])
    mob = t.add(1, "horde_brute_mob", (5, 5))
    mob.blast_small = 2  # a morale test that can fail: 6 + 2 beats Ld 7
    give(t, 1, "fortitude", "steady_nerves")
    t.run(open_window(t.state, t.ctx, Window("W-DMG-SELECT", (1,), unit=mob.uid)), ["fortitude#1"])
    assert mob.uid in t.state.effects.fortitude
    t.run(resolve_blasts(t.state, t.ctx, mob), ["steady_nerves#2"])
    assert mob.damage == 0 and t.dice.unused == 0  # 7 + 1 passes twice; no morale die


def test_field_repairs_removes_damage_and_critical() -> None:
    t = Table()
    tank = t.add(0, "legion_battle_tank", (5, 5))
    tank.damage, tank.critical = 3, True
    give(t, 0, "field_repairs")
    t.run(open_window(t.state, t.ctx, Window("W-DMG-END", (0, 1))), ["field_repairs#1", tank.uid])
    assert tank.damage == 2 and not tank.critical


def test_ambush_sets_up_deep() -> None:
    t = Table()
    mob = t.add(1, "horde_brute_mob", None, location="RESERVE")
    give(t, 1, "ambush")
    win = Window("W-RESERVE", (1,), unit=mob.uid)
    t.run(open_window(t.state, t.ctx, win), ["ambush#1"])
    assert win.ambush and mob.location != DESTROYED


def test_no_assets_until_my_next_activation_silences_offers_secretly() -> None:
    """Playtest 2: hand-over screens for every window; a player may now decline them all
    until his next activation, and nothing public says so."""
    t = Table()
    det = t.detachment(0, order="AIMED_FIRE")
    squad = t.add(0, "legion_line_squad", (5, 5), det=det)
    shooter = t.add(1, "horde_scrap_gunners", (5, 20))
    give(t, 0, "smoke_screen", "smoke_screen", "forced_march")
    enemy = Window("W-ACT-ENEMY", (0,), detachment=shooter.detachment)
    t.run(open_window(t.state, t.ctx, enemy), ["quiet"])
    assert t.decisions[-1].hidden and t.state.side(0).assets_quiet
    assert not t.events  # no event tells the opponent
    asked = len(t.decisions)
    t.run(open_window(t.state, t.ctx, Window("W-ACT-ENEMY", (0,), detachment=shooter.detachment)))
    assert len(t.decisions) == asked  # still holding Smoke Screen, but not asked
    drive(activate(t.state, t.ctx, det), ["pass"], t.decisions, then=lambda d: d.options[-1].key)
    own = t.decisions[asked]
    assert "Your activation" in own.prompt and "forced_march#3" in own
    assert not t.state.side(0).assets_quiet and squad.alive


def test_tactical_insight_shows_the_chance_its_re_roll_takes_the_initiative() -> None:
    """5 against 6, a tie going to the loser (it deployed first): its re-roll takes the
    Initiative on a 6-12, 7 in 12, and the computer plays the card; the winner's card
    shows no gain, and the computer keeps it (before, easy and normal re-rolled a die
    winning 8 to 1)."""
    t = Table(dice=[5, 6])
    t.state.first_deployed = 0
    give(t, 0, "tactical_insight")
    give(t, 1, "tactical_insight")
    t.run(initiative_phase(t.state, t.ctx), ["pass", "pass"])
    game = Game(load_scenario(ROOT / "scenarios" / "apocalypse-crossing.toml"), 1)
    for offer, chance, taken in ((0, 7, "tactical_insight#1"), (1, 0, "quiet")):
        decision = t.decisions[offer]
        card = next(o for o in decision.options if o.key == "tactical_insight#1")
        assert decision.player == offer and card.spends and card.odds is not None
        assert card.odds.chances == (("re-roll takes the Initiative", Fraction(chance, 12)),)
        scorer = OptionScorer(decision, game.view(), game.board, game.ruleset.EVALUATION)
        assert scorer.ranked()[0].key == taken


def test_asset_offers_name_the_activating_detachment_and_the_cards_targets() -> None:
    """Playtest: "Enemy activation: play an asset?" named neither who activates nor whom
    Smoke Screen could hide; the prompt, the card's label and its detail now do."""
    t = Table()
    brutes = t.detachment(1, name="Brute Warband", order="ADVANCE")
    t.add(1, "horde_scrap_gunners", (5, 20), det=brutes, name="Scrap Gunners α")
    legion = t.detachment(0, name="Legion Spearhead", order="ADVANCE")
    t.add(0, "legion_line_squad", (5, 5), det=legion, name="Line Squad α")
    t.add(0, "legion_line_squad", (9, 5), det=legion, name="Line Squad β")
    t.add(0, "legion_line_squad", (13, 5), det=legion, name="Line Squad γ")
    give(t, 0, "smoke_screen", "forced_march")
    enemy = Window("W-ACT-ENEMY", (0,), detachment=brutes.id)
    t.run(open_window(t.state, t.ctx, enemy), ["smoke_screen#1", "A3"])
    offer, pick = t.decisions
    assert offer.prompt == "Enemy activation (Brute Warband): play an asset?"
    card = offer.options[0]
    assert card.label == "Smoke Screen: hides one of your 3 units from Brute Warband"
    assert card.detail == (
        "Line Squad α, Line Squad β or Line Squad γ: one is obscured against Brute Warband "
        "this activation."
    )
    assert pick.prompt == "Smoke Screen: which of your units is obscured against Brute Warband?"
    assert t.events[-1].text == "Line Squad γ is hidden by smoke from Brute Warband this activation"
    own = Window("W-ACT-OWN", (0,), detachment=legion.id)
    t.run(open_window(t.state, t.ctx, own), ["forced_march#2", "move"])
    offer, effect = t.decisions[2:]
    assert offer.prompt == "Your activation (Legion Spearhead): play an asset?"
    assert (
        offer.options[0].label == 'Forced March: +3" moves or wound re-rolls for Legion Spearhead'
    )
    assert effect.prompt == "Forced March for Legion Spearhead: choose one effect"
    assert t.events[-1].text == (
        "Forced March: Legion Spearhead's Move actions get +3\" this activation"
    )


def test_a_damage_window_names_the_unit_its_cards_work_on() -> None:
    t = Table()
    mob = t.add(1, "horde_brute_mob", (5, 5), name="Brute Mob β")
    give(t, 1, "fortitude")
    t.run(open_window(t.state, t.ctx, Window("W-DMG-SELECT", (1,), unit=mob.uid)), ["pass"])
    offer = t.decisions[0]
    assert offer.prompt == "Damage (Brute Mob β): play an asset?"
    assert offer.options[0].label == "Fortitude: +1 to Brute Mob β's saves"
    assert offer.options[0].detail == "+1 to every save of Brute Mob β this phase."
