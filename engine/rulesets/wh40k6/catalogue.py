"""The default catalogue: the FILL-IN weapons and forces of digest wh40k6 §12.1-§12.2.

Plain data in the same shape as a scenario's ``[wh40k6.weapons]``, ``[wh40k6.profiles]``
and ``[wh40k6.units]`` tables, parsed by `profiles.parse_catalogue`. Kept in Python (not
a data file) so it ships with the package without packaging configuration.

Beyond §12.2, three entries are **invented for this game** to exercise rules the §12
forces never use: Warden Rangers (Infiltrate), Warden Outriders (Bikes, Scout) and the
Scrap Hauler (a fast, open-topped transport, §6.15). Only the "open war" scenario fields
them.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from typing import Any

_FRAG = ["assault_grenades"]

WEAPONS: dict[str, dict[str, Any]] = {
    "service_rifle": {
        "name": "Service rifle",
        "range": 24,
        "strength": 4,
        "ap": 5,
        "type": "Rapid Fire",
    },
    "service_pistol": {
        "name": "Service pistol",
        "range": 12,
        "strength": 4,
        "ap": 5,
        "type": "Pistol 1",
    },
    "heavy_repeater": {
        "name": "Heavy repeater",
        "range": 36,
        "strength": 5,
        "ap": 4,
        "type": "Heavy 3",
    },
    "las_lance": {"name": "Las-lance", "range": 48, "strength": 9, "ap": 2, "type": "Heavy 1"},
    "power_blade": {"name": "Power blade", "strength": "User", "ap": 3, "type": "Melee"},
    "krak_grenades": {"name": "Krak grenades", "strength": 6, "ap": 4, "type": "Grenade"},
    "scrap_pistol": {
        "name": "Scrap pistol",
        "range": 12,
        "strength": 4,
        "ap": 6,
        "type": "Pistol 1",
    },
    "cleaver": {"name": "Cleaver", "strength": "User", "ap": "-", "type": "Melee"},
    "crusher_claw": {
        "name": "Crusher claw",
        "strength": "User×2",
        "ap": 2,
        "type": "Melee",
        "rules": ["unwieldy", "specialist"],
    },
    "scrap_rocket": {
        "name": "Scrap rocket",
        "range": 24,
        "strength": 8,
        "ap": 3,
        "type": "Assault 1",
    },
    "scrap_cannon": {
        "name": "Scrap cannon",
        "range": 36,
        "strength": 5,
        "ap": 5,
        "type": "Assault 3",
    },
    "walker_claw": {"name": "Walker claw", "strength": "User×2", "ap": 2, "type": "Melee"},
    "psi_bolt": {
        "name": "Psi-Bolt",
        "range": 18,
        "strength": 5,
        "ap": 4,
        "type": "Assault 2",
        "rules": ["psychic"],
    },
}


def _infantry(
    name: str, glyph: str, stats: str, sv: int, weapons: list[str], **extra: Any
) -> dict[str, Any]:
    ws, bs, s, t, w, i, a, ld = (int(v) for v in stats.split())
    return {
        "name": name,
        "glyph": glyph,
        "type": extra.pop("type", "infantry"),
        "ws": ws,
        "bs": bs,
        "s": s,
        "t": t,
        "w": w,
        "i": i,
        "a": a,
        "ld": ld,
        "sv": sv,
        "weapons": weapons,
        **extra,
    }


_WARDEN_KIT = ["service_rifle", "service_pistol", "krak_grenades"]

PROFILES: dict[str, dict[str, Any]] = {
    "lexicar": _infantry(
        "Warden Lexicar",
        "L",
        "5 4 4 4 2 4 2 10",
        3,
        ["power_blade", "service_pistol", "krak_grenades"],
        rules=["character", "psyker", *_FRAG],
        mastery=1,
    ),
    "warden_sergeant": _infantry(
        "Warden Sergeant",
        "S",
        "4 4 4 4 1 4 2 9",
        3,
        ["power_blade", "service_pistol", "krak_grenades"],
        rules=_FRAG,
    ),
    "warden": _infantry("Warden", "w", "4 4 4 4 1 4 1 8", 3, _WARDEN_KIT, rules=_FRAG),
    "heavy_warden": _infantry(
        "Heavy Warden",
        "h",
        "4 4 4 4 1 4 1 8",
        3,
        ["heavy_repeater", "service_pistol", "krak_grenades"],
        rules=_FRAG,
    ),
    "ranger": _infantry(
        "Warden Ranger", "g", "4 4 4 4 1 4 1 8", 4, _WARDEN_KIT, rules=["infiltrate", *_FRAG]
    ),
    "outrider": _infantry(
        "Warden Outrider",
        "b",
        "4 4 4 5 1 4 1 8",
        3,
        ["service_rifle", "service_pistol"],
        type="bike",
        rules=["scout"],
    ),
    "bastion_tank": {
        "name": "Bastion Tank",
        "glyph": "T",
        "type": "vehicle",
        "vehicle_types": ["tank"],
        "bs": 4,
        "av_front": 13,
        "av_side": 11,
        "av_rear": 10,
        "hp": 3,
        "size": 3,
        "weapons": [
            {"weapon": "las_lance", "mount": "turret"},
            {"weapon": "heavy_repeater", "mount": "hull"},
        ],
    },
    "horde_chieftain": _infantry(
        "Horde Chieftain",
        "C",
        "5 2 5 5 3 3 3 9",
        4,
        ["crusher_claw", "scrap_pistol"],
        rules=["character"],
    ),
    "mob_boss": _infantry(
        "Mob Boss", "B", "4 2 4 4 1 2 3 7", 6, ["scrap_pistol", "cleaver"], rules=["fleet"]
    ),
    "raider": _infantry(
        "Raider", "r", "4 2 3 4 1 2 2 7", 6, ["scrap_pistol", "cleaver"], rules=["fleet"]
    ),
    "rocket_raider": _infantry(
        "Rocket Raider", "k", "4 2 3 4 1 2 2 7", 6, ["scrap_rocket", "cleaver"], rules=["fleet"]
    ),
    "sky_raider": _infantry(
        "Sky Raider", "j", "4 2 3 4 1 3 2 7", 6, ["scrap_pistol", "cleaver"], type="jump"
    ),
    "scrap_walker": {
        "name": "Scrap Walker",
        "glyph": "W",
        "type": "vehicle",
        "vehicle_types": ["walker", "open_topped"],
        "ws": 3,
        "bs": 2,
        "s": 5,
        "i": 2,
        "a": 2,
        "av_front": 11,
        "av_side": 11,
        "av_rear": 10,
        "hp": 3,
        "size": 2,
        "weapons": ["walker_claw", "scrap_cannon"],
    },
    "scrap_hauler": {
        "name": "Scrap Hauler",
        "glyph": "H",
        "type": "vehicle",
        "vehicle_types": ["fast", "open_topped", "transport"],
        "bs": 2,
        "av_front": 10,
        "av_side": 10,
        "av_rear": 10,
        "hp": 3,
        "size": 3,
        "capacity": 12,
        "weapons": [{"weapon": "scrap_cannon", "mount": "turret"}],
    },
}

UNITS: dict[str, dict[str, Any]] = {
    "warden_lexicar": {
        "name": "Warden Lexicar",
        "slot": "HQ",
        "points": 90,
        "models": [{"profile": "lexicar"}],
    },
    "warden_squad": {
        "name": "Warden Squad",
        "slot": "Troops",
        "points": 95,
        "models": [
            {"profile": "warden_sergeant"},
            {"profile": "warden", "count": 3},
            {"profile": "heavy_warden"},
        ],
    },
    "bastion_tank": {
        "name": "Bastion Tank",
        "slot": "Heavy Support",
        "points": 130,
        "models": [{"profile": "bastion_tank"}],
    },
    "warden_rangers": {
        "name": "Warden Rangers",
        "slot": "Elites",
        "points": 70,
        "models": [{"profile": "ranger", "count": 4}],
    },
    "warden_outriders": {
        "name": "Warden Outriders",
        "slot": "Fast Attack",
        "points": 70,
        "models": [{"profile": "outrider", "count": 3}],
    },
    "horde_chieftain": {
        "name": "Horde Chieftain",
        "slot": "HQ",
        "points": 85,
        "models": [{"profile": "horde_chieftain"}],
    },
    "horde_mob": {
        "name": "Horde Mob",
        "slot": "Troops",
        "points": 80,
        "models": [
            {"profile": "mob_boss"},
            {"profile": "raider", "count": 8},
            {"profile": "rocket_raider"},
        ],
    },
    "sky_raiders": {
        "name": "Sky Raiders",
        "slot": "Fast Attack",
        "points": 70,
        "models": [{"profile": "sky_raider", "count": 5}],
    },
    "scrap_walker": {
        "name": "Scrap Walker",
        "slot": "Heavy Support",
        "points": 75,
        "models": [{"profile": "scrap_walker"}],
    },
    "scrap_hauler": {
        "name": "Scrap Hauler",
        "slot": "Fast Attack",
        "points": 45,
        "models": [{"profile": "scrap_hauler"}],
    },
}

CATALOGUE: dict[str, Any] = {"weapons": WEAPONS, "profiles": PROFILES, "units": UNITS}
