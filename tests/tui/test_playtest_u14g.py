"""Controls and layout leftovers of the new-player playtests (issue #14): each test
presses the keys a player pressed and reads the screen."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from engine.board import Cell
from engine.decisions import Option
from engine.game import Game
from engine.position import position_from_data
from engine.save import write_save
from engine.scenario import load_scenario
from tests.tui.keys import send_key, wait_for, walk_cursor
from tests.tui.play import game_screen, opened_game
from tests.tui.test_input import advanced, listed, notice
from tests.tui.test_log import past_handover
from tests.tui.test_playtest_u14b import shown
from tests.tui.test_playtest_u14c import app_at, played_to
from tui.app import make_app
from tui.battlefield import Battlefield
from tui.game_screen import GameScreen
from tui.info import InfoScreen
from tui.log_panel import LogPanel
from tui.menu import MainMenu
from tui.modals import HandOverScreen
from tui.new_game import SavesScreen
from tui.option_keys import option_for_key
from tui.panels import KeyBar, ModelPanel, StatusLine
from tui.settings import Settings, load_settings
from tui.settings_screen import SettingsScreen

CONF_CASES = Path(__file__).parents[1] / "cases" / "confrontation"
SCENARIOS = Path(__file__).parents[2] / "scenarios"


def status(screen: GameScreen) -> str:
    """The status line under the board, as plain text."""
    return str(screen.query_one(StatusLine).render())


async def test_esc_cancels_a_refused_key_and_never_undoes_a_choice(saves_dir: Path) -> None:
    """Played: Esc pressed to get out of a refused key took back the last placement (Esc
    was undo). Esc only cancels; u undoes, and the key bar says so."""
    game = played_to("killteam-crossroads", "Deployment: place")
    made = len(game.choices)
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        assert " u  undo " in str(screen.query_one(KeyBar).render())
        await send_key(pilot, "1")  # digits never pick a cell: refused
        await wait_for(pilot, lambda: "digits never choose a cell" in notice(screen))
        await send_key(pilot, "escape")
        await wait_for(pilot, lambda: "u undoes your last choice" in status(screen), "Esc")
        assert "digits never" not in notice(screen)
        await send_key(pilot, "escape")  # again: still no undo
        await wait_for(pilot, lambda: "Nothing to cancel" in status(screen))
        assert len(screen.game.choices) == made
        assert screen.battlefield.has_focus
        await send_key(pilot, "u")
        await wait_for(pilot, lambda: len(screen.game.choices) == made - 1, "the undo")


async def test_esc_from_the_option_list_goes_back_to_the_board(saves_dir: Path) -> None:
    """Tab to the list of a cell picker, then Esc: back on the board, nothing undone."""
    game = played_to("killteam-crossroads", "Deployment: place")
    made = len(game.choices)
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        await wait_for(pilot, lambda: field.has_focus, "the board")
        await send_key(pilot, "tab")
        await wait_for(pilot, lambda: screen.decision_panel.option_list.has_focus, "the list")
        await send_key(pilot, "escape")
        await wait_for(pilot, lambda: field.has_focus, "the board again")
        assert "Cancelled" in status(screen)
        assert len(screen.game.choices) == made


def after_a_note() -> tuple[Game, Option]:
    """Confrontation at a declaration just after "Done for you: ... last fighter of the
    card", and the option 1 picks there."""
    game = advanced(
        "confrontation-crossing",
        2,
        lambda d: (
            any("last fighter of the card" in n for n in d.notes)
            and option_for_key(d, "1") is not None
        ),
    )
    assert game.pending is not None
    first = option_for_key(game.pending, "1")
    assert first is not None
    return game, first


