"""The collector held off while ``wargrid play`` starts (tui.collector)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui import collector
from tui.cli import main


@pytest.fixture
def collector_restored() -> Iterator[None]:
    yield
    gc.enable()
    gc.unfreeze()


@pytest.mark.usefixtures("collector_restored")
def test_held_until_released_then_what_was_built_is_frozen() -> None:
    gc.unfreeze()
    collector.hold()
    assert not gc.isenabled()
    collector.release()
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0


@pytest.mark.usefixtures("collector_restored")
def test_release_without_hold_changes_nothing() -> None:
    gc.unfreeze()
    collector.release()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


@pytest.mark.usefixtures("collector_restored")
def test_a_play_that_cannot_start_turns_the_collector_back_on(tmp_path: Path) -> None:
    gc.unfreeze()
    bad = tmp_path / "bad.wargrid"
    bad.write_bytes(b"not a save")
    assert main(["play", "--load", str(bad), "--saves", str(tmp_path)]) == 2
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
