"""Traps found playing wh40k6 and Apocalypse in tmux as a new player would, at 80x24 and
200x60 (issue #14): each test presses the keys that showed the problem and reads the
screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from engine.game import Game
from engine.scenario import load_scenario
from tests.tui.keys import reached, send_key, wait_for
from tests.tui.play import cursor_on, opened_game
from tests.tui.test_input import app_on
from tui.battlefield import Battlefield
from tui.confirm import ConfirmScreen
from tui.decision_panel import DecisionPanel
from tui.game_screen import GameScreen
from tui.help import HelpScreen
from tui.info import InfoScreen
from tui.log_panel import LogPanel
from tui.log_screen import LogScreen
from tui.modals import HandOverScreen
from tui.panels import ModelPanel, PhasePanel, StatusLine
from tui.text import model_text

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def wh40k6_at(prompt: str, seed: int = 7) -> Game:
    """wh40k6 Open War played by the engine (first ordinary options) up to ``prompt``."""
    return played_to("wh40k6-open-war.toml", prompt, seed)


def played_to(scenario: str, prompt: str, seed: int = 7) -> Game:
    """``scenario`` played by the engine (first ordinary options) up to ``prompt``."""
    game = Game(load_scenario(SCENARIOS / scenario), seed)
    while game.pending is not None and not game.pending.prompt.startswith(prompt):
        game.choose_key(next(o.key for o in game.pending.options if not o.ends))
    return game


def log_text(screen: GameScreen) -> str:
    """The log panel's lines, joined as one text (a wrapped line reads whole)."""
    return " ".join(strip.text.strip() for strip in screen.query_one(LogPanel).lines)


async def chosen(pilot: Pilot[Any], screen: GameScreen, key: str) -> None:
    """Press ``key`` and wait until the game took a choice."""
    count = len(screen.game.choices)
    await send_key(pilot, key)
    await wait_for(pilot, reached(lambda: len(screen.game.choices), count + 1), repr(key))


def shown_options(panel: DecisionPanel) -> list[str]:
    """The option rows as the list shows them (key and label)."""
    return [str(option.prompt).strip() for option in panel.option_list.options]


async def side_line(pilot: Pilot[Any], screen: GameScreen, side: str) -> str:
    """The phase panel's line of ``side``, once the panel shows it."""
    phase = screen.query_one(PhasePanel)
    await wait_for(pilot, lambda: side in " ".join(screen_lines(phase)))
    await pilot.pause()
    return next(line for line in screen_lines(phase) if line.startswith(side))


def screen_lines(panel: PhasePanel) -> list[str]:
    """The panel's rows as drawn."""
    strips = panel.render_lines(panel.region.reset_offset)
    return ["".join(seg.text for seg in strip).rstrip() for strip in strips]


async def test_a_side_whose_resources_do_not_fit_says_which_key_shows_them(
    saves_dir: Path,
) -> None:
    """Played at 80x24: "Iron Wardens · VP 0 · +3 (D)" read as three points of something."""
    game = wh40k6_at("Agree on the mission")
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        for side in ("Iron Wardens", "Rustbound Horde"):
            line = await side_line(pilot, screen, side)
            assert line == f"{side} · VP 0 · more: press D"