async def test_a_key_pressed_after_a_note_is_read_answers_at_once(saves_dir: Path) -> None:
    """Played (Confrontation): after "Done for you: ... last fighter of the card", every
    first digit only pointed ("1 now picks ..."), so each habitual key was pressed twice.
    A key pressed once the prompt is on screen answers it; only a key typed before the
    prompt appeared (meant for the one answered by itself) is held."""
    game, first = after_a_note()
    early = events.Key("1", "1")  # pressed before the prompt was shown
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: "Done for you" in notice(screen), "the note")
        made = len(screen.game.choices)
        driver = pilot.app._driver
        assert driver is not None
        early.set_sender(pilot.app)
        driver.send_message(early)
        await wait_for(pilot, lambda: "1 now picks" in notice(screen), "the pointer")
        assert len(screen.game.choices) == made
        await send_key(pilot, "1")  # pressed with the prompt on screen
        await wait_for(pilot, lambda: len(screen.game.choices) == made + 1, "the choice")
        assert screen.game.choices[-1].key == first.key


async def test_a_first_key_after_a_note_takes_its_option(saves_dir: Path) -> None:
    """The same prompt, its note read: one press of 1 takes option 1."""
    game, first = after_a_note()
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: "Done for you" in notice(screen), "the note")
        made = len(screen.game.choices)
        await send_key(pilot, "1")
        await wait_for(pilot, lambda: len(screen.game.choices) == made + 1, "the choice")
        assert screen.game.choices[-1].key == first.key
        assert "now picks" not in notice(screen)


async def test_wh40k6_at_200x60_gives_the_rows_under_the_map_to_the_log_and_the_card(
    saves_dir: Path,
) -> None:
    """Played at 200x60: about 10 empty rows under the 72x48 map, while the Lexicar's
    card beside it was cut ("… more: press I")."""
    game = played_to("wh40k6-emperors-will", "Which unit moves next")
    lexicar = game.view().model("A1.1")
    assert lexicar is not None and lexicar.cell is not None
    async with app_at(game, saves_dir).run_test(size=(200, 60)) as pilot:
        screen = await opened_game(pilot)
        await wait_for(pilot, lambda: bool(screen.query("#game-left LogPanel")), "the log")
        log = screen.query_one(LogPanel)
        field = screen.query_one(Battlefield)
        field.focus()
        await walk_cursor(pilot, lambda: field.cursor, lexicar.cell)
        card = screen.query_one(ModelPanel)
        await wait_for(pilot, lambda: "Warden Lexicar" in str(card.content), "the card")
        await pilot.pause()
        shown = str(card.content)
        assert "Psyker: manifests psychic powers" in shown and "more: press I" not in shown
        assert log.region.y >= field.region.bottom  # under the map, using its rows
        assert log.region.height >= 6


async def menu_note(pilot: Pilot[Any]) -> Static:
    """The main menu's note, once it names the last game."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
    note = app.screen.query_one("#menu-note", Static)
    await wait_for(pilot, lambda: "last played" in str(note.content), "the note")
    return note


async def test_the_menu_names_the_deployment_phase_of_the_last_game(saves_dir: Path) -> None:
    """Played at 80x24: left during Kill Team's deployment, the menu's note said "setting
    up" (and so did Load), where the game stood in its Deployment phase."""
    game = played_to("killteam-crossroads", "Deployment: place")
    write_save(game, saves_dir / "deploying.wargrid")
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        note = await menu_note(pilot)
        assert "Deployment, before round 1" in str(note.content)
        assert "setting up" not in str(note.content)
        await send_key(pilot, "l")
        await wait_for(pilot, lambda: isinstance(app.screen, SavesScreen), "the saves")
        saves = app.screen
        assert isinstance(saves, SavesScreen)
        await wait_for(pilot, lambda: len(saves.entries) == 1)
        line = str(saves.query_one("#saves-list", OptionList).get_option_at_index(0).prompt)
        assert "Deployment, before round 1" in line


