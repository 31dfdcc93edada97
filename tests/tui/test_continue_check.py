"""Continue shows a save at once from its checkpoint and verifies the whole file after.

The check runs in a worker thread; these tests hold it at a gate so the "verifying…"
moment can be seen, then let it run and read what the status line says.
"""

from __future__ import annotations

import os
import threading
from functools import cache
from pathlib import Path
from typing import Any

import msgpack
import pytest

from engine.bot import RandomBot
from engine.game import Game
from engine.resumption import Verdict
from engine.save import to_bytes
from engine.scenario import load_scenario
from tests.tui.conftest import CROSSROADS
from tests.tui.keys import wait_for
from tests.tui.play import game_screen
from tui.app import make_app
from tui.game_screen import GameScreen
from tui.modals import HandOverScreen
from tui.panels import StatusLine
from tui.save_check import SaveCheck


@cache
def long_game() -> Game:
    game = Game(load_scenario(CROSSROADS), 8)
    bot = RandomBot(8)
    while game.pending is not None and len(game.choices) < 140:  # a checkpoint 11 back
        game.choose(bot.choose(game.pending))
    return game


def long_doc() -> dict[str, Any]:
    doc: dict[str, Any] = msgpack.unpackb(to_bytes(long_game()))
    return doc


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Holds every save check until the test sets it."""
    opened = threading.Event()
    run = SaveCheck.run

    def held(self: SaveCheck) -> Verdict:
        opened.wait(timeout=60)
        return run(self)

    monkeypatch.setattr(SaveCheck, "run", held)
    return opened


def _status(screen: GameScreen) -> str:
    return str(screen.query_one(StatusLine).render())


def _continue(saves_dir: Path, doc: dict[str, Any]) -> tuple[Any, Path]:
    path = saves_dir / "long.wargrid"
    path.write_bytes(msgpack.packb(doc))
    return make_app(load=path, saves_dir=saves_dir), path


async def test_continue_shows_verifying_then_verified(
    saves_dir: Path, gate: threading.Event
) -> None:
    app, _ = _continue(saves_dir, long_doc())
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen))
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: bool(screen.query(StatusLine)), "the game screen")
        assert screen.game.choices == long_game().choices
        assert screen.game.pending == long_game().pending
        assert screen.check is not None
        await wait_for(pilot, lambda: _status(screen).startswith("verifying…"), "verifying")
        gate.set()
        await wait_for(pilot, lambda: _status(screen).startswith("verified · "), "verified")
        assert screen.game.answered == long_game().answered  # filled in from the re-run
        assert not screen.read_only


async def test_a_save_that_diverges_is_shown_read_only_and_not_written(
    saves_dir: Path, gate: threading.Event
) -> None:
    doc = long_doc()
    doc["checkups"][9][2] = "0" * 16  # an edited checkup long before the checkpoint
    app, path = _continue(saves_dir, doc)
    before = path.read_bytes()
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen))
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: _status(screen).startswith("verifying…"), "verifying")
        gate.set()
        await wait_for(pilot, lambda: _status(screen).startswith("diverged at step 10"), "verdict")
        assert screen.read_only
        await pilot.press("1")  # no choice enters a game this engine cannot reproduce
        await pilot.pause()
        assert len(screen.game.choices) == len(long_game().choices)
    assert path.read_bytes() == before


async def test_a_forged_checkpoint_gives_way_to_the_choices(
    saves_dir: Path, gate: threading.Event
) -> None:
    doc = long_doc()
    doc["checkpoints"][0][5] = "Forged"  # the earlier checkpoint's phase: opened past it
    app, _ = _continue(saves_dir, doc)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen))
        screen = game_screen(pilot)
        shown = screen.game
        gate.set()
        await wait_for(pilot, lambda: screen.game is not shown, "the game from the choices")
        assert "verified from the choices" in _status(screen)
        assert screen.game.checkpoints == long_game().checkpoints
        assert screen.game.state_hash() == long_game().state_hash()


async def test_continue_reads_no_save_for_the_menu_under_it(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The menu under a game opened from the command line looks for the game Continue
    would open only once it is shown (reading saves meanwhile slows the game's start)."""
    import tui.menu
    from tui.saves import SaveEntry
    from tui.saves import latest_entry as latest

    looked: list[Path] = []

    def counted(folder: Path) -> SaveEntry | None:
        looked.append(folder)
        return latest(folder)

    monkeypatch.setattr(tui.menu, "latest_entry", counted)
    app, _ = _continue(saves_dir, long_doc())
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen))
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: not _status(screen).startswith("verifying…"), "verified")
        await pilot.pause(0.2)
        assert looked == []
        while not isinstance(app.screen, tui.menu.MainMenu):
            app.pop_screen()
            await pilot.pause()
        await wait_for(pilot, lambda: bool(looked), "the menu's look for a save")
        note = app.screen.query_one("#menu-note")
        name = screen.game.scenario.name
        await wait_for(pilot, lambda: name in str(note.render()), "the last game named")


