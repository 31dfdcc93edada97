"""Continue reads only the newest events and rolls of a long save before its first frame
(what the log panel shows); the rest is read into the game after it, and before the game
is written or its whole log shown (tui.app._read_newest, tui.save_check)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import msgpack
import pytest

import engine.save
from engine.errors import SaveError
from engine.save import SaveData, decode, read_save, to_bytes
from tests.tui.keys import wait_for
from tests.tui.play import game_screen
from tests.tui.test_continue_check import long_doc, long_game
from tui.app import make_app
from tui.game_screen import GameScreen
from tui.log_panel import LogPanel
from tui.modals import HandOverScreen
from tui.panels import StatusLine


def _saved(saves_dir: Path, doc: dict[str, Any] | None = None) -> Path:
    path = saves_dir / "long.wargrid"
    path.write_bytes(to_bytes(long_game()) if doc is None else msgpack.packb(doc))
    return path


def _status(screen: GameScreen) -> str:
    return str(screen.query_one(StatusLine).render())


async def test_continue_reads_the_newest_first_and_the_rest_after_the_first_frame(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[tuple[int | None, bool]] = []

    def counted(raw: bytes, source: str, *, recent: int | None = None) -> SaveData:
        reads.append((recent, threading.current_thread() is threading.main_thread()))
        return decode(raw, source, recent=recent)

    monkeypatch.setattr(engine.save, "decode", counted)
    assert len(long_game().events) > LogPanel.SHOWN  # else there is nothing left to read
    app = make_app(load=_saved(saves_dir), saves_dir=saves_dir)
    assert reads == [(LogPanel.SHOWN, True)]
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen))
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: "verified · " in _status(screen), "verified")
        assert reads == [(LogPanel.SHOWN, True), (None, True)]  # once, after the frame
        assert screen.game.events == long_game().events
        assert screen.game.rolls == long_game().rolls


async def test_a_choice_before_the_rest_is_read_writes_the_whole_file(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rest is read before the game is written, whenever the choice comes."""
    monkeypatch.setattr(GameScreen, "_start_check", lambda self: None)  # not after the frame
    path = _saved(saves_dir)
    app = make_app(load=path, saves_dir=saves_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen))
        screen = game_screen(pilot)
        assert engine.save.has_unread(screen.game)
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        decision = screen.game.pending
        assert decision is not None
        screen._choose(decision.options[0])
        assert len(screen.game.choices) == len(long_game().choices) + 1
    written = read_save(path)
    assert written.events[: len(long_game().events)] == tuple(long_game().events)
    assert written.rolls[: len(long_game().rolls)] == tuple(long_game().rolls)


def test_a_game_with_the_rest_unread_is_never_written() -> None:
    from engine.resumption import open_save

    raw = to_bytes(long_game())
    game = open_save(decode(raw, "x", recent=LogPanel.SHOWN)).game
    assert engine.save.has_unread(game)
    with pytest.raises(SaveError, match="not read yet"):
        to_bytes(game)


async def test_damage_in_the_part_read_after_the_frame_shows_the_game_read_only(
    saves_dir: Path,
) -> None:
    doc = long_doc()
    doc["events"][0][2] = 5  # an event's text that is not text, long before the end
    path = _saved(saves_dir, doc)
    before = path.read_bytes()
    app = make_app(load=path, saves_dir=saves_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen))
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: screen.read_only, "read-only")
        said = " ".join(str(n.message) for n in app._notifications)
        assert "wrong" in said and "read-only" in said
        await pilot.press("1")
        await pilot.pause()
        assert len(screen.game.choices) == len(long_game().choices)
    assert path.read_bytes() == before
