"""Cover, Go to Ground and Focus Fire (digest wh40k6 §4.5, §6.8.3, §6.8.11, §11.4)."""

from __future__ import annotations

from engine.board import Cell
from engine.rulesets.wh40k6.fire_orders import focus_choice
from engine.rulesets.wh40k6.geometry import Sight
from engine.rulesets.wh40k6.shots import Shot
from engine.rulesets.wh40k6.volley import Fire, cover_map, eligible_models
from tests.rulesets.wh40k6.table import Table, catalogue


def test_cover_from_area_terrain_and_intervening_models() -> None:
    """§11.4: in woods 5+; behind a model of another unit 5+; in the open none."""
    table = Table()
    table.state.terrain[Cell(10, 12)] = "woods"
    squad = table.add(0, "warden_squad", [(10, 2)])
    mob = table.add(1, "horde_mob", [(10, 12), (14, 12), (18, 12)])
    table.add(1, "sky_raiders", [(14, 7)])
    firer = table.model(squad.models[0])
    sight = Sight(table.state)
    covers = [sight.cover(table.model(m), firer) for m in mob.models]
    assert covers == [5, None, 5]


def test_go_to_ground_improves_cover_or_gives_6_plus() -> None:
    """§6.8.11: +1 to a cover save, or 6+ without cover."""
    table = Table()
    table.state.terrain[Cell(10, 12)] = "woods"
    squad = table.add(0, "warden_squad", [(10, 2)])
    mob = table.add(1, "horde_mob", [(10, 12), (14, 12)])
    rifle = catalogue().weapons["service_rifle"]
    fire = Fire(
        squad, mob, [Shot(squad.models[0], rifle, 1, False, 4, squad.models[0])], Sight(table.state)
    )
    assert list(cover_map(table.state, fire, True).values()) == [4, 6]


def test_focus_fire_is_offered_when_cover_differs() -> None:
    """§6.8.3, D28: Focus Fire on 5+ or worse, or on models without cover."""
    table = Table()
    table.state.terrain[Cell(10, 12)] = "woods"
    squad = table.add(0, "warden_squad", [(10, 2)])
    mob = table.add(1, "horde_mob", [(10, 12), (14, 12)])
    rifle = catalogue().weapons["service_rifle"]
    fire = Fire(
        squad, mob, [Shot(squad.models[0], rifle, 1, False, 4, squad.models[0])], Sight(table.state)
    )
    assert eligible_models(table.state, fire) == {"B1.1", "B1.2"}
    assert table.run(focus_choice(table.state, fire), ["7"]) == 7
    assert [o.key for o in table.decisions[-1].options] == ["none", "5", "7"]