async def test_the_check_starts_after_the_first_frame_of_the_game(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The re-run competes with the drawing for the interpreter: started earlier, it
    slowed Continue's first frame (Textual's "after refresh", asked while the screen
    mounted, ran at once on the screen below)."""
    from tui.app import WargridApp

    frames: list[tuple[str, bool]] = []  # each display: the screen, and whether it drew
    seen_at_start: list[list[tuple[str, bool]]] = []
    hook, run = WargridApp.post_display_hook, SaveCheck.run

    def displayed(self: WargridApp) -> None:
        screen = self.screen
        frames.append((type(screen).__name__, not self._batch_count and "verifying" in
                       (_status(screen) if isinstance(screen, GameScreen) else "")))  # fmt: skip
        hook(self)

    def started(self: SaveCheck) -> Verdict:
        seen_at_start.append(list(frames))
        return run(self)

    monkeypatch.setattr(WargridApp, "post_display_hook", displayed)
    monkeypatch.setattr(SaveCheck, "run", started)
    app, _ = _continue(saves_dir, long_doc())
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: "verified" in _status(game_screen(pilot)), "verified")
    assert len(seen_at_start) == 1
    assert ("GameScreen", True) in seen_at_start[0]


async def test_a_damaged_dice_counter_is_caught_at_continue(saves_dir: Path) -> None:
    """The last checkpoint's dice counter is in no checkup: the game is built from the
    choices at once (a roll made from that checkpoint would have come out otherwise),
    and the players are told why."""
    doc = long_doc()
    at = doc["checkpoints"][-1]
    at[3] += 1
    app, _ = _continue(saves_dir, doc)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen))
        screen = game_screen(pilot)
        said = " ".join(str(n.message) for n in app._notifications)
        assert f"step {at[0]}: the dice counter of the checkpoint is {at[3]}" in said
        assert "the whole game was replayed" in said
        assert screen.check is None and "verifying" not in _status(screen)
        assert screen.game.checkpoints[-1].draws == at[3] - 1
        assert screen.game.state_hash() == long_game().state_hash()


@pytest.mark.parametrize("written_since", [False, True])
async def test_continue_from_the_menu_reads_the_save_once(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch, written_since: bool
) -> None:
    """The menu's search for Continue read the save; pressing c opens what it read (a
    second read was a third of Continue), unless the file was written since."""
    import engine.save

    path = saves_dir / "long.wargrid"
    path.write_bytes(to_bytes(long_game()))
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(
            pilot, lambda: "Last game" in str(app.screen.query_one("#menu-note").render())
        )
        read = engine.save.read_save
        reads: list[Path] = []

        def counted(where: Path) -> Any:
            reads.append(where)
            return read(where)

        monkeypatch.setattr(engine.save, "read_save", counted)
        if written_since:
            path.write_bytes(to_bytes(long_game()))
            os.utime(path, ns=(0, 10**18))
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen))
        assert reads == ([path] if written_since else [])
        assert game_screen(pilot).game.state_hash() == long_game().state_hash()
