"""Pure render helpers, checked as plain text (rich's Console-to-string idiom, no SVG)."""

from __future__ import annotations

import io
import os
from dataclasses import replace
from datetime import datetime
from fractions import Fraction
from pathlib import Path

from rich.console import Console, RenderableType

from engine.board import Cell, Terrain
from engine.decisions import Decision, DecisionKind, Odds, Option
from engine.dice import Dice, Roll
from engine.events import Event
from engine.game import Game
from engine.save import write_save
from engine.scenario import load_scenario
from engine.view import GameView, ModelView, SideView
from tests.tui.conftest import CROSSROADS
from tui.cells import (
    ONE_TO_ONE,
    OPTION_CHAR,
    RAISED_CHAR,
    TERRAIN_CHAR,
    ZOOMS,
    cell_lines,
    cell_text,
    describe_cell,
    render_rows,
)
from tui.option_keys import keyed_options
from tui.placement import auto_zoom, hop, map_columns, start_cell
from tui.saves import latest_entry, new_save_path, unchanged
from tui.text import (
    MORE,
    SHORT_MORE,
    decision_hint,
    log_lines,
    model_text,
    option_text,
    phase_text,
    roll_text,
    side_lines,
)


def render(renderable: RenderableType, width: int = 60) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    console.print(renderable)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def model(mid: str, player: int, glyph: str, cell: Cell | None) -> ModelView:
    return ModelView(
        mid,
        player,
        f"{mid} Trooper",
        glyph,
        cell,
        1,
        1,
        ("ready",),
        (("M", '6"'), ("BS", "4+")),
        ('Lasgun: 24" Rapid Fire 1',),
    )


def test_the_battlefield_as_text_rows_north_first() -> None:
    board = load_scenario(CROSSROADS).board
    rows = render_rows(board, [model("A1", 0, "t", Cell(7, 0)), model("B1", 1, "g", Cell(0, 21))])
    assert len(rows) == board.height and all(len(r) == board.width for r in rows)
    assert rows[0].startswith("g.....")  # north-west corner, y = 21
    assert rows[-1][7] == "t"
    assert rows[11][7] == "1"  # objective O1 at (7,10)
    assert rows[8].startswith("..^^^")  # the ruin platform, 3" high
    assert "####" in rows[13]


def test_wide_cells_show_heights_and_objective_names() -> None:
    board = load_scenario(CROSSROADS).board
    assert cell_text(board, Cell(2, 13), 2) == "^3"
    assert cell_text(board, Cell(7, 10), 2, objective="O1") == "O1"
    assert cell_text(board, Cell(0, 0), 2, option=True) == "+ "
    assert cell_text(board, Cell(0, 0), 1) == "."
    assert describe_cell(board, Cell(2, 13)) == '(2,13) cover, 3" high'


def test_sides_differ_by_a_mark_not_only_by_case() -> None:
    board = load_scenario(CROSSROADS).board
    sergeant, scrapling = model("A1", 0, "S", Cell(7, 0)), model("B1", 1, "s", Cell(0, 21))
    assert cell_text(board, Cell(7, 0), 2, model=sergeant) == "S'"
    assert cell_text(board, Cell(0, 21), 2, model=scrapling) == 's"'
    # One character per cell has no room for the mark: seat 2 is drawn in reverse video.
    assert cell_text(board, Cell(7, 0), 1, model=sergeant) == "S"


def test_zoomed_cells_are_blocks_with_the_text_centred() -> None:
    board = load_scenario(CROSSROADS).board
    sergeant = model("A1", 0, "S", Cell(7, 0))
    assert cell_lines(board, Cell(7, 0), 4, 2, model=sergeant) == (" S' ", " A1 ")
    assert cell_lines(board, Cell(7, 0), 6, 3, model=sergeant) == ("      ", "  S'  ", "  A1  ")
    assert cell_lines(board, Cell(7, 10), 4, 2, objective="O1") == (" O1 ", "    ")
    assert cell_lines(board, Cell(0, 0), 4, 2) == (" .  ", "    ")
    wall = next(c for c in board.cells() if board.kind(c) is Terrain.BLOCKING)
    assert cell_lines(board, wall, 4, 2) == ("####", "####")
    rows = render_rows(board, [sergeant], width=4, height=2)
    assert len(rows) == 2 * board.height and all(len(r) == 4 * board.width for r in rows)
    assert rows[-2][28:32] == " S' " and rows[-1][28:32] == " A1 "


def test_option_lines_carry_their_key_and_odds() -> None:
    odds = Odds(Fraction(2, 3), Fraction(1, 3), Fraction(1, 6), Fraction(1, 12))
    line = option_text("1", Option("B1", "Shoot B1", odds=odds)).plain
    assert line == "1 Shoot B1  [hit 67%, wound 33%, unsaved 17%, slay 8%]"
    assert option_text("a", Option("y", "Eleventh")).plain == "a Eleventh"
    assert option_text("", Option("c", "(3,4)")).plain == "  (3,4)"


