"""The threat and sight key (T, issue 15): for the model under the cursor the board tints
the cells it can move and charge to and marks the enemies that see or can reach it; the
model panel names them with the cover the model has from each. What is drawn is the
ruleset's own `Threat` (no rule in the TUI); the tests check both the picture and the
words against cells worked out by hand from the rules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style
from textual.pilot import Pilot

from engine.board import Cell
from tests.rulesets.apocalypse.test_threat import POSITION as APOCALYPSE
from tests.rulesets.confrontation.test_threat import POSITION as CONFRONTATION
from tests.rulesets.fatigue.test_threat import POSITION as FATIGUE
from tests.rulesets.killteam.test_threat import POSITION as KILLTEAM
from tests.rulesets.wh40k6.test_threat import POSITION as WH40K6
from tests.tui.keys import press_until, send_key, wait_for
from tests.tui.play import app_at, cursor_on
from tests.tui.test_snapshots import quiet, still
from tui.app import make_app
from tui.battlefield import Battlefield
from tui.info import InfoScreen
from tui.panels import ModelPanel

SnapCompare = Callable[..., bool]

SNAPSHOTS = (
    ("killteam", KILLTEAM, Cell(8, 6)),
    ("wh40k6", WH40K6, Cell(30, 10)),
    ("apocalypse", APOCALYPSE, Cell(11, 7)),
    ("confrontation", CONFRONTATION, Cell(12, 12)),
    ("fatigue", FATIGUE, Cell(8, 14)),
)
"""A position of each ruleset and a model the threat is shown for (the engine tests of
each ruleset work its threat out by hand)."""


def drawn(field: Battlefield, cell: Cell) -> Style:
    """The style the battlefield draws ``cell``'s first character in."""
    row = field.board.height - 1 - cell.y
    strip = field.render_line(row * field.cell_height - round(field.scroll_y))
    offset = cell.x * field.cell_width - round(field.scroll_x)
    for segment in strip:
        if offset < segment.cell_length:
            assert segment.style is not None
            return segment.style
        offset -= segment.cell_length
    raise AssertionError(f"{cell} is not on screen")


def tint(field: Battlefield, layer: str) -> object:
    return field.get_component_rich_style(f"battlefield--{layer}", partial=True).bgcolor


def panel_text(screen: object) -> str:
    from textual.screen import Screen

    assert isinstance(screen, Screen)
    return str(screen.query_one(ModelPanel).render())


async def test_t_shows_a_troopers_reach_and_the_brutes_that_threaten_it(tmp_path: Path) -> None:
    app = app_at(tmp_path, KILLTEAM, seed=3)
    async with app.run_test(size=(200, 60)) as pilot:
        screen, field = await cursor_on(pilot, Cell(8, 6))
        await send_key(pilot, "T")
        await wait_for(pilot, lambda: bool(field.threat_cells[0]))
        move, charge, menaces = field.threat_cells
        assert Cell(14, 6) in move and Cell(15, 6) not in move
        assert Cell(12, 13) in charge
        assert menaces == {Cell(12, 14), Cell(6, 17)}
        assert drawn(field, Cell(14, 6)).bgcolor == tint(field, "reach")
        assert drawn(field, Cell(12, 13)).bgcolor == tint(field, "charge")
        assert drawn(field, Cell(6, 17)).bgcolor == tint(field, "threat")
        assert drawn(field, Cell(15, 6)).bgcolor != tint(field, "reach")
        words = panel_text(screen)
        assert "Seen by (red): B2 Reaver Brute (obscured: -1 to hit, -1 to injure)" in words
        assert "Can charge it (red): B1 Reaver Brute, B2 Reaver Brute" in words
        # At 80x24 the panel cuts the words short: the whole card (I) holds them all.
        await press_until(pilot, "I", lambda: isinstance(pilot.app.screen, InfoScreen))
        card = pilot.app.screen
        assert isinstance(card, InfoScreen)
        assert "Can charge it (red): B1 Reaver Brute, B2 Reaver Brute" in card.body.plain
        await press_until(pilot, "escape", lambda: pilot.app.screen is screen)
        await send_key(pilot, "T")
        await wait_for(pilot, lambda: not any(field.threat_cells))
        assert "Seen by" not in panel_text(screen)


@pytest.mark.parametrize(("name", "position", "cell"), SNAPSHOTS, ids=[s[0] for s in SNAPSHOTS])
async def test_t_draws_the_rulesets_threat_in_every_ruleset(
    tmp_path: Path, name: str, position: str, cell: Cell
) -> None:
    path = tmp_path / f"{name}.toml"
    path.write_text(position)
    app = make_app(position=path, seed=3, saves_dir=tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        screen, field = await cursor_on(pilot, cell)
        await send_key(pilot, "T")
        await wait_for(pilot, lambda: bool(field.threat_cells[0]))
        model = field.model_at(cell)
        assert model is not None
        threat = screen.game.ruleset.threat(model.id)
        assert threat is not None and threat.menaces
        assert field.threat_cells == (threat.move, threat.charge, threat.menace_cells)
        for layer, cells in zip(("reach", "charge", "threat"), field.threat_cells, strict=True):
            shown = [c for c in cells if c != field.cursor]
            assert not shown or drawn(field, shown[0]).bgcolor == tint(field, layer), layer
        words = panel_text(screen)
        assert "Seen by (red): " in words and "Moves to " in words
        first = screen.game.view().model(threat.menaces[0].model)
        assert first is not None and first.name in words


SIZES = ((80, 24), (200, 60))


@pytest.mark.snapshot
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize(("name", "position", "cell"), SNAPSHOTS, ids=[s[0] for s in SNAPSHOTS])
def test_threat_snapshot(
    snap_compare: SnapCompare,
    tmp_path: Path,
    name: str,
    position: str,
    cell: Cell,
    size: tuple[int, int],
) -> None:
    path = tmp_path / f"{name}.toml"
    path.write_text(position)

    async def threat_on(pilot: Pilot[Any]) -> None:
        _, field = await cursor_on(pilot, cell)
        await send_key(pilot, "T")
        await wait_for(pilot, lambda: bool(field.threat_cells[0]))
        await still(pilot)

    app = quiet(make_app(position=path, seed=3, saves_dir=tmp_path / "saves"))
    assert snap_compare(app, run_before=threat_on, terminal_size=size)
