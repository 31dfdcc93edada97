"""Disengagement by INI and by STR (digest confrontation §6.7, T5; §9 X8, X9)."""

from __future__ import annotations

from engine.rulesets.confrontation.disengage import can_disengage, disengage, strength_margin
from engine.rulesets.confrontation.profiles import Size
from tests.rulesets.confrontation.table import Table


def test_disengage_by_ini_rerolls_to_succeed() -> None:
    """Digest confrontation §9 X8: INI 2, 2 enemies: 8; 6, re-roll 2 -> 10: success."""
    t = Table([6, 2])
    f = t.add(0, (5, 5), ini=2)
    t.add(1, (4, 5))
    t.add(1, (6, 5))
    assert t.run(disengage(t.state, t.ctx, f), ["yes"]) is True
    assert not f.disengage_failed


def test_failed_disengagement_stays_all_defence() -> None:
    """X8: roll 5 -> 7 < 8: failure, all-defence for the round."""
    t = Table([5])
    f = t.add(0, (5, 5), ini=2)
    t.add(1, (4, 5))
    t.add(1, (6, 5))
    assert t.run(disengage(t.state, t.ctx, f)) is False
    assert f.disengage_failed and f.cell == (5, 5)


def test_disengage_by_strength() -> None:
    """Digest confrontation §9 X9: Medium STR 5 vs Small RES 2 and 3: d6 + 2 against 8."""
    t = Table([6])
    f = t.add(0, (5, 5), strength=5, size=Size.MEDIUM)
    t.add(1, (4, 5), res=2, size=Size.SMALL)
    t.add(1, (6, 5), res=3, size=Size.SMALL)
    assert strength_margin(t.state, f) == 2
    assert t.run(disengage(t.state, t.ctx, f), ["STR", "no"]) is True  # 6, stop: 6 + 2 = 8
    assert t.find("DisengagementTested")[0].get("method") == "STR"


def test_strength_method_needs_a_positive_margin_and_a_larger_size() -> None:
    """X9: against RES 5 the effective STR is 0: not allowed; nor against equal size (A38)."""
    t = Table()
    f = t.add(0, (5, 5), strength=5, size=Size.MEDIUM)
    t.add(1, (4, 5), res=5, size=Size.SMALL)
    assert strength_margin(t.state, f) is None
    t2 = Table()
    g = t2.add(0, (5, 5), strength=9, size=Size.MEDIUM)
    t2.add(1, (4, 5), res=1, size=Size.MEDIUM)
    assert strength_margin(t2.state, g) is None


def test_eligibility() -> None:
    """§6.7: engaged by a charge this phase (A3) or no free edge (A4) forbids it."""
    t = Table()
    f = t.add(0, (5, 5))
    for cell in [(4, 5), (6, 5), (5, 4)]:
        t.add(1, cell)
    assert can_disengage(t.state, f)
    f.engaged = True
    assert not can_disengage(t.state, f)
    f.engaged = False
    t.add(1, (5, 6))
    assert not can_disengage(t.state, f)
    free = t.add(0, (10, 10))
    assert not can_disengage(t.state, free)
