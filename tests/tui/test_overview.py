"""The overview zoom levels (``-`` past one character a cell): at 80x24 the whole 72x48
wh40k6 table, both armies and the objectives on one screen, each character the most
important cell of its block; the cursor still moves cell by cell, its block lit, and the
status line names its cell. Played as a new player would: keys, then what is on screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.segment import Segment
from textual.pilot import Pilot

from engine.board import Cell, Terrain
from engine.game import Game
from engine.scenario import load_scenario
from tests.tui.conftest import ROOT
from tests.tui.keys import press_until, send_key, wait_for, walk_cursor
from tests.tui.play import opened_game
from tests.tui.test_layout import screen_lines
from tests.tui.test_log import past_handover
from tests.tui.test_playtest_u14c import app_at, played_to
from tui.app import make_app
from tui.battlefield import Battlefield
from tui.cells import ONE_TO_ONE, ZOOMS, cell_text, visible_cells
from tui.info import InfoScreen
from tui.log_panel import LogPanel
from tui.modals import HandOverScreen
from tui.overview import block_cells, shown_cell
from tui.panels import StatusLine

UNDERLINE = "\u0332"
"""The combining low line under seat 2's letters where a character is a cell or more."""


def block_of(field: Battlefield, cell: Cell) -> tuple[int, int]:
    """The screen's (column, line) of the character showing ``cell``, inside the map."""
    line = (field.board.height - 1 - cell.y) // field.down * field.cell_height
    column = cell.x // field.across * field.cell_width
    return column - round(field.scroll_x), line - round(field.scroll_y)


def on_screen(field: Battlefield, cell: Cell) -> bool:
    column, line = block_of(field, cell)
    view = field.scrollable_content_region
    return 0 <= column < view.width and 0 <= line < view.height


def char_at(pilot: Pilot[Any], field: Battlefield, cell: Cell) -> str:
    """The character on screen for ``cell``'s block (seat 2's combining underline aside)."""
    column, line = block_of(field, cell)
    region = field.scrollable_content_region
    return screen_lines(pilot)[region.y + line].replace(UNDERLINE, "")[region.x + column]


def drawn(field: Battlefield, cell: Cell) -> Segment:
    """The segment the battlefield draws ``cell``'s block as (text and style)."""
    column, line = block_of(field, cell)
    for segment in field.render_line(line):
        if column < segment.cell_length:
            return segment
        column -= segment.cell_length
    raise AssertionError(f"{cell} is not on screen")


def bg(field: Battlefield, cell: Cell) -> object:
    """The background colour ``cell``'s block is drawn in (the tints and the cursor)."""
    style = drawn(field, cell).style
    assert style is not None
    return style.bgcolor


def status(pilot: Pilot[Any]) -> str:
    return str(pilot.app.screen.query_one(StatusLine).render())


def deployed() -> Game:
    """The Emperor's Will after both sides deployed: the Iron Wardens along the south
    edge, the Horde 36 cells north, objectives O1 and O2 placed."""
    game = played_to("wh40k6-emperors-will", "Which unit moves next")
    rows = {(m.player, m.cell.y) for m in game.view().models if m.cell is not None}
    assert {p for p, _ in rows} == {0, 1} and max(y for _, y in rows) - min(y for _, y in rows) > 30
    return game


async def test_at_80x24_minus_shows_both_armies_and_the_objectives(saves_dir: Path) -> None:
    """At 1:1 the 72x48 table showed 39x21 cells (the Horde off screen). ``-`` draws a
    character for 2x2 cells (all but four rows), again for 2x3 (all of it)."""
    game = deployed()
    view = game.view()
    models = [m for m in view.models if m.cell is not None and not m.removed]
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        await wait_for(pilot, lambda: field.cell_width == 1, "the 1:1 map")
        assert ZOOMS[ONE_TO_ONE] == (1, 1, 1, 1) and (field.across, field.down) == (1, 1)
        assert not all(on_screen(field, m.cell) for m in models if m.cell)  # the defect
        await press_until(pilot, "minus", lambda: field.across == 2)
        await pilot.pause()
        assert (field.down, field.virtual_size) == (2, (36, 24))
        await press_until(pilot, "minus", lambda: field.down == 3)
        await pilot.pause()
        assert field.virtual_size == (36, 16) and field.scroll_offset == (0, 0)
        for model in models:  # every model's block shows a model of its side
            assert model.cell is not None and on_screen(field, model.cell)
            block = _cells(field, model.cell)
            glyphs = {m.glyph[:1] for m in models if m.cell in block}
            assert char_at(pilot, field, model.cell) in glyphs, model.id
            text = drawn(field, model.cell).text
            assert text.endswith(UNDERLINE) == (model.player == 1), model.id
        sides = {m.player for m in models if m.cell and on_screen(field, m.cell)}
        assert sides == {0, 1}
        placed = [
            o for o in view.objectives if not any(m.cell in _cells(field, o.cell) for m in models)
        ]
        assert [o.name for o in view.objectives] == ["O1", "O2"] and placed
        for objective in placed:
            assert char_at(pilot, field, objective.cell) == objective.name[-1]


