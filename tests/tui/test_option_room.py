"""Every option of a short list on screen at 80x24 (playtest: target 3 hidden).

"Warden Squad Alpha shoots at which unit?" with three targets listed 1 and 2 and hid 3
under the odds box (which repeated option 1's row) and the model card: it was reached
only by browsing with n. The repeat is gone, and the card gives its rows to a list that
needs them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.tui.keys import press_until, wait_for
from tests.tui.play import app_at, game_screen, opened_game
from tui.app import make_app
from tui.decision_panel import DecisionPanel
from tui.game_screen import GameScreen
from tui.modals import HandOverScreen
from tui.panels import ModelPanel

POSITION = """
scenario = "wh40k6-open-war.toml"
round = 1
phase = "Shooting"
next_player = 1

[wh40k6]
player = 1

[[wh40k6.units]]
player = 1
unit = "warden_squad"
name = "Warden Squad Alpha"
models = [{ cell = [20, 2] }, { cell = [21, 2] }, { cell = [22, 2] }, { cell = [23, 2] },
  { cell = [24, 2] }]
"""

MOB = """
[[wh40k6.units]]
player = 2
unit = "horde_mob"
name = "Horde Mob {name}"
models = [{cells}]
"""


def position(tmp_path: Path) -> Path:
    """Squad Alpha in its Shooting phase, three Horde Mobs in range."""
    text = POSITION
    for name, (x, y) in (("Red", (8, 12)), ("Black", (30, 12)), ("Green", (20, 20))):
        cells = ", ".join(f"{{ cell = [{x + n}, {y}] }}" for n in range(5))
        text += MOB.format(name=name, cells=cells)
    path = tmp_path / "three-targets.toml"
    path.write_text(text)
    return path


def on_screen(panel: DecisionPanel) -> list[str]:
    """The option list's lines as the screen shows them (its scroll window)."""
    options = panel.option_list
    height = options.scrollable_content_region.height
    return [options.render_line(y).text.rstrip() for y in range(height)]


def prompt_of(screen: GameScreen) -> str:
    return "" if screen.game.pending is None else screen.game.pending.prompt


async def at_the_targets(pilot: Pilot[Any]) -> GameScreen:
    """Not a test: Squad Alpha shoots (keys 1, 1), at the question of its target."""
    screen = await opened_game(pilot)
    await press_until(pilot, "1", lambda: prompt_of(screen).startswith("What does"))
    await press_until(pilot, "1", lambda: prompt_of(screen).endswith("shoots at which unit?"))
    return screen


async def test_at_80x24_the_third_target_is_on_screen_whole(tmp_path: Path) -> None:
    app = make_app(position=position(tmp_path), seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_targets(pilot)
        panel = screen.decision_panel
        await wait_for(pilot, lambda: panel.crowded, "the card to give way")
        await pilot.pause()
        shown = " ".join(on_screen(panel))
        assert '3 Horde Mob Green (18", 4 of 5 models' in shown, shown
        assert shown.rstrip().endswith("unsaved 39%]"), shown  # its last line too
        assert panel.option_list.scroll_y == 0  # options 1 and 2 above it, whole
        assert not screen.query_one(ModelPanel).display
        assert str(panel.detail.render()) == ""  # no odds box repeating option 1's row
        await press_until(pilot, "1", lambda: "Go to Ground" in prompt_of(screen))
        await wait_for(pilot, lambda: not panel.crowded, "the card back for two options")
        await pilot.pause()
        assert screen.query_one(ModelPanel).display


async def test_at_200x60_the_card_stays_beside_the_targets(tmp_path: Path) -> None:
    app = make_app(position=position(tmp_path), seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await at_the_targets(pilot)
        panel = screen.decision_panel
        await pilot.pause()
        assert "3 Horde Mob Green" in " ".join(on_screen(panel))
        assert not panel.crowded and screen.query_one(ModelPanel).display


ASSETS = """
scenario = "apocalypse-crossing.toml"
round = 2
phase = "Action"

[apocalypse]
initiative = 2
sides = [{ hand = ["smoke_screen"] }, {}]

[[apocalypse.detachments]]
player = 1
name = "Legion Cohort"
order = "ADVANCE"
units = [
  { datasheet = "legion_captain", commander = true, cell = [2, 2] },
  { datasheet = "legion_line_squad", cell = [6, 2] },
  { datasheet = "legion_carrier", cell = [9, 2] },
]

[[apocalypse.detachments]]
player = 2
name = "Brute Warband"
order = "ADVANCE"
units = [{ datasheet = "horde_warboss", commander = true, cell = [20, 20] }]
"""


async def test_at_80x24_an_asset_offer_names_the_units_it_may_hide(tmp_path: Path) -> None:
    """The card's label is its row; the detail under it says whom it may hide, not the
    label again (which left "Obscured against Brute Warband's attacks this…" at 80x24)."""
    app = app_at(tmp_path, ASSETS, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, HandOverScreen), "the hand-over")
        screen = game_screen(pilot)
        panel = screen.decision_panel
        pending = screen.game.pending
        assert pending is not None and pending.prompt == (
            "Enemy activation (Brute Warband): play an asset?"
        )
        await press_until(pilot, "enter", lambda: app.screen is screen, "the offer")
        await wait_for(pilot, lambda: "Line Squad" in str(panel.detail.render()), "the detail")
        await pilot.pause()
        shown = " ".join(
            "".join(s.text for s in strip).strip()
            for strip in panel.detail.render_lines(panel.detail.region.reset_offset)
        )
        assert "Smoke Screen" not in shown  # its row says it
        assert shown == (
            "Legion Captain, Legion Line Squad or Legion Carrier: one is obscured against "
            "Brute Warband this activation."
        )
