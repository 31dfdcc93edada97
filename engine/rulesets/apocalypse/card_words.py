"""What an asset offer says: whose window it is, and on whom each card would work.

A playtest found the offers bare: "Enemy activation: play an asset?" over "Smoke Screen —
One of your units is obscured against the activating detachment's attacks" named neither
the detachment activating nor the units a card could choose. Here the window's prompt
names what it is about (the detachment activating, the unit arriving or being resolved,
the initiative dice) and each card's label says on whom it works; its detail lists them
all. Only public facts and the offered player's own units are named (the offer is
hidden, so nothing of the hand leaks; digest apocalypse §6.4.2, §12.4).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rulesets.apocalypse.card_effects import (
    barrage_targets,
    damaged_units,
    deserters,
    gunners,
)
from engine.rulesets.apocalypse.state import ApocState, Unit
from engine.rulesets.apocalypse.window import Window
from engine.wording import agrees, its, possessive

WINDOW_NAMES = {
    "W-INIT": "Initiative",
    "W-DESERT": "Deserters",
    "W-RESERVE": "Reserves",
    "W-PREACT": "Before the next activation",
    "W-ACT-OWN": "Your activation",
    "W-ACT-ENEMY": "Enemy activation",
    "W-DMG-SELECT": "Damage",
    "W-MORALE": "Morale test",
    "W-DMG-END": "End of the Damage phase",
}

SHORT_LIST = 2
"""A label names at most this many units ("Line Squad α or Captain"); more are counted
there and named in the detail, so a label stays a line or two at 80 columns."""


def window_prompt(state: ApocState, win: Window, player: int) -> str:
    """ "Enemy activation (Brute Warband): play an asset?" """
    about = _about(state, win, player)
    where = WINDOW_NAMES[win.name] + (f" ({about})" if about else "")
    return f"{where}: play an asset?"


def _about(state: ApocState, win: Window, player: int) -> str:
    det = state.detachments.get(win.detachment or "")
    if det is not None:
        return det.name
    unit = state.units.get(win.unit or "")
    if unit is not None:
        return f"{unit.name} arriving" if win.name == "W-RESERVE" else unit.name
    if win.name == "W-INIT" and len(win.dice) == 2:
        return f"your die {win.dice[player]}, the enemy's {win.dice[1 - player]}"
    return ""


def card_words(state: ApocState, kind: str, player: int, win: Window, text: str) -> tuple[str, str]:
    """(on whom, the detail) for a card of ``kind`` offered to ``player`` in ``win``:
    "hides one of 3 units from Brute Warband" and its rule text with the names put in.
    ``text``, the card's own rule, is kept where nothing names a target."""
    det = state.detachments.get(win.detachment or "")
    detachment = det.name if det is not None else "the activating detachment"
    unit = state.units.get(win.unit or "")
    name = unit.name if unit is not None else "that unit"
    if kind == "tactical_insight" and len(win.dice) == 2:
        mine, other = win.dice[player], win.dice[1 - player]
        return f"re-roll your {mine} (the enemy has {other})", text
    if kind == "hold_the_line":
        units = deserters(state, player)
        whom = (
            " and ".join(u.name for u in units) if len(units) <= 2 else f"2 of {len(units)} units"
        )
        return f"rallies {whom}", _listed(units, "up to 2 lose their Deserter markers.")
    if kind == "ambush":
        return (
            f'{name} {agrees(name, "sets")} up more than 9" from the enemy',
            f'{name} {agrees(name, "sets")} up anywhere more than 9" from every enemy unit.',
        )
    if kind == "forced_march":
        return f'+3" moves or wound re-rolls for {detachment}', (
            f'Choose: {possessive(detachment)} Move actions get +3" this activation, or '
            f"{its(detachment)} units re-roll wound rolls of natural 1 this activation."
        )
    if kind == "smoke_screen":
        units = state.on_battlefield(player)
        return f"hides {_short(units, 'your ')} from {detachment}", _listed(
            units, f"one is obscured against {detachment} this activation."
        )
    if kind == "precision_barrage":
        units = barrage_targets(state, player)
        return f"3 wound rolls on {_short(units, 'enemy ')}", _listed(
            units, "3 wound rolls (SAP 6+, SAT 9+) on one, no hit rolls."
        )
    if kind == "opportunity_fire":
        units = gunners(state, player)
        return f"a free shot by {_short(units, 'your ')}", _listed(
            units, "one makes a free Shoot action (no order modifiers)."
        )
    if kind == "fortitude":
        return f"+1 to {possessive(name)} saves", f"+1 to every save of {name} this phase."
    if kind == "steady_nerves":
        return (
            f"{name} {agrees(name, 'passes')} morale",
            f"{name} {agrees(name, 'passes')} the morale test (no die rolled).",
        )
    if kind == "field_repairs":
        units = damaged_units(state, player)
        return f"repairs {_short(units)}", _listed(
            units,
            "one loses 1 damage marker (and its critical damage if then at most half W).",
            damage=True,
        )
    return "", text


def _short(units: Sequence[Unit], whose: str = "") -> str:
    """ "Captain", "Captain or Carrier", "one of your 4 units" """
    if len(units) > SHORT_LIST:
        return f"one of {whose}{len(units)} units"
    return " or ".join(u.name for u in units) or "no unit"


def _listed(units: Sequence[Unit], rest: str, *, damage: bool = False) -> str:
    """The units first ("A, B or C: one is ..."): a short panel cuts the end."""
    names = [f"{u.name} ({u.damage} damage)" if damage else u.name for u in units]
    joined = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)
    return f"{joined}: {rest}"
