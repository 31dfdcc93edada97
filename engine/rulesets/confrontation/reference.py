"""The quick reference, built from the ruleset's own tables and profiles.

Digest confrontation §4.5, §5, §8.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.rulesets.confrontation.profiles import Profile, show_cm
from engine.rulesets.confrontation.tables import (
    DIFFICULTY,
    LOCATIONS,
    ROW_LABELS,
    WOUND_TABLE,
    Band,
    Result,
)

_PHASES = """\
## Round

1. **Strategic**: cards of dead fighters leave play; each player secretly stacks his
   cards face down; Tactical roll (d6 + DIS of a chosen fighter, opposed).
2. **Activation**: the Tactical winner chooses who starts; players alternate revealing
   their top card. Declare every fighter's action, resolve charges first, then the rest.
3. **Combat**: the Tactical winner splits melees into fights (one against one or more);
   players alternate picking fights; each is fought to the end, then pursuit.
4. **Time-out**: nothing happens; round flags are cleared.

## Tests

d6 + stat. A natural 1 fails. A 6 may be re-rolled and added (a 1 on the re-roll fails).
Several dice: the best counts; all 6s are re-rolled together. Opposed tests: the side
behind decides its re-roll first; ties are rolled again.

## Actions

* **Charge** (exclusive): up to 2 x MOV into contact; no sight needed; faces the target.
* **Walk** MOV, **run** 2 x MOV (free at reveal, nothing else), **shoot** before or
  after a walk. Never end a walk or run in contact.
* **Disengage**: d6 + INI (or STR - best enemy RES if larger than all) against
  4 + 2 per enemy in contact; failure puts all combat dice in defence this round.

## Melee

Combat dice = opponents + 1. Initiative: opposed INI (+1 per other fighter on a side).
The loser splits his dice into attack and defence first. Each attack: the defender
commits defence dice, the attacker rolls d6 + ATT, the defender needs as much with
its best die + DEF. A hit rolls 2d6 on the wound table with the attacker's STR.

## Heroes

* **Extra dice**: +1 or +2 combat dice, -2 ATT and -2 DEF each for the fight.
* **Counter-attack**: parry by 2 or more and strike back at once.
* **Master strike**: 2 attack dice, one roll, damage STR + ATT.
* **Quick reload**: two shots at +2 difficulty, nothing else.
"""


def quick_reference(profiles: list[Profile]) -> str:
    """Markdown: phases, actions, the wound table, range bands and the reference cards."""
    lines = ["# Confrontation 3 (Rackham)", "", _PHASES, "## Wound table (2d6)", ""]
    lines.append("Column: the lower die. Row: higher die + STR - RES. Double 6 kills.")
    lines.append("")
    lines.append("| Row | " + " | ".join(LOCATIONS) + " |")
    lines.append("|---" * (len(LOCATIONS) + 1) + "|")
    for label, row in zip(ROW_LABELS, WOUND_TABLE, strict=True):
        lines.append(
            f"| {label} | "
            + " | ".join("-" if r is Result.NONE else r.name.title() for r in row)
            + " |"
        )
    lines += ["", "## Shooting difficulty", ""]
    lines += [
        f"* {band.value}: {DIFFICULTY[band]}" for band in (Band.SHORT, Band.MEDIUM, Band.LONG)
    ]
    lines += ["* beyond long range: the shot is spent", "", "## Reference cards", ""]
    lines.append("| Fighter | MOV | INI | ATT | STR | DEF | RES | AIM | DIS | AP |")
    lines.append("|---" * 10 + "|")
    for p in profiles:
        aim = "-" if p.aim is None else str(p.aim)
        lines.append(
            f"| {p.name}{' (hero)' if p.is_hero else ''} | {show_cm(p.mov_cm)} cm | {p.ini} "
            f"| {p.att} | {p.strength} | {p.def_} | {p.res} | {aim} | {p.dis} | {p.ap} |"
        )
    weapons = [f"* {p.name}: {p.weapon.describe()}" for p in profiles if p.weapon]
    if weapons:
        lines += ["", "Ranged weapons:", "", *weapons]
    return "\n".join(lines) + "\n"
