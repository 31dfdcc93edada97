"""Pressing keys in a running app and waiting for what they cause, without sleeps.

`Pilot.press` waits for the whole process to look idle after every key (two 20 ms
sleeps at least), which makes a full game of several hundred choices take minutes. Here
a key goes through the same driver path as `Pilot.press`, and the test then polls a
predicate while pumping the app (Harlequin's ``wait_for``), so each key costs only the
work it causes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import OptionList

if TYPE_CHECKING:
    from tui.new_game import NewGameScreen

TIMEOUT = 10.0
"""Seconds before a wait gives up and fails the test."""


async def wait_for(
    pilot: Pilot[Any], predicate: Callable[[], bool], what: str = "", timeout: float = TIMEOUT
) -> None:
    """Pump the app until ``predicate()`` holds (fail after ``timeout`` seconds: longer
    where the computer plays many moves, which a loaded 2-core CI machine slows)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await pilot.pause(0)


async def send_key(pilot: Pilot[Any], key: str) -> None:
    """Send one key as the terminal driver would, then let the app process it."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    driver.send_message(event)
    await pilot.pause(0)
    await pilot.pause(0)


async def press_until(
    pilot: Pilot[Any], key: str, predicate: Callable[[], bool], what: str = ""
) -> None:
    """Press ``key`` and wait until ``predicate()`` holds."""
    await send_key(pilot, key)
    await wait_for(pilot, predicate, what or f"the effect of {key!r}")


def gone(app: App[Any], screen: Screen[Any]) -> Callable[[], bool]:
    """A predicate: ``screen`` is no longer the top screen."""
    return lambda: app.screen is not screen


def changed(read: Callable[[], object], before: object) -> Callable[[], bool]:
    """A predicate: ``read()`` no longer returns ``before`` (compared by identity)."""
    return lambda: read() is not before


def reached(read: Callable[[], int], target: int) -> Callable[[], bool]:
    """A predicate: ``read()`` has reached ``target``."""
    return lambda: read() >= target


async def walk_cursor(pilot: Pilot[Any], cursor: Callable[[], Any], target: Any) -> None:
    """Press arrow keys, as a player would, until ``cursor()`` (a board Cell) is ``target``."""
    while (here := cursor()) != target:
        key = (
            "right" if here.x < target.x else "left" if here.x > target.x
            else "up" if here.y < target.y else "down"
        )  # fmt: skip
        await send_key(pilot, key)


async def new_game_form(pilot: Pilot[Any]) -> NewGameScreen:
    """From the main menu, ``n``: the new-game form once its scenario list is shown."""
    from tui.new_game import NewGameScreen

    app = pilot.app
    await press_until(pilot, "n", lambda: isinstance(app.screen, NewGameScreen))
    form = app.screen
    assert isinstance(form, NewGameScreen)
    await wait_for(
        pilot,
        lambda: any(
            ol.highlighted is not None for ol in form.query("#scenario-list").results(OptionList)
        ),
        "the scenario list",
    )
    return form