async def test_each_setting_has_its_letter(saves_dir: Path) -> None:
    """Played at 80x24 and 200x60: the settings could only be reached with the arrows
    (the main menu has a letter per entry), and at 200x60 the list filled the screen."""
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(200, 60)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await send_key(pilot, "s")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SettingsScreen) and bool(app.screen.query(OptionList)),
            "the settings",
        )
        rows = app.screen.query_one("#settings-list", OptionList)
        await wait_for(pilot, lambda: rows.option_count == 5, "the settings")
        labels = [str(rows.get_option_at_index(i).prompt) for i in range(5)]
        assert [label[:4] for label in labels] == ["[i] ", "[f] ", "[n] ", "[s] ", "[h] "]
        assert rows.region.height <= 12  # the list as tall as its rows, not the screen
        await send_key(pilot, "s")
        await wait_for(pilot, lambda: "[s] (•) Computer's pace: slow" in row_text(rows, 3))
        await send_key(pilot, "h")
        await wait_for(pilot, lambda: "[h] [ ] Hand-over" in row_text(rows, 4))
    assert load_settings(saves_dir) == Settings(handover=False, pace="slow")


def row_text(rows: OptionList, index: int) -> str:
    """One row of an option list, as shown."""
    return str(rows.get_option_at_index(index).prompt)


async def test_apocalypse_at_the_smallest_zoom_tells_the_two_ks_apart_without_colour(
    saves_dir: Path,
) -> None:
    """Played at 80x24 (one character a cell): the Legion's Battle Tank and the Horde's
    Scrap Walker were both drawn K, told apart by colour (and reverse video) only."""
    game = played_to("apocalypse-crossing", "Secret order")
    view = game.view()
    ks = {m.player: m for m in view.models if m.glyph == "K" and m.cell is not None}
    assert set(ks) == {0, 1}
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HandOverScreen), "a cover")
        await past_handover(pilot, "enter")  # the orders are secret
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        assert field.cell_width == 1
        field.focus()
        await wait_for(pilot, lambda: field.has_focus, "the board")
        drawn: dict[int, str] = {}
        for seat, model in ks.items():
            cell = model.cell
            assert cell is not None
            await walk_cursor(pilot, lambda: field.cursor, Cell(0, cell.y))  # in view
            await pilot.pause()
            row = field.board.height - 1 - cell.y - round(field.scroll_y)
            cells = re.findall(".\u0332?", field.render_line(row).text)
            drawn[seat] = cells[cell.x - round(field.scroll_x)]
        assert drawn == {0: "K", 1: "K\u0332"}
        await send_key(pilot, "M")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, InfoScreen), "the legend")
        legend = pilot.app.screen
        assert isinstance(legend, InfoScreen)
        assert "Scrap Horde (seat 2): letter underlined" in legend.body.plain
        assert "K\u0332   Scrap Walker" in legend.body.plain


SHARED_CHARGE: dict[str, Any] = {
    "scenario": "confrontation-crossing.toml",
    "round": 1,
    "phase": "Activation",
    "confrontation": {
        "tactical_winner": 1,
        "decks": [["A2"], ["B2", "B3"]],
        "fighters": [
            {"player": 1, "profile": "spearman", "card": "A2", "cell": [14, 21]},
            {"player": 1, "profile": "spearman", "card": "A2", "cell": [16, 21]},
            # B2.1 is hemmed in by its mates: (15,24) is its only free contact cell.
            {"player": 2, "profile": "cutthroat", "card": "B2", "cell": [15, 25]},
            {"player": 2, "profile": "cutthroat", "card": "B2", "cell": [14, 25]},
            {"player": 2, "profile": "cutthroat", "card": "B2", "cell": [16, 25]},
            {"player": 2, "profile": "cutthroat", "card": "B3", "cell": [15, 26]},
        ],
    },
}
"""Two Lantern spearmen of one card, and a cutthroat with one free contact cell."""


