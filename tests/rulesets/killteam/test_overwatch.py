"""Overwatch: digest killteam §6.5.11, §6.3.6 step 2 and §9 D7 with scripted dice."""

from __future__ import annotations

from fractions import Fraction

from engine.board import Cell
from engine.rulesets.killteam.geometry import is_obscured
from engine.rulesets.killteam.shooting import can_overwatch, overwatch
from tests.rulesets.killteam.table import Table

COVER_ROWS = ["." * 16] * 6 + ["oooooooooooooooo"] + ["." * 16] * 5
"""A low barricade along y = 5 across the whole table."""


def test_d7_overwatch_hits_only_on_unmodified_six() -> None:
    """D7: BS 3+ against an obscured charger: a 6 hits, a 5 misses."""
    for face, hits in ((6, 1), (5, 0)):
        t = Table(dice=[face] + [1] * hits, rows=COVER_ROWS)
        sergeant = t.add(0, "sergeant", (5, 0))
        charger = t.add(1, "brute", (5, 8))
        assert is_obscured(t.state, sergeant, charger)
        assert can_overwatch(t.state, sergeant, charger)
        t.run(overwatch(t.state, t.ctx, sergeant, charger))
        assert t.find("HitsRolled")[0].get("successes") == hits
        assert t.dice.unused == 0


def test_d7_flamer_still_auto_hits_in_overwatch() -> None:
    """D7: a flamer's D6 attacks all hit in Overwatch (auto-hit, §8.3 PROPOSED)."""
    t = Table(dice=[(3, "shots"), 1, 1, 1])
    gunner = t.add(0, "gunner", (5, 1), options=["flame_projector"])
    charger = t.add(1, "brute", (5, 8))
    t.add(1, "brute", (6, 8))  # within 2" of the charger, but Overwatch never splits
    t.run(overwatch(t.state, t.ctx, gunner, charger))
    assert [(e.get("target"), e.get("hits")) for e in t.find("HitsRolled")] == [(charger.id, 3)]
    assert t.dice.unused == 0


def test_overwatch_eligibility() -> None:
    """§6.3.6 step 2, A12: not after charging, falling back, retreating or out of range."""
    t = Table()
    sergeant = t.add(0, "sergeant", (5, 0))
    charger = t.add(1, "brute", (5, 8))
    assert can_overwatch(t.state, sergeant, charger)
    for flag in ("charge_declared", "fell_back", "retreated", "shaken", "advanced"):
        setattr(sergeant, flag, True)
        assert not can_overwatch(t.state, sergeant, charger), flag
        setattr(sergeant, flag, False)
    charger.cell = Cell(15, 8)  # 10 + 4 = 14": beyond the 12" pistol
    assert not can_overwatch(t.state, sergeant, charger)


def test_overwatch_needs_sight_of_the_charger() -> None:
    """§6.5.11: visibility is required; a wall hides the charger."""
    rows = ["." * 16] * 6 + ["################"] + ["." * 16] * 5
    t = Table(rows=rows)
    sergeant = t.add(0, "sergeant", (5, 0))
    charger = t.add(1, "brute", (5, 8))
    assert not can_overwatch(t.state, sergeant, charger)


def test_advanced_model_overwatches_only_with_assault_weapons() -> None:
    """§10 A12: after Advancing, Overwatch only with Assault weapons."""
    t = Table()
    flamer = t.add(0, "gunner", (5, 2), options=["flame_projector"])
    charger = t.add(1, "brute", (5, 8))
    flamer.advanced = True
    assert can_overwatch(t.state, flamer, charger)
    flamer.weapons = tuple(w for w in flamer.weapons if w.id != "flame_projector")
    assert not can_overwatch(t.state, flamer, charger)


def test_overwatch_grenade_uses_the_team_grenade() -> None:
    """§6.5.10: a grenade thrown in Overwatch is the team's one grenade for the phase."""
    t = Table(dice=[(2, "shots"), 5, 6, 1])
    trooper = t.add(0, "trooper", (5, 3))
    charger = t.add(1, "brute", (5, 8))
    t.run(overwatch(t.state, t.ctx, trooper, charger), ["grenade0"])
    assert t.state.team(0).grenade_used
    assert t.find("HitsRolled")[0].get("successes") == 1
    only_grenade = t.add(0, "trooper", (6, 3))
    only_grenade.weapons = tuple(w for w in only_grenade.weapons if w.id == "frag_grenade")
    assert not can_overwatch(t.state, only_grenade, charger)
    assert t.dice.unused == 0


def test_overwatch_with_the_heavy_stratagem() -> None:
    """§8.1 Heavy stratagem may be used in Overwatch: Heavy 3 fires 4 shots."""
    t = Table(dice=[1, 1, 1, 1])
    gunner = t.add(0, "gunner", (5, 0), specialism="Heavy")
    charger = t.add(1, "brute", (5, 10))
    t.state.team(0).cp = 1
    t.run(overwatch(t.state, t.ctx, gunner, charger), ["yes"])
    assert t.find("HitsRolled")[0].get("dice") == 4
    assert t.dice.unused == 0


def test_the_overwatch_weapon_choice_shows_odds_of_sixes_to_hit() -> None:
    """Playtest: the Shooting phase's weapon choice shows odds, Overwatch's showed none.
    A rifle (S3) at a brute (T4, Sv 6+): 6s to hit, 5+ to wound, 6+ to save."""
    t = Table(dice=[(2, "shots"), 5, 6, 1])
    trooper = t.add(0, "trooper", (5, 3))
    charger = t.add(1, "brute", (5, 8))
    t.run(overwatch(t.state, t.ctx, trooper, charger), ["grenade0"])
    rifle = t.decisions[0].option("others")
    assert rifle is not None and rifle.odds is not None
    assert (rifle.odds.hit, rifle.odds.wound) == (Fraction(1, 6), Fraction(1, 18))
    assert rifle.odds.unsaved == Fraction(5, 108)
    assert rifle.odds.describe() == "hit 17%, wound 6%, unsaved 5%"