async def test_help_names_every_key_and_shift_l_does_what_it_says(saves_dir: Path) -> None:
    """Played: the help (opened with F1) said nothing of L, e or F1, and promised "Shift: 5
    cells" for h j k l, but Shift+l opened the log instead of moving the cursor."""
    game = wh40k6_at("Deploy A1.1")
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        await send_key(pilot, "f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        assert isinstance(app.screen, HelpScreen)
        source = app.screen.source
        for row in ("| L |", "| e |", "| ? or F1 |", "Shift+arrows: 5 cells"):
            assert row in source
        await send_key(pilot, "f1")  # the key that opened it closes it
        await wait_for(pilot, lambda: app.screen is screen, "the game again")
        field = screen.query_one(Battlefield)
        field.focus()
        start = field.cursor
        await send_key(pilot, "shift+right")
        await wait_for(pilot, lambda: field.cursor != start, "the cursor to move")
        assert (field.cursor.x - start.x, field.cursor.y) == (5, start.y)
        await send_key(pilot, "L")
        await wait_for(pilot, lambda: isinstance(app.screen, LogScreen), "the whole log")
        assert field.cursor.x == start.x + 5


@pytest.mark.parametrize(
    ("scenario", "prompt", "line"),
    [
        (
            "wh40k6-open-war.toml",
            "Who deploys first",
            "Iron Wardens choose to deploy second (Rustbound Horde first)",
        ),
        (
            "apocalypse-crossing.toml",
            "You won the deployment roll-off",
            "Ironclad Legion chooses to deploy second (Scrap Horde first)",
        ),
    ],
)
async def test_the_roll_off_winners_choice_of_who_deploys_first_is_in_the_log(
    scenario: str, prompt: str, line: str, saves_dir: Path
) -> None:
    """Played at 80x24: the winner chose "My opponent deploys first" and the other player
    was asked to deploy with nothing on screen saying why."""
    game = played_to(scenario, prompt)
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        await chosen(pilot, screen, "2")
        await wait_for(pilot, lambda: screen.game.pending is not None, "the next decision")
        assert (
            screen.game.pending is not None
            and screen.game.pending.player != game.answered[-1].player
        )
        await wait_for(pilot, lambda: line in log_text(screen), line)


APOCALYPSE_TARGET = (
    *("build", "legion_captain", "legion_line_squad", "legion_line_squad"),
    *("legion_battle_tank", "close", "done", "keep", "second", "B-D1"),
    *("23,27", "24,27", "22,28", "23,25", "21,26", "23,3", "24,3", "22,4", "23,1"),
    *("24,29", "25,25", "26,27", "AIMED_FIRE", "ASSAULT", "AIMED_FIRE", "pass"),
)
"""The tmux game (seed 5) up to the choice of the Legion's unit to act: then the Battle
Tank (``3``) asks for one of eight targets whose rows take three lines each at 80x24."""


def apocalypse_target() -> Game:
    game = Game(load_scenario(SCENARIOS / "apocalypse-crossing.toml"), 5)
    for key in APOCALYPSE_TARGET:
        game.choose_key(key)
    return game


async def test_the_highlighted_target_and_its_odds_are_on_screen_at_80x24(
    saves_dir: Path,
) -> None:
    """Played at 80x24: the cursor started on Brute Mob γ (option 4), the list showed the
    ends of options 2 and 3, and the detail under it lost its odds after three lines of
    label and weapon. Later played: started on the target nearest the shooter, the list
    scrolled to it and option 1 was out of sight; it starts on option 1 now."""
    app = app_on(apocalypse_target(), saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        options = panel.option_list
        await wait_for(pilot, lambda: options.option_count == 4, "the units to act")
        await send_key(pilot, "3")
        await wait_for(pilot, lambda: options.option_count == 9, "the targets")
        await pilot.pause()
        await pilot.pause()
        assert options.highlighted == 0 and "Warboss" in str(panel.rows[0].label)
        targets = screen.game.pending
        assert targets is not None
        assert screen.query_one(Battlefield).cursor == targets.options[0].cell
        # The option says its range unit to unit; the cell's own from the tank's cell
        # (another figure) is not set beside it.
        status = str(screen.query_one(StatusLine).render())
        assert 'Enter: Warboss, 25"' in status and " from A" not in status, status
        top = options._index_to_line[0]
        bottom = top + options._heights[0]
        assert options.scroll_y <= top and bottom <= options.scroll_y + options.size.height
        detail = panel.detail
        shown = [
            "".join(s.text for s in strip).rstrip()
            for strip in detail.render_lines(detail.region.reset_offset)
        ]
        assert shown[0] == "Odds: hit 50%, wound 33%, unsaved 14%"
        assert shown[-1].endswith("…") or str(detail.content).rstrip().endswith(shown[-1])


async def test_one_attack_is_one_attack_in_the_detail_and_the_log(saves_dir: Path) -> None:
    """Played: "— 1 attacks with Hull lascannon" under the target, "1 attacks need 4+ to
    hit", "1 wounds" in the log."""
    game = apocalypse_target()
    game.choose_key("A4")  # the Battle Tank shoots
    app = app_on(game, saves_dir)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        await wait_for(pilot, lambda: "Battle cannon?" in str(panel.prompt.content), "cannon")
        await send_key(pilot, "4")  # Brute Mob γ
        await wait_for(pilot, lambda: "Hull lascannon?" in str(panel.prompt.content), "hull")
        for _ in range(3):
            await send_key(pilot, "n")  # on to Brute Mob γ, option 4; Enter still to come
        assert "1 attack with Hull lascannon" in str(panel.detail.content)
        await send_key(pilot, "enter")
        said = "1D6 for hit rolls: Legion Battle Tank's Hull lascannon at Brute Mob γ: "
        await wait_for(pilot, lambda: said in log_text(screen), said)
        assert "1 attacks" not in log_text(screen)


async def test_an_assault_order_with_nothing_to_fight_says_why_the_activation_ends(
    saves_dir: Path,
) -> None:
    """Played at 80x24: the Brute Warband (Assault) moved its Sky Raiders, ended its moves
    and was never asked to fight: the next prompt was another detachment's, unexplained."""
    game = apocalypse_target()
    for key in ("A4", "B4", "B4", "A2", "B4", "A3", "B4", "B-D1", "B5", "21,15"):
        game.choose_key(key)
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        count = len(game.choices)
        await send_key(pilot, "e")
        await send_key(pilot, "y")  # the rest stay where they are
        await wait_for(pilot, reached(lambda: len(screen.game.choices), count + 1), "the end")
        said = "No unit of Brute Warband can shoot or fight: its activation ends."
        await wait_for(pilot, lambda: said in str(panel.notice.content).replace("\n", " "), said)


async def test_a_unit_placed_model_by_model_is_not_offered_an_adjustment_it_cannot_make(
    saves_dir: Path,
) -> None:
    """Played at 80x24: "Warden Outriders: finish, adjust a model, or start again?" over
    "1 Done" and "2 Start again" (each bike was placed by hand: nothing to adjust)."""
    app = app_on(wh40k6_at("Deploy A5.1 Warden Outrider"), saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        for _ in range(3):  # each bike on the cell the cursor starts on
            await chosen(pilot, screen, "enter")
        prompt = "Warden Outriders: finish or start again?"
        await wait_for(pilot, lambda: prompt in str(panel.prompt.content), prompt)
        assert shown_options(panel) == ["1 Done: Warden Outriders end here", "2 Start again"]


async def test_the_walker_card_says_what_fights_means(saves_dir: Path) -> None:
    """Played: the Scrap Walker's card ended "fights in close" … "fights", as if cut."""
    game = wh40k6_at("Scout move")
    walker = next(m for m in game.view().models if m.id == "B6.1")
    assert walker.cell is not None
    app = app_on(game, saves_dir)
    async with app.run_test(size=(200, 60)) as pilot:
        await cursor_on(pilot, walker.cell)
        await send_key(pilot, "I")
        await wait_for(pilot, lambda: isinstance(app.screen, InfoScreen), "the card")
        assert isinstance(app.screen, InfoScreen)
        card = app.screen.body.plain.replace("\n", " ")
        assert "fires every weapon after moving; charges and fights in close combat" in card


async def test_a_model_card_cut_inside_a_line_says_so(saves_dir: Path) -> None:
    """Played at 200x60: the Ranger's card ended "Assault grenades: charges through
    difficult terrain at" then "… more: press I", as if that were the whole note. (At
    200x60 the card now has the rows the map leaves: 140x45 still cuts it.)"""
    game = wh40k6_at("Infiltrate Warden Rangers")
    ranger = game.view().model("A4.1")
    app = app_on(game, saves_dir)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.query_one(ModelPanel)
        await wait_for(pilot, lambda: "A4.1 Warden Ranger" in str(panel.render()), "the card")
        await pilot.pause()
        shown = str(panel.render())
        assert "… more: press I" in shown
        rows = shown.split("\n… more")[0].split("\n")
        lines = model_text(ranger).plain.split("\n")
        cut = next(n for n, line in enumerate(lines) if line.startswith("Assault grenades"))
        assert rows[-1].endswith(" …") and lines[cut].startswith(rows[-1][:-2])
        assert " ".join(rows[:-1]).split() == " ".join(lines[:cut]).split()


async def test_a_question_about_a_unit_shows_that_unit(saves_dir: Path) -> None:
    """Played at 200x60: "What does Bastion Tank do?" with the card and the cursor still
    on the Warden Sergeant looked at before."""
    game = wh40k6_at("Which unit acts next")
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        await wait_for(pilot, lambda: "3 Warden Squad Beta" in " ".join(shown_options(panel)))
        await send_key(pilot, "3")
        prompt = "What does Warden Squad Beta do?"
        await wait_for(pilot, lambda: prompt in str(panel.prompt.content), prompt)
        sergeant = screen.game.view().model("A3.1")
        assert sergeant is not None and sergeant.cell is not None
        card = screen.query_one(ModelPanel)
        await wait_for(pilot, lambda: "A3.1 Warden Sergeant" in str(card.render()), "the card")
        assert screen.query_one(Battlefield).cursor == sergeant.cell


APOCALYPSE_HAND = (
    *("build", "legion_captain", "legion_line_squad", "legion_fire_team"),
    *("legion_battle_tank", "close", "more", "legion_line_squad", "close", "done", "keep"),
    *("first", "B-D1", "23,27", "24,27", "22,28", "23,25", "21,26", "A-D2", "23,3"),
    *("24,29", "25,25", "26,27", "23,2", "21,3", "25,3", "23,5", "ADVANCE", "AIMED_FIRE"),
    *("ASSAULT", "AIMED_FIRE", "precision_barrage#2", "A4"),
)
"""The tmux game at 200x60 (seed 9): the Horde's Precision Barrage has hit the Legion's
tank; the Legion picks the detachment to activate (open), then is asked to play an asset
(its hand: secret)."""


async def test_a_secret_after_the_seat_changed_at_an_open_question_is_covered(
    saves_dir: Path,
) -> None:
    """Played at 200x60 with hand-over screens off ("o", open information only): the Horde
    chose its barrage's target, the Legion picked its detachment, and the Legion's hand
    ("1 Forced March") came up with no cover, the Horde's player still looking."""
    game = Game(load_scenario(SCENARIOS / "apocalypse-crossing.toml"), 9)
    for key in APOCALYPSE_HAND:
        game.choose_key(key)
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        await wait_for(pilot, lambda: "1 Legion Detachment 1" in " ".join(shown_options(panel)))
        await send_key(pilot, "1")
        await wait_for(pilot, lambda: isinstance(app.screen, HandOverScreen), "the cover")
        cover = app.screen
        assert isinstance(cover, HandOverScreen) and cover.hidden
        assert screen.game.pending is not None and screen.game.pending.hidden
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: app.screen is screen, "the game")
        await chosen(pilot, screen, "2")  # no asset; the Legion's next secret needs no new cover
        await pilot.pause()
        assert app.screen is screen


async def test_a_fight_says_how_many_attacks_go_at_each_enemy(saves_dir: Path) -> None:
    """Played at 200x60: "Sky Raiders fights: Cleavers 3 at Legion Line Squad α [...]"."""
    game = Game(load_scenario(SCENARIOS / "apocalypse-crossing.toml"), 9)
    for key in (*APOCALYPSE_HAND, "A-D1", "pass", "A4", "22,10", "done", "A4", "B4", "B4"):
        game.choose_key(key)
    for key in ("done", "B-D1", "B5", "21,5", "done"):
        game.choose_key(key)
    app = app_on(game, saves_dir)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        await wait_for(pilot, lambda: "1 Sky Raiders: fight" in " ".join(shown_options(panel)))
        for key in "1111":  # fight; each of the three Cleavers attacks at Line Squad α
            await chosen(pilot, screen, key)
        said = "Sky Raiders fight: Cleavers: 3 attacks at Legion Line Squad α [hit 67%"
        await wait_for(pilot, lambda: said in log_text(screen), said)


async def test_declining_to_seize_the_initiative_is_in_the_log(saves_dir: Path) -> None:
    """Played at 80x24: the Horde said no to Seize the Initiative and the Wardens' turn
    began with nothing saying the Horde had the chance."""
    game = wh40k6_at("Try to Seize the Initiative")
    assert game.pending is not None
    second = game.view().sides[game.pending.player].name
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        await chosen(pilot, screen, "2")  # No
        said = f"{second} does not try to seize the initiative"
        await wait_for(pilot, lambda: said in log_text(screen), said)


async def test_a_vehicle_card_counts_hull_points_as_its_profile_does(saves_dir: Path) -> None:
    """Played at 80x24: "[T] A6.1 Bastion Tank — W 3/3" over "BS 4 AV 13/11/10 HP 3"."""
    game = wh40k6_at("Scout move")
    tank = game.view().model("A6.1")
    assert tank is not None and tank.cell is not None
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, _ = await cursor_on(pilot, tank.cell)
        card = screen.query_one(ModelPanel)
        await wait_for(pilot, lambda: "A6.1 Bastion Tank" in str(card.render()), "the card")
        assert "A6.1 Bastion Tank — HP 3/3" in str(card.render())
        await send_key(pilot, "I")
        await wait_for(pilot, lambda: isinstance(app.screen, InfoScreen), "the whole card")
        assert isinstance(app.screen, InfoScreen)
        assert "HP 3" in app.screen.body.plain and "W 3/3" not in app.screen.body.plain


async def test_a_d3_roll_reads_as_the_d3_it_stands_for(saves_dir: Path) -> None:
    """Played at 80x24: "Dice rolled 1D6 for deployment map table (D3): 6 (table roll)"
    for a table of three maps."""
    game = wh40k6_at("Agree on the deployment map")
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        await chosen(pilot, screen, "1")  # roll for it
        roll = next(r for r in screen.game.rolls if r.reason.endswith("(D3)"))
        said = f"for deployment map table (D3): {roll.faces[0]} → {(roll.faces[0] + 1) // 2}"
        await wait_for(pilot, lambda: said in log_text(screen), said)


async def test_the_whole_logs_title_wraps_and_keeps_its_keys_at_80_columns(
    saves_dir: Path,
) -> None:
    """Played at 80x24: "Hold the Crossing: the whole log · 3 of 7 lines contain 'roll'
    / search ·" - the cut title lost "Esc close"."""
    game = played_to("apocalypse-crossing.toml", "Deploy Warboss", seed=12)
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await opened_game(pilot)
        await send_key(pilot, "L")
        await wait_for(pilot, lambda: isinstance(app.screen, LogScreen), "the whole log")
        log_screen = app.screen
        assert isinstance(log_screen, LogScreen)
        await send_key(pilot, "slash")
        for key in "roll":
            await send_key(pilot, key)
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: log_screen.query_text == "roll", "the search")
        await pilot.pause()
        title = log_screen.query_one("#log-title")
        shown = " ".join(
            "".join(seg.text for seg in strip).strip()
            for strip in title.render_lines(title.region.reset_offset)
        )
        assert "lines contain 'roll'" in shown and shown.endswith("/ search · Esc close")


async def test_ending_the_phase_asks_first_naming_what_is_still_open(saves_dir: Path) -> None:
    """Played at 80x24: e on "Which unit moves next?" asked "End the Movement phase?" over
    "Other options are still open (units that could still act)." - which ones?"""
    game = wh40k6_at("Which unit moves next")
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        assert screen.game.pending is not None
        moves = [o.label for o in screen.game.pending.options if not o.ends]
        await send_key(pilot, "e")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        question = app.screen
        assert isinstance(question, ConfirmScreen)
        assert question.why == f"Still open: {', '.join(moves[:3])} and {len(moves) - 3} more."
        await send_key(pilot, "n")
        await wait_for(pilot, lambda: app.screen is screen, "the game")
        assert len(screen.game.choices) == len(game.answered)  # "no" took nothing


async def test_the_status_line_says_what_enter_does_before_range_and_sight(
    saves_dir: Path,
) -> None:
    """Played at 80x24: "(24,5) open ground · 6" from A2.1, in sight · Enter: A2.1 Warden
    Sergeant to …" - the cut took where Enter sends the model."""
    game = wh40k6_at("Scout Warden Outriders")
    taken = {m.cell for m in game.view().models}
    assert game.pending is not None
    cell = next(o.cell for o in game.pending.options if o.cell and o.cell not in taken)
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, _ = await cursor_on(pilot, cell)
        status = screen.query_one(StatusLine)
        said = f"{cell} open ground · Enter: A5.1 Warden Outrider to {cell}"
        await wait_for(pilot, lambda: str(status.render()).startswith(said), said)
        assert '" from A5.1' in str(status.render())  # range and sight after, cut first


async def test_while_rosters_are_chosen_the_sides_do_not_count_the_prepared_units(
    saves_dir: Path,
) -> None:
    """Played at 200x60: the Legion built five units; while the Horde chose its roster the
    sides table said "Ironclad Legion ... Units 0/7" (the prepared roster's count)."""
    game = Game(load_scenario(SCENARIOS / "apocalypse-crossing.toml"), 9)
    for key in APOCALYPSE_HAND[:10]:  # the Legion's five units in two detachments
        game.choose_key(key)
    app = app_on(game, saves_dir)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await opened_game(pilot)
        legion = await side_line(pilot, screen, "Ironclad Legion")
        assert "0/7" not in legion
        await chosen(pilot, screen, "1")  # the Horde keeps its prepared roster
        phase = screen.query_one(PhasePanel)
        await wait_for(pilot, lambda: "0/5" in " ".join(screen_lines(phase)), "the count")
