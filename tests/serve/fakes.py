"""A fake session process for driving the hub directly: a list it appends messages to."""

from __future__ import annotations

from typing import Any

from tui.serve.games import HostedGame, Member
from tui.serve.hub import Hub
from tui.serve.protocol import Message


class Session:
    """What the hub sent one session, and a way to send as it."""

    def __init__(self, hub: Hub, name: str) -> None:
        self.hub = hub
        self.inbox: list[Message] = []
        self.member: Member = hub.connect(name, self.inbox.append)

    def send(self, **message: Any) -> None:
        self.hub.handle(self.member, message)

    def last(self, kind: str) -> Message:
        return next(m for m in reversed(self.inbox) if m["t"] == kind)

    def kinds(self) -> list[str]:
        return [m["t"] for m in self.inbox]

    def clear(self) -> None:
        self.inbox.clear()


def turn(hosted: HostedGame, *sessions: Session) -> Session:
    """The session whose seat must decide now."""
    pending = hosted.game.pending
    assert pending is not None
    return next(s for s in sessions if s.member.seat == pending.player)


def play(hosted: HostedGame, first: Session, second: Session, count: int) -> None:
    """Make ``count`` choices (always the first option), each from the right seat."""
    for _ in range(count):
        pending = hosted.game.pending
        assert pending is not None
        turn(hosted, first, second).send(t="choose", choice=[pending.id, pending.options[0].key])