def test_every_listed_option_has_a_key_and_ending_ones_come_last_on_e() -> None:
    # Confrontation's declare list: nine charges, common actions, a tenth option and
    # "Nothing" (0, whatever the list's length).
    charges = tuple(Option(f"charge:{n}", f"Charge E{n}") for n in range(9))
    end = Option("end", "End the Movement phase", ends=True)
    nothing = Option("nothing", "Nothing", neutral=True)
    rest = (Option("common", "Common actions"), nothing, Option("wait", "Wait"))
    decision = Decision(0, DecisionKind.PICK_OPTION, "Declare", (end, *charges, *rest))
    rows = keyed_options(decision)
    assert [r.key for r in rows] == [*"123456789", "a", "b", "0", "e"]
    assert rows[-1].option == end and rows[0].option.key == "charge:0"
    assert rows[-2].option == nothing


def test_yes_no_hint_never_contradicts_its_options() -> None:
    # Confrontation's tactical re-roll: option 1 is "Stop", so no "1 = yes" above it.
    stop = Option("no", "Stop (already successful)")
    decision = Decision(0, DecisionKind.YES_NO, "Re-roll the 6?", (stop, Option("yes", "Re-roll")))
    assert "yes" not in decision_hint(decision)
    assert decision_hint(decision) == "Press its key, or arrows and Enter."


def test_hints_follow_the_kind_of_decision() -> None:
    cells = Decision(0, DecisionKind.PICK_MODEL, "Pick", (Option("A1", "A1", cell=Cell(1, 1)),))
    listed = Decision(0, DecisionKind.PICK_MODEL, "Pick", (Option("A1", "A1"),))
    place = Decision(0, DecisionKind.PICK_CELL, "Place", (Option("1,1", "(1,1)", cell=Cell(1, 1)),))
    assert "cursor" in decision_hint(cells)
    assert "arrows" in decision_hint(listed)
    assert decision_hint(place) == "Cursor to a + cell, then Enter (or click it)."
    assert [r.key for r in keyed_options(place)] == [""]


def test_phase_panel_names_who_decides_and_tabulates_resources() -> None:
    sides = (SideView(0, "Militia", (("CP", "3"),), 1), SideView(1, "Reavers", (("CP", "0"),)))
    view = GameView(2, "Shooting", "Fire at will", sides, ())
    decision = Decision(1, DecisionKind.YES_NO, "Overwatch?", (Option("yes", "Yes"),))
    text = render(phase_text(view, decision, ("Ann", "Bob")))
    assert text.splitlines()[0] == "Round 2 · Shooting · Fire at will"
    assert text.splitlines()[1] == "▶ Bob (Reavers) decides"
    assert "Militia" in text and "CP" in text
    computer = render(phase_text(view, decision, ("Ann", "Computer (normal)")))
    assert computer.splitlines()[1] == "▶ Computer (normal, Reavers) decides"


def test_model_panel_lists_profile_states_and_weapons() -> None:
    text = model_text(model("A1", 0, "t", Cell(3, 4))).plain
    assert text.splitlines() == [
        "[t] A1 Trooper — W 1/1 at (3,4)",
        "ready",
        'M 6" BS 4+',
        '• Lasgun: 24" Rapid Fire 1',
    ]
    noted = replace(model("A2", 0, "H", None), notes=('Fast: flat out 12"', "Transport"))
    assert model_text(noted).plain.splitlines()[-2:] == ['Fast: flat out 12"', "Transport"]


def test_log_puts_each_roll_right_after_the_event_that_caused_it() -> None:
    rolls = [Roll(0, 0, "initiative", "1D6", (4,)), Roll(1, 1, "initiative", "1D6", (2,))]
    events = [
        Event("PhaseStarted", "Round 1: Initiative phase", rolls=0),
        Event("InitiativeWon", "Militia has the initiative", {"player": 0}, rolls=2),
    ]
    lines = [t.plain for t in log_lines(rolls, events, ("Militia", "Reavers"))]
    assert lines == [
        "Round 1: Initiative phase",
        "Militia rolled 1D6 for initiative: 4",
        "Reavers rolled 1D6 for initiative: 2",
        "Militia has the initiative",
    ]
    assert roll_text(Roll(2, -1, "scatter", "2D6", (1, 6)), ()).plain == (
        "Dice rolled 2D6 for scatter: 1, 6"
    )


def test_save_names_are_unique_and_continue_skips_finished_games(tmp_path: Path) -> None:
    now = datetime(2024, 5, 1, 12, 0, 0)
    first = new_save_path(tmp_path, "Hold the Crossroads", now)
    assert first.name == "hold-the-crossroads-20240501-120000.wargrid"
    first.touch()
    assert new_save_path(tmp_path, "Hold the Crossroads", now).name.endswith("-2.wargrid")
    first.unlink()
    assert latest_entry(tmp_path) is None
    game = Game(load_scenario(CROSSROADS), 3)
    write_save(game, tmp_path / "a.wargrid")
    entry = latest_entry(tmp_path)
    assert entry is not None and entry.path == tmp_path / "a.wargrid"
    assert unchanged(entry)
    write_save(game, tmp_path / "a.wargrid")  # written again since the menu read it
    os.utime(entry.path, ns=(0, 10**18))
    assert not unchanged(entry)


