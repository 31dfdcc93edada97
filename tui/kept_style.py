"""A widget's base style kept between frames (`KeptStyle`).

Textual's `DOMNode.rich_style` walks the widget's ancestors and blends their colours at
every call, and the line widgets call it for each line they draw: in a spectator's frame
that was a third of the battlefield's drawing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style

if TYPE_CHECKING:
    from textual.widget import Widget

    _Base = Widget
else:
    _Base = object  # a plain mixin: a Widget subclass in the bases would shadow theirs


class KeptStyle(_Base):
    """``rich_style`` worked out once, and again only after a style update: Textual calls
    `notify_style_update` on every widget a stylesheet (re)applies to, which is every
    widget under one whose classes, pseudo-classes or theme changed. Put it first in a
    widget's bases."""

    _kept_style: Style | None = None

    @property
    def rich_style(self) -> Style:
        style = self._kept_style
        if style is None:
            style = self._kept_style = super().rich_style
        return style

    def notify_style_update(self) -> None:
        self._kept_style = None
        super().notify_style_update()