def _block(field: Battlefield, cell: Cell) -> tuple[int, int, int, int]:
    """``block_cells``' arguments for the block holding ``cell``."""
    line = (field.board.height - 1 - cell.y) // field.down
    return cell.x // field.across, line, field.across, field.down


def _cells(field: Battlefield, cell: Cell) -> list[Cell]:
    return block_cells(field.board, *_block(field, cell))


async def test_the_cursor_moves_cell_by_cell_and_the_view_follows(saves_dir: Path) -> None:
    """On the 2x2 overview the cursor's block is lit and the status line names the cell
    itself (two cells share a character); walking north scrolls the map; ``+`` zooms
    back in to one character a cell with the cursor still in view."""
    game = deployed()
    enemy = max(
        (m for m in game.view().models if m.player == 1 and m.cell is not None),
        key=lambda m: (m.cell.y if m.cell else 0, m.id),
    )
    assert enemy.cell is not None
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        await press_until(pilot, "minus", lambda: field.across == 2)
        field.focus()
        await walk_cursor(pilot, lambda: field.cursor, Cell(0, 0))
        await pilot.pause()
        assert field.scroll_offset.y == 2 and on_screen(field, Cell(0, 0))  # the south edge
        cursor = field.get_component_rich_style("battlefield--cursor", partial=True).bgcolor
        await walk_cursor(pilot, lambda: field.cursor, enemy.cell)
        await pilot.pause()
        assert on_screen(field, enemy.cell) and bg(field, enemy.cell) == cursor
        assert status(pilot).startswith(f"{enemy.cell} ") and enemy.name in status(pilot)
        (_, line), x = block_of(field, enemy.cell), enemy.cell.x
        mate = next(c for c in _cells(field, enemy.cell) if c.y != enemy.cell.y)
        await walk_cursor(pilot, lambda: field.cursor, Cell(x, mate.y))  # one cell, one key
        assert block_of(field, field.cursor)[1] == line  # the same character, still lit
        assert bg(field, enemy.cell) == cursor
        assert status(pilot).startswith(f"{Cell(x, mate.y)} ")  # the cell, not its block
        here = field.cursor  # and the block shows that cell, as Enter would pick it
        look = cell_text(
            field.board, here, 1, model=field.model_at(here), objective=field.objective_at(here),
            feature=field.feature_at(here), narrow_marks=True,
        )  # fmt: skip
        assert drawn(field, here).text == look
        away = Cell(x, enemy.cell.y - 2 if mate.y > enemy.cell.y else enemy.cell.y + 2)
        await walk_cursor(pilot, lambda: field.cursor, away)  # the next block
        assert block_of(field, away)[1] != line
        assert bg(field, enemy.cell) != cursor
        assert bg(field, away) == cursor
        await walk_cursor(pilot, lambda: field.cursor, Cell(enemy.cell.x, 47))  # north edge
        await pilot.pause()
        assert field.scroll_offset.y == 0 and on_screen(field, field.cursor)
        assert status(pilot).startswith(f"{Cell(x, 47)} ")
        await press_until(pilot, "M", lambda: isinstance(pilot.app.screen, InfoScreen))
        legend = pilot.app.screen
        assert isinstance(legend, InfoScreen)
        assert "a character shows 2x2 cells: a model there" in legend.body.plain
        await press_until(pilot, "M", lambda: pilot.app.screen is screen)
        await press_until(pilot, "plus", lambda: field.across == 1)
        await pilot.pause()
        assert field.cell_width == 1 and on_screen(field, field.cursor)