def test_the_cursor_starts_on_the_mover_and_hops_between_lit_cells() -> None:
    board = load_scenario(CROSSROADS).board
    cells = (Cell(3, 3), Cell(3, 4), Cell(4, 4))
    move = Decision(
        0,
        DecisionKind.PICK_CELL,
        "Move",
        tuple(Option(f"{c.x},{c.y}", str(c), cell=c) for c in cells),
        subject="A1",
    )
    view = GameView(
        1, "Movement", "", (SideView(0, "A"), SideView(1, "B")), (model("A1", 0, "t", Cell(3, 4)),)
    )
    assert start_cell(move, view) == Cell(3, 4)  # "stay" is an option: start there
    assert hop(move, Cell(3, 4), 1) == Cell(4, 4)
    assert hop(move, Cell(4, 4), 1) == Cell(3, 3)
    assert hop(move, Cell(0, 0), -1) == Cell(3, 3)  # from an unlit cell: the nearest lit one
    assert hop(move, Cell(9, 4), 1) == Cell(4, 4)
    one = ONE_TO_ONE  # the overview levels below it are the players' choice only
    assert ZOOMS[one] == (1, 1, 1, 1)
    assert (auto_zoom(board, 80, 24), map_columns(board, 80, 24, one)) == (one, 30)
    assert (auto_zoom(board, 120, 40), map_columns(board, 120, 40, one + 1)) == (one + 1, 60)
    # 200x60: 4x2 cells (120x44) fit beside the panels; 6x3 would not.
    assert (auto_zoom(board, 200, 60), map_columns(board, 200, 60, one + 2)) == (one + 2, 120)
    assert map_columns(board, 80, 20, one) == 31  # taller than the screen: a scrollbar
    assert map_columns(board, 80, 24, one + 3) == 40  # zoomed in by hand: the panels keep 40
    # Zoomed out to the overviews (2x2 and 2x3 cells a character): 15x11 and 15x8.
    assert [ZOOMS[z].size(board) for z in range(one)] == [(15, 8), (15, 11)]
    assert map_columns(board, 80, 24, one - 1) == 15


def test_a_dice_line_says_what_the_roll_needed_and_how_it_read() -> None:
    from engine.checks import Check, Modifier

    check = Check("hit", 4, "BS 4+", (Modifier(-1, "long range"),), words=("hit", "miss"))
    roll = Dice.scripted([4]).roll(1, player=0, reason="hit rolls vs B8", check=check)
    assert roll_text(roll, ("Militia", "Reavers")).plain == (
        "Militia rolled 1D6 for hit rolls vs B8: 4 vs 5+ (BS 4+, -1 long range): miss"
    )


def test_no_model_of_a_shipped_scenario_looks_like_terrain() -> None:
    """Playtest 2: Outriders drawn "o" like cover, Colossi "X" like impassable ground."""
    reserved = {*TERRAIN_CHAR.values(), RAISED_CHAR, OPTION_CHAR}
    for path in sorted((Path(__file__).parents[2] / "scenarios").glob("*.toml")):
        view = Game(load_scenario(path), 1).view()
        clash = {m.glyph for m in view.models} & reserved
        assert not clash, f"{path.name}: models drawn as {sorted(clash)}"
        terrain = {f.glyph for f in view.terrain}
        assert not {m.glyph for m in view.models} & terrain, path.name


def test_a_side_line_keeps_the_score_however_narrow() -> None:
    """At 80x24 an Apocalypse side with 12 VP lost its score from the line; the
    resources that do not fit go to the D sheet, the score stays."""
    resources = (("Initiative", "yes"), ("Units", "7/9"), ("Assets", "2 in hand"))
    sides = (
        SideView(0, "Ironclad Legion", resources, 0),
        SideView(1, "Scrap Horde", resources, 12),
    )
    for width in (30, 38, 39, 40):
        lines = [line.plain for line in side_lines(sides, width)]
        assert lines[0].startswith("Ironclad Legion · VP 0 ·"), (width, lines)
        assert lines[1].startswith("Scrap Horde · VP 12 ·"), (width, lines)
        more = MORE if width >= 39 else SHORT_MORE  # "Ironclad Legion · VP 12" is 23
        assert all(line.endswith(more) for line in lines), (width, lines)
    wide = [line.plain for line in side_lines(sides, 200)]
    assert wide[1] == "Scrap Horde · VP 12 · Initiative yes · Units 7/9 · Assets 2 in hand"
