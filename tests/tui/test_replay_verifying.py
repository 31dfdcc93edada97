"""The replay viewer opens a save at once from its checkpoint and verifies it after.

The whole re-run (`build_timeline`) runs in a worker; these tests hold it at a gate to see
the viewer before the verdict, then let it finish.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import msgpack
import pytest

from engine.save import SaveData
from engine.timeline import Timeline, Verdict, build_timeline
from tests.tui.keys import wait_for
from tests.tui.test_continue_check import long_doc, long_game
from tests.tui.test_replay_viewer import SIZE, at_step, shown, viewer
from tui import replay_screen
from tui.app import make_app
from tui.replay_screen import ReplayScreen
from tui.replay_widgets import ReplayBar


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Holds the viewer's whole re-run until the test sets it."""
    opened = threading.Event()

    def held(data: SaveData, **options: Any) -> Timeline:
        opened.wait(timeout=60)
        return build_timeline(data, **options)

    monkeypatch.setattr(replay_screen, "build_timeline", held)
    return opened


def _file(tmp_path: Path, doc: dict[str, Any]) -> Path:
    path = tmp_path / "long.wargrid"
    path.write_bytes(msgpack.packb(doc))
    return path


async def test_the_viewer_shows_the_end_at_once_then_every_step_verified(
    tmp_path: Path, saves_dir: Path, gate: threading.Event
) -> None:
    app = make_app(replay=_file(tmp_path, long_doc()), saves_dir=saves_dir)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        screen = viewer(pilot)
        tl = screen.timeline
        last = len(long_game().choices)
        assert tl.verdict is Verdict.VERIFYING and 0 < tl.first < last
        assert screen.step == last  # the game as it stands, from the checkpoint
        assert tl.view(last) == long_game().view()
        assert shown(screen.query_one(ReplayBar)).startswith("… Verifying…")
        await at_step(pilot, "home", 0)
        bar = shown(screen.query_one(ReplayBar))
        assert f"Board as at step {tl.first} until the file is verified." in bar
        gate.set()
        await wait_for(pilot, lambda: screen.timeline.verdict is Verdict.VERIFIED, "verified")
        assert screen.step == 0  # where the player was
        assert shown(screen.query_one(ReplayBar)).startswith("✔ Verified")
        assert screen.timeline.view(0) is not None
        await at_step(pilot, "n", 1)


async def test_the_viewer_names_the_step_a_save_diverges_at(
    tmp_path: Path, saves_dir: Path, gate: threading.Event
) -> None:
    doc = long_doc()
    doc["checkups"][9][2] = "0" * 16
    app = make_app(replay=_file(tmp_path, doc), saves_dir=saves_dir)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        screen = viewer(pilot)
        assert screen.timeline.verdict is Verdict.VERIFYING
        gate.set()
        await wait_for(pilot, lambda: screen.timeline.verdict is Verdict.DIVERGED, "diverged")
        assert screen.timeline.diverged_at == 10
        assert shown(screen.query_one(ReplayBar)).startswith("✘ Diverged at step 10")
