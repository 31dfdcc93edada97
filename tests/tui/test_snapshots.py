"""SVG snapshots: the main menu, a game mid-turn, the hand-over screen at 80x24, and every
ruleset's first map choice at 80x24, 120x40 and 200x60 (the layout and zoom per size).

Everything else is tested on text and engine state; these catch layout regressions.
Refresh them with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and review the
SVG diffs. A rules change that alters the opening Decisions of the scenario changes the
mid-game pictures too: that is expected, review and accept.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from tests.tui.conftest import CROSSROADS, ROOT
from tests.tui.keys import gone, reached, send_key, wait_for
from tests.tui.play import first_key, game_screen, keys_of, press_for_choice
from tests.tui.test_layout import to_first_cell_choice
from tui.app import make_app
from tui.modals import HandOverScreen

SnapCompare = Callable[..., bool]


def quiet(app: App[Any]) -> App[Any]:
    """No animations, so every run draws the same frame."""
    app.animation_level = "none"
    return app


async def still(pilot: Pilot[Any]) -> None:
    """Stop cursor blinking in text fields, and take down notices: a notice goes after a
    few seconds, so whether it is still up depends on how loaded the machine is."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    pilot.app.clear_notifications()
    await pilot.pause()


async def to_movement(pilot: Pilot[Any]) -> None:
    """Answer every Decision with its first option until round 1's Movement phase."""
    app = pilot.app
    await pilot.pause()
    screen = game_screen(pilot)
    while screen.game.view().phase != "Movement" or isinstance(app.screen, HandOverScreen):
        if isinstance(app.screen, HandOverScreen):
            cover = app.screen
            await send_key(pilot, "enter")
            await wait_for(pilot, gone(app, cover))
            continue
        decision = screen.game.pending
        assert decision is not None
        count = len(screen.game.choices)
        await press_for_choice(
            pilot,
            first_key(decision, keys_of(pilot)),
            reached(lambda: len(screen.game.choices), count + 1),
        )
    await send_key(pilot, "n")  # the cursor on the second model that may move
    await still(pilot)


async def to_handover(pilot: Pilot[Any]) -> None:
    """From the Movement phase, first options until the next hand-over screen."""
    await to_movement(pilot)
    app = pilot.app
    screen = game_screen(pilot)
    while not isinstance(app.screen, HandOverScreen):
        decision = screen.game.pending
        assert decision is not None
        count = len(screen.game.choices)
        await press_for_choice(
            pilot,
            first_key(decision, keys_of(pilot)),
            reached(lambda: len(screen.game.choices), count + 1),
        )
    await wait_for(pilot, lambda: bool(app.screen.query("#handover-text")))
    await pilot.pause()


@pytest.mark.snapshot
class TestMainMenu:
    def test_menu(self, snap_compare: SnapCompare, saves_dir: Path) -> None:
        assert snap_compare(quiet(make_app(saves_dir=saves_dir)), run_before=still)


@pytest.mark.snapshot
class TestGameScreen:
    def test_mid_turn(self, snap_compare: SnapCompare, saves_dir: Path) -> None:
        app = quiet(make_app(scenario=CROSSROADS, seed=7, saves_dir=saves_dir))
        assert snap_compare(app, run_before=to_movement)

    def test_hand_over(self, snap_compare: SnapCompare, saves_dir: Path) -> None:
        app = quiet(make_app(scenario=CROSSROADS, seed=7, saves_dir=saves_dir))
        assert snap_compare(app, run_before=to_handover)


RULESETS = (
    "killteam-crossroads",
    "wh40k6-open-war",
    "apocalypse-crossing",
    "confrontation-crossing",
    "fatigue-crossroads",
)
SIZES = ((80, 24), (120, 40), (200, 60))


async def to_first_map_choice(pilot: Pilot[Any]) -> None:
    """Option 1 until the first Decision on the map (a deployment or a marker)."""
    await to_first_cell_choice(pilot)
    await still(pilot)


@pytest.mark.snapshot
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", RULESETS)
def test_every_ruleset_at_every_size(
    snap_compare: SnapCompare, saves_dir: Path, name: str, size: tuple[int, int]
) -> None:
    scenario = ROOT / "scenarios" / f"{name}.toml"
    app = quiet(make_app(scenario=scenario, seed=5, saves_dir=saves_dir))
    assert snap_compare(app, run_before=to_first_map_choice, terminal_size=size)
