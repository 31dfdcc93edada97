"""What Kill Team's rolls need and their odds, before and after (issue #15; example D6)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from engine.rulesets.killteam import charge as charge_module
from engine.rulesets.killteam.charge import charge
from tests.rulesets.killteam.table import Table


@pytest.fixture(autouse=True)
def _no_overwatch(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(charge_module, "can_overwatch", lambda state, shooter, charger: False)
    yield


def test_d6_the_charge_roll_says_it_needs_6_and_the_re_roll_offer_gives_72_percent() -> None:
    """D6: 7 cells away the charger must move 6; 3+2 fails, the re-roll of 4+3 succeeds."""
    t = Table(dice=[(3, "charge"), (2, "charge"), (4, "charge"), (3, "charge")])
    t.state.team(0).cp = 1
    charger = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (7, 0))
    t.run(charge(t.state, t.ctx, charger), ["none", "yes", "6,0"])
    first, again = t.dice.rolls
    assert first.result() == "3, 2 = 5 vs 6+ (distance 6): fails"
    assert again.result() == "4, 3 = 7 vs 6+ (distance 6): succeeds"
    offer = next(d for d in t.decisions if "Re-roll the charge roll" in d.prompt)
    assert "needs 6+ (distance 6): 72%" in offer.prompt  # 26 of 36 throws reach 6


def test_charge_targets_show_the_chance_to_reach_them() -> None:
    """Two enemies in range, 7 and 10 cells away: they need 6 and 9 on 2D6."""
    t = Table(dice=[(6, "charge"), (6, "charge")])
    charger = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (7, 0))
    t.add(1, "brute", (0, 10))
    t.run(charge(t.state, t.ctx, charger), ["B1", "done", "none", "6,0"])
    declare = t.decisions[0]
    near, far = (declare.option(k) for k in ("B1", "B2"))
    assert near is not None and near.odds is not None and far is not None and far.odds
    assert near.odds.chances == (("charge succeeds", Fraction(26, 36)),)
    assert far.odds.chances == (("charge succeeds", Fraction(10, 36)),)
    assert near.odds.describe() == "charge succeeds 72%"
