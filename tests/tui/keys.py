"""Pressing keys in a running app and waiting for what they cause, without sleeps.

`Pilot.press` waits for the whole process to look idle after every key (two 20 ms
sleeps at least), which makes a full game of several hundred choices take minutes. Here
a key goes through the same driver path as `Pilot.press`, and the test then polls a
predicate while pumping the app (Harlequin's ``wait_for``), so each key costs only the
work it causes.

Neither draws a frame itself: `Pilot.pause` ends by drawing the screen
(``Screen._on_timer_update``), so pumping with it drew one at every poll, three to four
per choice in a whole game, most of the game tests' time. Here the screen draws on its own
update timer, at most 60 frames a second, as it does in a terminal (`settle`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList

if TYPE_CHECKING:
    from tui.new_game import NewGameScreen

TIMEOUT = 10.0
"""Seconds before a wait gives up and fails the test."""


async def wait_for(
    pilot: Pilot[Any], predicate: Callable[[], bool], what: str = "", timeout: float = TIMEOUT
) -> None:
    """Pump the app until ``predicate()`` holds (fail after ``timeout`` seconds: longer
    where the computer plays many moves, which a loaded 2-core CI machine slows)."""
    if predicate():
        return
    deadline = time.monotonic() + timeout
    await settle(pilot)
    while not predicate():  # waiting on a thread or a timer: the app runs as we sleep
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(IDLE_POLL)


IDLE_POLL = 0.001
"""Seconds between polls once the app has handled everything queued. Only the first
poll waits for every widget to handle its queue (`settle`): that posts a callback to each
widget of the screen, and done every millisecond while the computer's thread thought, it
took the GIL from the thread and CPU from the other test worker."""


async def settle(pilot: Pilot[Any]) -> None:
    """Let the app and every widget of its screen handle all they had queued, without
    drawing a frame (what `Pilot.pause` does before it draws one)."""
    await pilot._wait_for_screen()
    await asyncio.sleep(0)


async def send_key(pilot: Pilot[Any], key: str) -> None:
    """Send one key as the terminal driver would, then let the app process it.

    A key typed into a text field waits for the screen's next frame and what waits for
    it (``call_after_refresh``: the field selecting its text when focused), as a person
    types after seeing the field: typed before it, "4" went into the seed field and the
    selection then made "2" replace it (seed 2, not 42). Only when the callbacks were
    already pending did it wait, and that still lost the race once in two full runs."""
    app = pilot.app
    if isinstance(app.focused, Input):
        await pilot.pause(0)  # draws the frame, which runs what waits for it
        await settle(pilot)
    driver = app._driver
    assert driver is not None
    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    driver.send_message(event)
    await settle(pilot)
    await settle(pilot)


async def press_until(
    pilot: Pilot[Any], key: str, predicate: Callable[[], bool], what: str = ""
) -> None:
    """Press ``key`` and wait until ``predicate()`` holds."""
    await send_key(pilot, key)
    await wait_for(pilot, predicate, what or f"the effect of {key!r}")


def mounted(app: App[Any]) -> bool:
    """Every screen of the stack has been mounted: a test that ends as a screen opens
    would otherwise shut the app down while the screen mounts (its ``on_mount`` then
    finds its widgets gone). The waits draw no frames, which had given it the time."""
    return all(screen.is_mounted for screen in app.screen_stack)


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