async def test_the_sight_tint_lights_every_block_with_a_cell_the_model_sees(
    saves_dir: Path,
) -> None:
    """``v`` on the 2x3 overview: a block is tinted exactly when the selected model sees
    one of its cells (the engine's line of sight), as at 1:1 cell by cell."""
    game = deployed()
    model = next(m for m in game.view().models if m.player == 0 and m.cell is not None)
    assert model.cell is not None
    seen = visible_cells(game.board, model.cell)
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        await press_until(pilot, "minus", lambda: field.across == 2)
        await press_until(pilot, "minus", lambda: field.down == 3)
        field.focus()
        await walk_cursor(pilot, lambda: field.cursor, model.cell)
        sight = field.get_component_rich_style("battlefield--sight", partial=True).bgcolor
        await press_until(pilot, "v", lambda: bg(field, Cell(36, 24)) == sight)
        lit = field._options | {field.cursor}  # drawn over the tint
        some = none = 0
        for line in range(16):
            for column in range(36):
                cells = block_cells(field.board, column, line, 2, 3)
                if lit & set(cells) or field._subject in cells:
                    continue
                tinted = bg(field, cells[0]) == sight
                assert tinted == any(c in seen for c in cells), cells
                some, none = some + tinted, none + (not tinted)
        assert some > 100 and none > 10  # walls hide some of the table


def test_a_block_shows_its_most_important_cell() -> None:
    """A model (the cursor's first), then an objective, a lit cell, walls, other terrain,
    open ground; blocks at the east and south edges hold fewer cells."""
    board = load_scenario(ROOT / "scenarios" / "wh40k6-open-war.toml").board
    assert (board.width, board.height) == (72, 48)
    assert block_cells(board, 0, 0, 2, 3) == [
        Cell(0, 47), Cell(1, 47), Cell(0, 46), Cell(1, 46), Cell(0, 45), Cell(1, 45)
    ]  # fmt: skip
    assert block_cells(board, 35, 15, 2, 3) == [Cell(70, 2), Cell(71, 2)] + [
        Cell(x, y) for y in (1, 0) for x in (70, 71)
    ]
    rock = next(c for c in board.cells() if board.kind(c) is Terrain.IMPASSABLE)
    block = [rock, Cell(rock.x + 1, rock.y), Cell(rock.x, rock.y - 1), Cell(rock.x + 1, rock.y - 1)]
    a, b, c, d = block
    none: frozenset[Cell] = frozenset()

    def shown(**kw: Any) -> Cell:
        args = {"models": none, "objectives": none, "options": none, "features": {}} | kw
        return shown_cell(board, block, **args)

    open_cells = [x for x in block if board.kind(x) is Terrain.OPEN]
    assert shown() == rock
    if open_cells:
        assert shown(options={open_cells[0]}) == open_cells[0]
    assert shown(options={a}, objectives={b}) == b
    assert shown(objectives={b}, models={c, d}) == c
    assert shown(objectives={b}, models={c, d}, first=(d,)) == d
    assert shown(models={c}, first=(None, d)) == c  # the cursor's cell, if it has a model


async def test_a_click_on_the_overview_puts_the_cursor_on_the_model_drawn_there(
    saves_dir: Path,
) -> None:
    """A character is several cells: a click moves the cursor onto the one it shows (the
    enemy model clicked on, named by the status line) and chooses nothing."""
    game = deployed()
    enemy = next(m for m in game.view().models if m.player == 1 and m.cell is not None)
    assert enemy.cell is not None
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        await press_until(pilot, "minus", lambda: field.across == 2)
        await press_until(pilot, "minus", lambda: field.down == 3)
        await pilot.pause()
        block = _cells(field, enemy.cell)
        glyph = char_at(pilot, field, enemy.cell)
        before = len(game.choices)
        await pilot.click(Battlefield, offset=block_of(field, enemy.cell))
        await wait_for(pilot, lambda: field.cursor in block, "the cursor in the block")
        await pilot.pause()
        model = field.model_at(field.cursor)
        assert model is not None and model.player == 1 and model.glyph[:1] == glyph
        assert status(pilot).startswith(f"{field.cursor} ") and model.name in status(pilot)
        assert char_at(pilot, field, enemy.cell) == glyph  # the block still shows it
        assert len(game.choices) == before


