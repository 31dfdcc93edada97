"""Work that waits until a screen's first frame is on the terminal.

Continue and the replay viewer re-run a whole save in a worker thread, which competes
with the drawing for the interpreter (the GIL): started before the first frame is
written, it slowed that frame by 40 to 140 ms. Textual's "after refresh" does not wait
for it when asked from a screen's mount (the screen is not current yet, so the screen
below runs the callback at once), and a frame asked for inside a batch is not written
at all; `App.post_display_hook` runs after every attempt to write one. So the screen
registers here and the app, after each frame it wrote, calls what the current screen
was waiting for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from textual.app import App
from textual.screen import Screen

_waiting: WeakKeyDictionary[Screen[Any], list[Callable[[], object]]] = WeakKeyDictionary()


def after_first_frame(screen: Screen[Any], callback: Callable[[], object]) -> None:
    """Call ``callback`` (on the app's thread) once a frame of ``screen`` is written."""
    _waiting.setdefault(screen, []).append(callback)


def frame_written(app: App[Any]) -> None:
    """A frame of the current screen was written (unless inside a batch, which writes
    none): start what it was waiting for. Called by the app after each display."""
    if not _waiting or app._batch_count:
        return
    callbacks = _waiting.pop(app.screen, None)
    for callback in callbacks or ():
        app.call_later(callback)
