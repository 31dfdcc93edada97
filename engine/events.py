"""Events: what happened, for the log panel, the replay viewer and the tests.

An Event is a past-tense ``kind`` ("ModelMoved", "HitRolled"), a plain-English ``text``
and structured ``fields`` (scalars only, so an event is msgpack-ready as it stands).
`Game` stamps each with its sequence number, round and phase. No Rich markup here: the
TUI adds colour.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias

Scalar: TypeAlias = str | int | bool | None
"""The values an event field may hold."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in the game."""

    kind: str
    """Past-tense name: ModelMoved, HitRolled, ModelSlain, PhaseStarted..."""
    text: str
    """One line in plain English; empty when the dice line just before it says it all
    (the event stays, for its kind and fields, but no log shows it: `engine.chronicle`)."""
    fields: Mapping[str, Scalar] = field(default_factory=lambda: MappingProxyType({}))
    seq: int = -1
    """Position in the game's event log (stamped by `Game`)."""
    round: int = 0
    phase: str = ""
    rolls: int = -1
    """How many rolls the game had made when this happened (stamped by `Game`): the one
    fact that puts each dice line right after the event that caused it in every log
    (`engine.chronicle`). -1: not known (an event not yet logged)."""

    def describe(self) -> str:
        """The event as one log line."""
        return self.text

    def get(self, key: str) -> Scalar:
        """A field's value, or None."""
        return self.fields.get(key)

    def to_record(self) -> list[object]:
        """Compact msgpack-ready form."""
        return [
            self.seq,
            self.round,
            self.phase,
            self.kind,
            self.text,
            dict(self.fields),
            self.rolls,
        ]

    @classmethod
    def from_record(cls, record: list[object]) -> Event:
        """Rebuild an event stored by `to_record` (types are checked by the save loader);
        records written before the roll stamp existed have six entries (stamp -1)."""
        seq, rnd, phase, kind, text, fields, *rest = record
        rolls = rest[0] if rest else -1
        assert isinstance(seq, int) and isinstance(rnd, int) and isinstance(rolls, int)
        assert isinstance(phase, str) and isinstance(kind, str) and isinstance(text, str)
        assert isinstance(fields, dict)
        return cls(kind, text, MappingProxyType(dict(fields)), seq, rnd, phase, rolls)