async def test_an_apocalypse_overview_keeps_the_log_beside_it(saves_dir: Path) -> None:
    """Apocalypse's 48x32 table at 80x24: 1:1 scrolls, the 2x2 overview (24x16) shows it
    whole; at 2x3 (24x11) the rows under it stay empty rather than take a log 24 columns
    wide (the log stays in the right column, as wide as it was)."""
    game = played_to("apocalypse-crossing", "Secret order")
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HandOverScreen), "a cover")
        await past_handover(pilot, "enter")  # the orders are secret
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        await wait_for(pilot, lambda: field.size.height > 0, "the map")
        log = screen.query_one(LogPanel)
        assert field.cell_width == 1 and field.virtual_size == (48, 32)
        width = log.size.width
        await press_until(pilot, "minus", lambda: field.across == 2)
        await pilot.pause()
        assert field.virtual_size == (24, 16) and field.scroll_offset == (0, 0)
        await press_until(pilot, "minus", lambda: field.down == 3)
        await pilot.pause()
        assert field.virtual_size == (24, 11)
        log = screen.query_one(LogPanel)
        assert log.parent is not None and log.parent.id == "game-right"
        assert log.size.width >= width


async def told(scenario: str, size: tuple[int, int], saves_dir: Path) -> list[str]:
    """The notices a new game of ``scenario`` shows at ``size`` once on screen."""
    game = Game(load_scenario(ROOT / "scenarios" / f"{scenario}.toml"), 1)
    app = app_at(game, saves_dir)
    async with app.run_test(size=size, notifications=True) as pilot:
        await opened_game(pilot)
        await pilot.pause()
        return [str(n.message) for n in app._notifications]


HINT = "The table is bigger than the screen:\n- shows all of it, + zooms in."
"""The notice that ``-`` shows the whole table (its lines fit over the map at 80x24)."""


async def test_a_table_bigger_than_the_screen_says_minus_shows_all_of_it(
    saves_dir: Path,
) -> None:
    """Played at 80x24: only the help named '-', and a new player scrolled about looking
    for the Horde; a table that fits says nothing."""
    hint = HINT
    assert (await told("wh40k6-open-war", (80, 24), saves_dir)).count(hint) == 1
    assert hint not in await told("wh40k6-open-war", (200, 60), saves_dir)
    assert hint not in await told("killteam-crossroads", (80, 24), saves_dir)


async def test_the_table_notice_leaves_the_status_line_and_the_prompt_in_view(
    saves_dir: Path,
) -> None:
    """Played at 80x24: the notice docked over the status line for five seconds at the
    start, hiding its "Enter: ..." hint; now it sits over the map's foot, all its words
    on screen, the status line and the decision panel's prompt whole beside it."""
    game = Game(load_scenario(ROOT / "scenarios" / "wh40k6-open-war.toml"), 1)
    app = app_at(game, saves_dir)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await opened_game(pilot)
        await wait_for(pilot, lambda: bool(app._notifications), "the notice")
        await pilot.pause()
        status = screen.query_one(StatusLine)
        lines = screen_lines(pilot)
        said = str(status.render()).strip()
        assert said and said in lines[status.region.y]
        prompt = screen.decision_panel.prompt
        assert "Agree on the mission or roll?" in lines[prompt.region.y]
        for words in HINT.split("\n"):
            assert any(words in line[: screen.battlefield.region.right] for line in lines)


CLOSE_COMBAT = """scenario = "wh40k6-open-war.toml"
round = 2
phase = "Movement"

[wh40k6]
player = 1

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [30, 10] }, { cell = [29, 10] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [
  { cell = [31, 10] }, { cell = [31, 11] }, { cell = [32, 10] }, { cell = [32, 11] },
  { cell = [33, 10] }, { cell = [33, 11] }, { cell = [34, 10] }, { cell = [34, 11] },
]
"""


async def test_a_block_holding_both_sides_shows_the_fight(tmp_path: Path) -> None:
    """One side's letter alone hid a close combat on the overview: a block with models of
    both sides shows ×; a block of one side keeps its letter; the cursor's block shows the
    cursor's own cell."""
    path = tmp_path / "fight.toml"
    path.write_text(CLOSE_COMBAT)
    app = make_app(position=path, seed=3, saves_dir=tmp_path / "saves")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        await send_key(pilot, "tab")  # from the list of models to the board
        await walk_cursor(pilot, lambda: field.cursor, Cell(20, 20))
        await send_key(pilot, "minus")
        await wait_for(pilot, lambda: (field.across, field.down) == (2, 2), "the overview")
        await pilot.pause()
        assert char_at(pilot, field, Cell(30, 10)) == "×"  # (30,10) and (31,10)
        assert char_at(pilot, field, Cell(28, 10)) not in ("×", ".")  # (29,10): wardens
        assert char_at(pilot, field, Cell(32, 10)) not in ("×", ".")  # the mob alone
        await walk_cursor(pilot, lambda: field.cursor, Cell(31, 10))
        await pilot.pause()
        assert char_at(pilot, field, Cell(31, 10)) not in ("×", ".")
