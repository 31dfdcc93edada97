"""The engine's exceptions: every failure a UI or CLI must explain to a person.

All derive from `WargridError`, so a front end can catch one type and print its message
instead of a traceback. Must not import anything else from the engine.
"""

from __future__ import annotations

import enum


class WargridError(Exception):
    """Base of every error the engine raises on purpose."""


class ChoiceRejection(enum.Enum):
    """Why a Choice was refused, so a UI can react without parsing messages."""

    NO_DECISION = "no decision is pending"
    """The game is over, or has not started."""
    STALE = "stale"
    """The Choice answers an earlier Decision than the pending one."""
    UNKNOWN_OPTION = "unknown option"
    """The Choice names an option the Decision does not offer."""
    WRONG_PLAYER = "wrong player"
    """Somebody else's seat tried to answer (SSH seats)."""


class IllegalChoiceError(WargridError, ValueError):
    """A Choice the pending Decision does not allow; the game is unchanged."""

    def __init__(self, message: str, reason: ChoiceRejection) -> None:
        super().__init__(message)
        self.reason = reason


class StaleChoiceError(IllegalChoiceError):
    """A Choice for a Decision that is no longer pending; the game is unchanged."""

    def __init__(self, message: str) -> None:
        super().__init__(message, ChoiceRejection.STALE)


class UndoRefusedError(WargridError):
    """Undo is not allowed: dice were rolled after the last choice, or nothing to undo."""


class ScenarioError(WargridError):
    """A scenario file is unusable; the message names the file, the key and the fix."""


class SaveError(WargridError):
    """A save file cannot be read: damaged, foreign, or from a newer format."""


class ReplayMismatchError(WargridError):
    """Re-running a save did not reproduce it; the message names the first divergence."""

    def __init__(self, message: str, step: int) -> None:
        super().__init__(message)
        self.step = step


class UnknownRulesetError(WargridError, LookupError):
    """No ruleset of that name; the message lists the valid names."""


class DiceScriptError(WargridError):
    """Scripted dice were used up or rolled for an unexpected reason (tests only)."""


class EngineBugError(WargridError):
    """The rules engine itself failed on a legal choice; the game is as before the choice.

    A front end shows the message, keeps the game at the previous decision and files
    ``trace`` (the original traceback) in a bug report, so a rules bug never costs a game.
    """

    def __init__(self, message: str, trace: str) -> None:
        super().__init__(message)
        self.trace = trace
