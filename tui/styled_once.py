"""A screen's widgets styled once before its first frame, not three times.

Textual styles each widget as it mounts, then again (the whole screen) at two moments
that change nothing for a screen just pushed: its first Resize, which sets the size
classes of the app's breakpoints (``-short``, ``-tall``), and its first ScreenResume,
which restyles in case the styles changed while it was covered (it never was). A game
screen has some 50 widgets; the two restyles were about a fifth of Continue's work from
the app's start to the first frame. So the size classes are set while the screen
composes (the Resize then finds them right), and the first ScreenResume does not
restyle.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakSet

from textual.events import ScreenResume
from textual.screen import Screen

_resumed: WeakSet[Screen[Any]] = WeakSet()


def at_breakpoints(screen: Screen[Any]) -> None:
    """Give ``screen`` the classes its breakpoints name for the terminal's size now, as
    its first Resize would (call it from ``compose``)."""
    app = screen.app
    width, height = app.size
    own_across, own_down = screen.HORIZONTAL_BREAKPOINTS, screen.VERTICAL_BREAKPOINTS
    classes: dict[str, bool] = {}
    for size, breakpoints in (
        (width, app.HORIZONTAL_BREAKPOINTS if own_across is None else own_across),
        (height, app.VERTICAL_BREAKPOINTS if own_down is None else own_down),
    ):
        marks = sorted(breakpoints or (), reverse=True)
        for _, name in marks:
            classes[name] = False
        for threshold, name in marks:
            if size >= threshold:
                classes[name] = True
                break
    if classes:
        screen.update_classes(classes, animate=False)


def first_resume(screen: Screen[Any], event: ScreenResume) -> None:
    """At ``screen``'s first ScreenResume, keep the styles it mounted with (call it from
    the screen's ``on_screen_resume``, which runs before Textual's own handler)."""
    if screen not in _resumed:
        _resumed.add(screen)
        event.refresh_styles = False
