"""Morale phase: broken test, recovery, nerve tests (digest killteam §6.8, §9 S10-S12, D8-D10)."""

from __future__ import annotations

from engine.rulesets.killteam.melee import hit_modifier
from engine.rulesets.killteam.morale import (
    morale_phase,
    needs_broken_test,
    nerve_modifier,
    nerve_test,
)
from engine.rulesets.killteam.state import Model
from tests.rulesets.killteam.table import Table


def _ork_like_team(t: Table) -> tuple[Model, Model]:
    """S10-S12: a Reaver team of 16, 5 out of action, Boss and a Boy with flesh wounds.

    The Boss (Ld 7) has two non-shaken friends within 2"; the Boy (Ld 6) has none.
    """
    t.add(0, "trooper", (15, 0))
    boss = t.add(1, "boss", (2, 2))
    boss.flesh_wounds = 1
    t.add(1, "brute", (3, 2))
    t.add(1, "brute", (2, 3))
    boy = t.add(1, "brute", (12, 10))
    boy.flesh_wounds = 1
    for _ in range(5):
        t.add(1, "brute", None).out_of_action = True
    for x in range(7):
        t.add(1, "brute", (x, 7))
    assert t.state.team(1).start_count == 16
    return boss, boy


def test_s10_broken_test_needs_more_than_half() -> None:
    """S10: 16 at start, 5 OOA + 2 flesh wounds = 7, not > 8: no test; 2 more: 9 > 8."""
    t = Table()
    _ork_like_team(t)
    assert not needs_broken_test(t.state, 1)
    extra = [m for m in t.state.on_table(1) if m.flesh_wounds == 0][:2]
    for m in extra:
        m.flesh_wounds = 1
    assert needs_broken_test(t.state, 1)


def test_s11_s12_boss_passes_then_boy_is_shaken() -> None:
    """S11: Boss 3 +5 -2 = 6 <= 7 passes; S12: Boy tested after, 2 +5 = 7 > 6: shaken."""
    t = Table(dice=[(3, "nerve test of B1"), (2, "nerve test of B4")])
    boss, boy = _ork_like_team(t)
    t.run(morale_phase(t.state, t.ctx), [boss.id])
    tests = t.find("NerveTestRolled")
    assert [(e.get("model"), e.get("total")) for e in tests] == [("B1", 6), ("B4", 7)]
    assert not boss.shaken and boy.shaken
    assert "BrokenTestRolled" not in t.kinds()
    assert t.dice.unused == 0


def test_d10_order_matters() -> None:
    """D10: Boy first (shaken), then Boss 3 +5 +1 -2 = 7 passes; with a 4 it is shaken."""
    t = Table(dice=[(2, "B4"), (3, "B1")])
    boss, boy = _ork_like_team(t)
    t.run(morale_phase(t.state, t.ctx), [boy.id])
    assert boy.shaken and not boss.shaken
    assert t.find("NerveTestRolled")[1].get("total") == 7
    t = Table(dice=[(2, "B4"), (4, "B1")])
    boss, boy = _ork_like_team(t)
    t.run(morale_phase(t.state, t.ctx), [boy.id])
    assert boy.shaken and boss.shaken


def test_d9_natural_one_passes() -> None:
    """D9: Ld 6, 4 out of action, no friends near: a natural 1 passes despite +4."""
    t = Table(dice=[1])
    model = t.add(0, "trooper", (2, 2))
    model.flesh_wounds = 1
    for _ in range(4):
        t.add(0, "trooper", None).out_of_action = True
    assert nerve_modifier(t.state, model) == 4
    nerve_test(t.state, t.ctx, model)
    assert not model.shaken


def test_d8_broken_team_tests_everyone() -> None:
    """D8: 10 at start, 3 OOA + 3 flesh wounds, Ld 7: 2D6 = 8 breaks it; all 7 test; -1 to hit."""
    faces: list[int | tuple[int, str]] = [(5, "broken test"), (3, "broken test")]
    t = Table(dice=faces + [(1, "nerve test")] * 7)
    sergeant = t.add(0, "sergeant", (0, 0))
    living = [sergeant] + [t.add(0, "trooper", (2 * i, 4)) for i in range(1, 7)]
    for m in living[1:4]:
        m.flesh_wounds = 1
    for _ in range(3):
        t.add(0, "trooper", None).out_of_action = True
    enemy = t.add(1, "brute", (1, 1))
    t.run(morale_phase(t.state, t.ctx), [lambda d: d.keys()[0]] * 6)
    assert t.state.team(0).broken
    assert len(t.find("NerveTestRolled")) == 7
    assert t.dice.unused == 0
    assert hit_modifier(t.state, sergeant, enemy, sergeant.weapons[1].profiles[0]) == -1


