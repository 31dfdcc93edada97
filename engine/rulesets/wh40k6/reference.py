"""The quick reference, built from the ruleset's own tables (digest wh40k6 §6, §4).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.rulesets.wh40k6 import tables as t


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def _movement() -> list[str]:
    lines = ["## Movement"]
    lines += _table(
        ["Unit type", "Move", "Difficult terrain", "Fall back"],
        [
            [r.name, f'{r.move}"', r.difficult, f"{r.fall_back}D6" if r.fall_back else "never"]
            for r in t.MOVE_TABLE.values()
        ],
    )
    lines += ["", "## Instead of shooting"]
    rows = []
    for key, row in t.SHOOTING_MOVES.items():
        if row is None:
            rows.append([key, "cannot"])
        else:
            rows.append(
                [key, f"{row.kind} {row.dice}D6" if row.dice else f'{row.kind} {row.inches}"']
            )
    return lines + _table(["Class", "Move"], rows)


def _shooting() -> list[str]:
    lines = ["## Weapon types"]
    lines += _table(
        ["Type", "Shots after moving", "Snap shots if moved", "May charge"],
        [
            [k, r.moved_shots, "yes" if r.snap_if_moved else "no", "yes" if r.may_charge else "no"]
            for k, r in t.WEAPON_TYPES.items()
        ],
    )
    needed = []
    for bs in range(1, 11):
        hit, again = t.to_hit(bs)
        needed.append(f"{hit}+" + (f" (re-roll {again}+)" if again else ""))
    lines += ["", "## To hit (BS); snap shots hit only on a 6"]
    lines += _table(["BS", *[str(b) for b in range(1, 11)]], [["Needed", *needed]])
    lines += ["", "## To wound (S down, T across)"]
    rows = [
        [str(s), *[f"{w}+" if (w := t.to_wound(s, tt)) else "-" for tt in range(1, 11)]]
        for s in range(1, 11)
    ]
    return lines + _table(["S \\ T", *[str(v) for v in range(1, 11)]], rows)


def _vehicles_and_missions() -> list[str]:
    lines = ["## Vehicle damage (D6; +1 AP2, +2 AP1, +1 open-topped)"]
    lines += _table(
        ["Roll", "Result"],
        [
            ["1-3", t.SHAKEN],
            ["4", t.STUNNED],
            ["5", t.WEAPON_DESTROYED],
            ["6", t.IMMOBILISED],
            ["7+", t.EXPLODES],
        ],
    )
    lines += ["", "## Missions (D6)"]
    lines += _table(["D6", "Mission"], [[str(n), m.name] for n, m in t.MISSIONS.items()])
    lines += ["", "## Warlord traits (D3)"]
    lines += _table(
        ["D3", "Trait", "Effect"], [[str(n), a, b] for n, (a, b) in t.WARLORD_TRAITS.items()]
    )
    lines += ["", "## Psychic powers (D3)"]
    lines += _table(
        ["D3", "Power", "Kind", "Effect"],
        [[str(p.number), p.name, p.kind, p.text] for p in t.POWERS.values()],
    )
    return lines


def quick_reference() -> str:
    """Markdown: turn order, movement, shooting, charts, damage, missions, powers."""
    lines = [
        "# Warhammer 40,000 (6th edition)",
        "",
        "Each game turn both players take a player turn: **Movement** (blessings and "
        "maledictions first), **Shooting** (witchfire as shooting), **Assault** (charges, then "
        "fights). Game turn 5: 3+ to go on; turn 6: 4+; turn 7 is the last.",
        "",
    ]
    for part in (_movement(), _shooting(), _vehicles_and_missions()):
        lines += [*part, ""]
    return "\n".join(lines)