async def test_a_second_charge_at_a_hemmed_in_fighter_does_not_say_100_percent(
    saves_dir: Path,
) -> None:
    """Played (Confrontation): both spearmen of a card declared a charge at the same
    cutthroat, each shown "charge succeeds 100%"; it had one free contact cell, so the
    charge resolved second fell short."""
    position = position_from_data(SHARED_CHARGE, "shared-charge", "", base=CONF_CASES)
    game = Game(position.scenario, 5, position=position)
    game.choose_key("me")
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        await wait_for(pilot, lambda: "Lantern Spearman A2.1" in shown(panel), "A2.1")
        first = next(r for r in listed(screen) if "Cutthroat B2.1" in r)
        assert first.endswith("(in reach)  [charge succeeds 100%]")
        await send_key(pilot, first[0])
        await wait_for(pilot, lambda: "Lantern Spearman A2.2" in shown(panel), "A2.2")
        second = next(r for r in listed(screen) if "Cutthroat B2.1" in r)
        assert "100%" not in second
        assert second.endswith(
            "(in reach if a contact cell is left: 1 free, a card-mate charges there too)"
        )
        other = next(r for r in listed(screen) if "Cutthroat B2.2" in r)
        assert other.endswith("(in reach)  [charge succeeds 100%]")


FAR_SHOT: dict[str, Any] = {
    "scenario": "confrontation-crossing.toml",
    "round": 1,
    "phase": "Activation",
    "confrontation": {
        "tactical_winner": 2,
        "decks": [["A2"], ["B1"]],
        "fighters": [
            {"player": 1, "profile": "spearman", "card": "A2", "cell": [15, 8]},
            # Grish's throwing knives reach 30 cm (12 cells); the spearman is 21 away.
            {"player": 2, "profile": "grish", "card": "B1", "cell": [15, 30], "facing": "S"},
        ],
    },
}


async def test_shoot_and_quick_reload_say_they_would_miss_with_no_enemy_in_range(
    saves_dir: Path,
) -> None:
    """Played (Confrontation): Grish was offered "Shoot" and "Quick reload" with the
    only enemy he saw beyond his knives' long range: the shots were spent for nothing."""
    position = position_from_data(FAR_SHOT, "far-shot", "", base=CONF_CASES)
    game = Game(position.scenario, 5, position=position)
    for key in ("me", "common"):
        game.choose_key(key)
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        await wait_for(pilot, lambda: "What does Grish" in shown(panel), "the question")
        rows = listed(screen)
        shots = [r for r in rows if r[2:].startswith(("Shoot", "Quick reload"))]
        assert len(shots) == 3
        assert all(r.endswith("(nothing in range: misses)  [hit 0%]") for r in shots), shots
        assert "2 Shoot (nothing in range: misses)  [hit 0%]" in rows
        assert "3 Walk, then shoot" in rows  # a walk may bring him in range


async def test_the_main_menu_keeps_a_long_last_game_note_whole_at_80x24(saves_dir: Path) -> None:
    """Tried at 80x24: two long names in an Apocalypse big game made the note six lines
    in the 52-column box, taller than the screen: its top (the title) was cut."""
    game = Game(
        load_scenario(SCENARIOS / "apocalypse-crossing-big.toml"),
        3,
        players=(
            "Bartholomew the Patient, Castellan of the Ironclad Legion",
            "Maximiliana Scrapheart the Third, Warlord of the Scrap Horde",
        ),
    )
    while len(game.choices) < 30 and game.pending is not None:
        game.choose_key(next(o.key for o in game.pending.options if not o.ends))
    write_save(game, saves_dir / "big.wargrid")
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        note = await menu_note(pilot)
        await pilot.pause()
        box = app.screen.query_one("#menu-box")
        assert box.region.y >= 0 and box.region.bottom <= 24
        title = app.screen.query_one("#menu-title")
        assert title.region.height == 2 and box.region.y < title.region.y
        assert note.region.bottom <= box.region.bottom
        shown = " ".join(note.render_line(y).text.strip() for y in range(note.region.height))
        assert shown.endswith(str(note.content)[-22:])  # its last words ("last played ...")