def test_broken_test_not_retaken_once_broken() -> None:
    """§10 A41: a broken team never takes the broken test again, but everyone tests."""
    t = Table(dice=[1, 1])
    t.state.team(0).broken = True
    a = t.add(0, "trooper", (0, 0))
    a.flesh_wounds = 1
    t.add(0, "trooper", (5, 5))
    t.add(0, "trooper", None).out_of_action = True
    t.add(1, "brute", (10, 10))
    t.run(morale_phase(t.state, t.ctx), ["A1"])
    assert "BrokenTestRolled" not in t.kinds()
    assert len(t.find("NerveTestRolled")) == 2


def test_holding_team_is_not_broken() -> None:
    """§6.8 step 1: 2D6 not greater than the highest Ld: the team holds."""
    t = Table(dice=[(3, "broken"), (4, "broken"), 1, 1])
    t.add(0, "sergeant", (0, 0)).flesh_wounds = 1
    t.add(0, "trooper", (8, 0)).flesh_wounds = 1
    t.add(0, "trooper", None).out_of_action = True
    t.add(1, "brute", (10, 10))
    t.run(morale_phase(t.state, t.ctx), ["A1"])
    assert not t.state.team(0).broken
    assert t.find("BrokenTestRolled")[0].get("total") == 7


def test_shaken_models_recover_in_step_2() -> None:
    """§6.8 step 2: shaken models stop being shaken before the nerve tests."""
    t = Table()
    a = t.add(0, "trooper", (0, 0))
    a.shaken = True
    t.add(1, "brute", (10, 10))
    t.run(morale_phase(t.state, t.ctx))
    assert not a.shaken and "ShakenRecovered" in t.kinds()


def _medic_case(specialism: str | None) -> int:
    """Medic (or a plain trooper) tested first and shaken; then the friend beside it."""
    t = Table(dice=[(6, "nerve test of A1"), (1, "nerve test of A2")])
    first = t.add(0, "trooper", (2, 2), specialism=specialism)
    first.flesh_wounds = 1
    t.add(0, "trooper", (3, 2)).flesh_wounds = 1
    for _ in range(2):
        t.add(0, "trooper", None).out_of_action = True
    for x in range(8):
        t.add(0, "trooper", (x, 9))
    t.add(1, "brute", (15, 0))
    t.run(morale_phase(t.state, t.ctx), ["A1"])
    assert first.shaken
    return int(t.find("NerveTestRolled")[1].get("modifier") or 0)


def test_medic_never_counts_as_shaken() -> None:
    """§8.1 Medic passive: no +1 as a shaken model, still -1 as a non-shaken friend."""
    assert _medic_case("Medic") == 2 + 0 - 1
    assert _medic_case(None) == 2 + 1 - 0


def test_veteran_ignores_penalties_but_keeps_support() -> None:
    """§10 A39: the Veteran ignores the +1s (OOA, shaken) but keeps the -1s."""
    t = Table()
    vet = t.add(0, "trooper", (2, 2), specialism="Veteran")
    t.add(0, "trooper", (3, 3))
    t.add(0, "trooper", (9, 9)).shaken = True
    for _ in range(3):
        t.add(0, "trooper", None).out_of_action = True
    assert nerve_modifier(t.state, vet) == -1


def test_comms_stratagem_before_first_nerve_test() -> None:
    """§8.1 Comms stratagem: asked before the first test, -1 within 2" of the Comms."""
    t = Table(dice=[(4, "nerve test of A2")])
    t.state.team(0).cp = 1
    t.add(0, "trooper", (2, 2), specialism="Comms")
    tested = t.add(0, "trooper", (3, 3))
    tested.flesh_wounds = 1
    t.add(1, "brute", (15, 11))
    t.run(morale_phase(t.state, t.ctx), ["yes"])
    assert t.decisions[0].prompt.startswith("-1 to nerve tests")
    assert t.find("NerveTestRolled")[0].get("modifier") == -2
    assert t.state.team(0).cp == 0


def test_initiative_player_tests_first() -> None:
    """§10 A44: the initiative player's team takes its Morale phase first."""
    t = Table(dice=[(2, "B1"), (2, "A1")])
    t.add(0, "trooper", (0, 0)).flesh_wounds = 1
    t.add(0, "trooper", (9, 0))
    t.add(1, "brute", (15, 11)).flesh_wounds = 1
    t.add(1, "brute", (9, 11))
    t.state.initiative = 1
    t.run(morale_phase(t.state, t.ctx))
    assert [e.get("model") for e in t.find("NerveTestRolled")] == ["B1", "A1"]
