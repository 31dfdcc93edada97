"""Option lists put what a player usually wants first and what cannot work last: the
2026-11-25 playtest found Confrontation's declare list opening with nine "Charge X (out
of reach: will fail)" lines, the useful "Common actions" below them (off screen at 80x24).
Also the traps the 2026-11-26 tmux playtest of Confrontation and fatigue found: Enter in a
long cell list, a run to nowhere, a lone hero named twice."""

from __future__ import annotations

from pathlib import Path

from engine.decisions import Decision
from tests.tui.keys import press_until, reached, wait_for
from tests.tui.play import game_screen, opened_game
from tests.tui.test_game import shown
from tests.tui.test_input import advanced, app_on, listed
from tui.app import make_app
from tui.panels import ModelPanel


async def test_the_declare_list_opens_on_common_actions_and_ends_on_charges_that_fail(
    saves_dir: Path,
) -> None:
    def declaring(d: Decision) -> bool:
        failing = any("out of reach" in o.label for o in d.options)
        return d.prompt.startswith("Declare the action") and failing

    game = advanced("confrontation-crossing", 3, declaring)
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        if pilot.app.screen is not screen:  # a hand-over screen first
            await press_until(pilot, "enter", lambda: pilot.app.screen is screen, "the game")
        options = screen.decision_panel.option_list
        await wait_for(pilot, lambda: options.option_count > 0, "the options")
        await pilot.pause()
        rows = listed(screen)
        assert rows[0].startswith("1 Common actions")
        failing = [n for n, row in enumerate(rows) if "out of reach" in row]
        reaching = [n for n, row in enumerate(rows) if "in reach" in row]
        assert failing and min(failing) > max(reaching, default=0)
        assert rows[-1] == "0 Nothing"  # on 0 in every list (`tui.option_keys`)
        # The list has the keys and its first row is highlighted: Enter takes common
        # actions (before, the cursor sat on the nearest enemy, lighting its charge).
        assert options.highlighted == 0 and options.has_focus
        decision = game.pending
        assert decision is not None and decision.subject is not None
        fighter = game.view().model(decision.subject)
        assert fighter is not None and screen.battlefield.cursor == fighter.cell


async def test_enter_in_a_long_cell_list_takes_the_cursors_cell_not_row_one(
    saves_dir: Path,
) -> None:
    # Confrontation's deployment offers hundreds of cells: the list does not follow the
    # cursor. Before: Tab to the list, Enter, and the Captain stood at (0,0), row one.
    game = advanced("confrontation-crossing", 7, lambda d: d.prompt.startswith("Deployment: place"))
    decision = game.pending
    assert decision is not None and len(decision.options) > 100
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        field = screen.battlefield
        options = screen.decision_panel.option_list
        await wait_for(pilot, lambda: options.option_count > 0, "the options")
        start = field.cursor
        assert decision.options[0].cell != start and field.has_focus
        await press_until(pilot, "tab", lambda: options.has_focus, "the list")
        assert field.cursor == start
        subject = decision.subject
        assert subject is not None
        await press_until(pilot, "enter", lambda: game.pending is not decision, "the choice")
        placed = screen.game.view().model(subject)
        assert placed is not None and placed.cell == start


BOXED_IN = (
    """
scenario = "confrontation-crossing.toml"
round = 1
phase = "Activation"
[confrontation]
tactical_winner = 1
[[confrontation.fighters]]
player = 1
profile = "spearman"
card = "A7"
cell = [0, 0]
"""
    + "".join(
        f"""[[confrontation.fighters]]
player = 1
profile = "spearman"
card = "A8"
cell = [{x}, {y}]
"""
        for x, y in ((1, 0), (0, 1), (1, 1))
    )
    + """[[confrontation.fighters]]
player = 2
profile = "grish"
cell = [20, 30]
"""
)


async def test_a_boxed_in_fighter_is_not_offered_a_run_to_nowhere(tmp_path: Path) -> None:
    # Found in the tmux playtest: a Captain walled in by his own deployment ran, and the
    # run only said "has nowhere to go" (his activation used up).
    path = tmp_path / "boxed.position.toml"
    path.write_text(BOXED_IN)
    app = make_app(position=path, seed=1, saves_dir=tmp_path / "saves")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        for key in ("1", "1"):  # take the first turn; declare common actions
            count = len(screen.game.choices)
            await press_until(pilot, key, reached(lambda: len(screen.game.choices), count + 1))
        options = screen.decision_panel.option_list
        await wait_for(pilot, lambda: listed(screen)[:1] == ["1 Walk (then face any way)"])
        assert listed(screen) == ["1 Walk (then face any way)", "0 Nothing"]
        assert options.option_count == 2


async def test_a_lone_heros_card_names_it_once(saves_dir: Path) -> None:
    # Found in the tmux playtest: "[K] Ashfang Chief (Ashfang Chief)" (fatigue's unit of one).
    game = advanced("fatigue-crossroads", 4, lambda d: d.prompt.endswith("place B1 Ashfang Chief"))
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        panel = screen.query_one(ModelPanel)
        await wait_for(pilot, lambda: "Ashfang Chief" in shown(panel), "the Chief's card")
        assert "Ashfang Chief —" in shown(panel)
        assert "(Ashfang Chief)" not in shown(panel)


async def test_the_facing_list_keeps_compass_order_and_starts_on_the_marked_facing(
    saves_dir: Path,
) -> None:
    # Found in the tmux playtest: the north side's fighter deploying was offered "1 Face
    # north" highlighted, and Enter turned it away from the enemy ("5 Face south (towards
    # the enemy)").
    def north_facing(d: Decision) -> bool:
        return d.prompt.endswith("face?") and "towards" in d.options[4].label

    game = advanced("confrontation-crossing", 9, north_facing)
    decision = game.pending
    assert decision is not None and decision.subject is not None
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        options = screen.decision_panel.option_list
        await wait_for(pilot, lambda: options.option_count == 8, "the facings")
        assert [row.split()[2] for row in listed(screen)][:3] == ["north", "north-east", "east"]
        assert options.highlighted == 4 and options.has_focus
        await press_until(pilot, "enter", lambda: game.pending is not decision, "the choice")
        fighter = game.view().model(decision.subject)
        assert fighter is not None and fighter.facing == 4
