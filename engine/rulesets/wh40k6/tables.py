"""Lookup tables of Warhammer 40,000 6th edition, as data (digest wh40k6 §4, §6, §8).

Everything a procedure looks up lives here: the unit-type movement table (§6.2), the
shooting-phase move table (§6.9), the weapon-type table (§6.8.4), the vehicle
weapons-by-speed table (§6.8.5), the passenger table (§6.8.6), the to-hit, to-wound and
weapon-skill charts (§6.8.8, §6.8.9, §6.13.4), the vehicle damage table (§6.8.14), game
length (§4.12), missions (§4.2), deployment maps (§4.3), warlord traits (§4.7) and the
psychic discipline (§4.8). The quick reference is built from these same tables.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

# -- movement (§6.2, §6.9) -------------------------------------------------------------

ROLL_2 = "roll 2D6, pick the highest"
ROLL_3 = "roll 3D6, pick the highest"
NO_EFFECT = "no effect"
DANGEROUS = "counts as dangerous terrain"
DT_START_END = "DT test if the move starts or ends in difficult terrain"
DT_TEST = "DT test"


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One row of the unit-type movement table (§6.2, seed p.149)."""

    name: str
    move: int
    """Maximum move in the Movement phase, in inches."""
    difficult: str
    """Effect of difficult terrain (one of the constants above)."""
    fall_back: int | None
    """Fall-back distance in D6 (2 = 2D6), None for units that never fall back."""
    minimum: int = 0
    """Minimum move (zooming flyers 18", swooping FMCs 12")."""


MOVE_TABLE: dict[str, MoveRow] = {
    "infantry": MoveRow("Infantry", 6, ROLL_2, 2),
    "jump": MoveRow("Jump units (using jump packs)", 12, DT_START_END, 3),
    "beast": MoveRow("Beasts", 12, NO_EFFECT, 3),
    "cavalry": MoveRow("Cavalry", 12, DANGEROUS, 3),
    "bike": MoveRow("Bikes", 12, DANGEROUS, 3),
    "jetbike": MoveRow("Jetbikes", 12, DT_START_END, 3),
    "adv_jetbike": MoveRow("Advanced jetbikes", 12, DT_START_END, 3),
    "monstrous_creature": MoveRow("Monstrous Creature", 6, ROLL_3, 2),
    "flying_mc": MoveRow("Flying Monstrous Creature (Swooping)", 24, NO_EFFECT, None, 12),
    "artillery": MoveRow("Artillery", 6, ROLL_2, 2),
    "jet_pack": MoveRow("Jet pack units (using packs)", 6, DT_START_END, 2),
    "skimmer": MoveRow("Skimmer", 12, DT_START_END, None),
    "walker": MoveRow("Walker", 6, ROLL_2, None),
    "flyer": MoveRow("Flyer (Zooming)", 36, NO_EFFECT, None, 18),
    "vehicle": MoveRow("Other vehicles", 12, DT_TEST, None),
}
"""Keyed by movement class (see `profiles.Profile.move_class`)."""


@dataclass(frozen=True, slots=True)
class ShootingMove:
    """One row of the "moving in the shooting phase" table (§6.9, seed p.152)."""

    kind: str
    """"Run", "Turbo-boost" or "Flat out"."""
    dice: int
    """D6 rolled for the distance (0: a fixed distance)."""
    inches: int
    """Fixed distance (0 when rolled)."""
    minimum: int = 0


SHOOTING_MOVES: dict[str, ShootingMove | None] = {
    "infantry": ShootingMove("Run", 1, 0),
    "artillery": ShootingMove("Run", 1, 0),
    "jump": ShootingMove("Run", 1, 0),
    "jet_pack": ShootingMove("Run", 1, 0),
    "monstrous_creature": ShootingMove("Run", 1, 0),
    "beast": ShootingMove("Run", 1, 0),
    "cavalry": ShootingMove("Run", 1, 0),
    "flying_mc": ShootingMove("Run", 2, 0),
    "walker": ShootingMove("Run", 1, 0),
    "bike": ShootingMove("Turbo-boost", 0, 12),
    "jetbike": ShootingMove("Turbo-boost", 0, 24),
    "adv_jetbike": ShootingMove("Turbo-boost", 0, 36),
    "heavy": None,
    "fast": ShootingMove("Flat out", 0, 12),
    "fast_skimmer": ShootingMove("Flat out", 0, 18),
    "flyer": ShootingMove("Flat out", 0, 24, 12),
    "vehicle": ShootingMove("Flat out", 0, 6),
}
"""Keyed by shooting-move class (see `profiles.Profile.run_class`); None: cannot."""

# -- weapons (§6.8.4, §6.8.5) -----------------------------------------------------------

ASSAULT = "Assault"
HEAVY = "Heavy"
ORDNANCE = "Ordnance"
PISTOL = "Pistol"
RAPID_FIRE = "Rapid Fire"
SALVO = "Salvo"
MELEE = "Melee"
GRENADE = "Grenade"


@dataclass(frozen=True, slots=True)
class WeaponTypeRow:
    """One row of the weapon-type table (§6.8.4, seed p.150)."""

    moved_shots: str
    """"full", "none" (cannot fire after moving) or "lower" (Salvo)."""
    snap_if_moved: bool
    may_charge: bool


WEAPON_TYPES: dict[str, WeaponTypeRow] = {
    ASSAULT: WeaponTypeRow("full", False, True),
    HEAVY: WeaponTypeRow("full", True, False),
    ORDNANCE: WeaponTypeRow("none", False, False),
    PISTOL: WeaponTypeRow("full", False, True),
    RAPID_FIRE: WeaponTypeRow("full", False, False),
    SALVO: WeaponTypeRow("lower", False, False),
}

ALL = 99
"""Every weapon of the vehicle may fire at full BS."""

VEHICLE_FIRE: dict[str, tuple[int | None, int | None, int | None]] = {
    "walker": (ALL, ALL, None),
    "fast": (ALL, ALL, 2),
    "heavy": (ALL, ALL, None),
    "flyer": (None, 4, 4),
    "vehicle": (ALL, 1, 0),
}
"""Weapons at full BS when (stationary, at combat speed, at cruising speed); None: n/a."""

COMBAT_SPEED = 6
"""A vehicle that moved more than 0" and at most 6" is at combat speed (§6.4)."""
STATIONARY, COMBAT, CRUISING, FLAT_OUT = "stationary", "combat speed", "cruising speed", "flat out"

# -- passengers (§6.8.6) ----------------------------------------------------------------

PASSENGER_FIRE: dict[str, str] = {
    STATIONARY: "normal",
    COMBAT: "moved",
    CRUISING: "snap",
    FLAT_OUT: "none",
    "crew shaken": "snap",
    "crew stunned": "none",
}
"""How passengers may fire from the transport (§6.8.6): normal, moved, snap or none."""

EMERGENCY_DISEMBARK = 3
"""Inches within which passengers of a wrecked or exploded transport are placed."""
EXPLOSION_PASSENGER_HIT = (4, None)
"""S4 AP - hits on each passenger when the transport explodes (§6.8.6)."""

# -- charts (§6.8.8, §6.8.9, §6.13.4) ----------------------------------------------------


def to_hit(bs: int) -> tuple[int, int | None]:
    """Needed to hit at BS, and the re-roll target of a missed die (BS 6+) (§6.8.8)."""
    if bs <= 0:
        return 7, None
    if bs <= 5:
        return 7 - bs, None
    return 2, max(2, 12 - bs)


SNAP_SHOT = 6
"""Snap shots hit only on a 6, whatever the BS (§6.8.8)."""


def to_wound(strength: int, toughness: int) -> int | None:
    """Needed to wound (§6.8.9): S−T ≥2 → 2+, +1 → 3+, 0 → 4+, −1 → 5+, −2/−3 → 6+, else none."""
    diff = strength - toughness
    if diff >= 2:
        return 2
    if diff == 1:
        return 3
    if diff == 0:
        return 4
    if diff == -1:
        return 5
    if diff >= -3:
        return 6
    return None


def ws_to_hit(attacker: int, defender: int) -> int:
    """Needed to hit in close combat (§6.13.4): 3+ if better, 5+ if outclassed, else 4+."""
    if attacker > defender:
        return 3
    if defender > 2 * attacker:
        return 5
    return 4


# -- vehicle damage (§6.8.14) ------------------------------------------------------------

SHAKEN, STUNNED, WEAPON_DESTROYED, IMMOBILISED, EXPLODES = (
    "Crew Shaken",
    "Crew Stunned",
    "Weapon Destroyed",
    "Immobilised",
    "Explodes!",
)


def damage_result(total: int) -> str:
    """The Vehicle Damage table (§6.8.14, §10 A-5): 1-3, 4, 5, 6, 7+."""
    if total <= 3:
        return SHAKEN
    return {4: STUNNED, 5: WEAPON_DESTROYED, 6: IMMOBILISED}.get(total, EXPLODES)


def damage_modifier(ap: int | None, open_topped: bool) -> int:
    """+1 for AP2, +2 for AP1, +1 more if open-topped (§6.8.13 step 4)."""
    mod = {1: 2, 2: 1}.get(ap or 0, 0)
    return mod + (1 if open_topped else 0)


EXPLOSION_HIT = (3, None)
"""Each model within the blast radius of an exploding vehicle takes an S3 AP - hit."""

# -- game length, missions, maps (§4.2, §4.3, §4.12) ----------------------------------------

GAME_LENGTH: dict[int, int] = {5: 3, 6: 4}
"""End of game turn -> the D6 needed to play another turn; turn 7 always ends."""
LAST_TURN = 7


@dataclass(frozen=True, slots=True)
class Mission:
    """A mission of the D6 table (§4.2) with its FILL-IN scoring (§4.2, §12.3)."""

    number: int
    name: str
    objectives: str
    """"none", "d3+2", "six", "own_zones" or "relic"."""
    bonus_scoring: str | None = None
    """Extra force-organisation slot that counts as scoring (and gives +1 VP per kill)."""
    per_unit_kill: bool = False
    """Purge the Alien: 1 VP per enemy unit destroyed."""


MISSIONS: dict[int, Mission] = {
    1: Mission(1, "Crusade", "d3+2"),
    2: Mission(2, "Purge the Alien", "none", per_unit_kill=True),
    3: Mission(3, "Big Guns Never Tire", "d3+2", "Heavy Support"),
    4: Mission(4, "The Scouring", "six", "Fast Attack"),
    5: Mission(5, "The Emperor's Will", "own_zones"),
    6: Mission(6, "The Relic", "relic"),
}
OBJECTIVE_VP = 3
SCOURING_VP = (4, 3, 3, 2, 2, 1)
"""The Scouring: marker values in placement order (PROPOSED: the digest gives no owner)."""

MAPS: dict[int, tuple[str, str]] = {
    1: ("dawn_of_war", "Dawn of War"),
    2: ("hammer_and_anvil", "Hammer and Anvil"),
    3: ("vanguard_strike", "Vanguard Strike"),
}
"""The deployment table, rolled on a D3 (§4.3, §10 A-2)."""

# -- warlord traits and psychic powers (§4.7, §4.8) ------------------------------------------

WARLORD_TRAITS: dict[int, tuple[str, str]] = {
    1: (
        "Inspiring Presence",
        "Friendly units within 12\" may use the Warlord's Ld for Morale, Pinning and Regroup.",
    ),
    2: (
        "Intimidating Presence",
        'Enemy units within 12" take -1 Ld on Morale, Pinning and Regroup tests.',
    ),
    3: ("Fearsome Charge", "The Warlord's unit may re-roll its charge-range dice."),
}
TRAIT_RANGE = 12

WITCHFIRE, BLESSING, MALEDICTION = "Witchfire", "Blessing", "Malediction"


@dataclass(frozen=True, slots=True)
class Power:
    """A psychic power of the discipline (§4.8)."""

    number: int
    name: str
    kind: str
    range: int
    """Inches (0: the psyker's own unit)."""
    text: str


POWERS: dict[int, Power] = {
    1: Power(1, "Psi-Bolt", WITCHFIRE, 18, "Assault 2, S5, AP4 shooting attack at the psyker's BS"),
    2: Power(2, "Iron Ward", BLESSING, 0, "the psyker's unit gains a 5+ invulnerable save"),
    3: Power(3, "Dread Hex", MALEDICTION, 24, "the target unit takes -2 Ld"),
}
IRON_WARD_SAVE = 5
DREAD_HEX = 2

# -- terrain (§4.5) ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Feature:
    """A kind of terrain feature and what it does (§4.5)."""

    name: str
    difficult: bool = False
    dangerous: str = ""
    """"" (never), "all" or "infantry" (razor wire)."""
    cover: int | None = None
    """Cover save to models in or behind it."""
    blocks_sight: bool = False
    impassable: bool = False


FEATURES: dict[str, Feature] = {
    "open": Feature("open ground"),
    "woods": Feature("woods", difficult=True, cover=5),
    "ruins": Feature("ruins", difficult=True, cover=4),
    "ruin_wall": Feature("ruin wall", cover=4, blocks_sight=True, impassable=True),
    "crater": Feature("crater", difficult=True, cover=5),
    "razor_wire": Feature("razor wire", difficult=True, dangerous="infantry", cover=6),
    "barricade": Feature("barricade", difficult=True, cover=4),
    "fortification": Feature("fortification", cover=3, blocks_sight=True, impassable=True),
    "rock": Feature("rock", blocks_sight=True, impassable=True),
    "wreck": Feature("vehicle wreck", difficult=True, dangerous="all", cover=5),
}
MODEL_COVER = 5
"""Intervening models of another unit give a 5+ cover save (§4.5, §11.4)."""
GO_TO_GROUND_COVER = 6
"""Going to ground gives 6+ cover to a model without any (§4.5)."""

# -- distances (§4.6, §4.9, §6) -----------------------------------------------------------------

COHERENCY = 2
DEPLOY_GAP = 12
"""Zones lie more than 12" from the centre line or diagonal (§4.3)."""
OBJECTIVE_EDGE = 6
OBJECTIVE_SPACING = 12
OBJECTIVE_CONTROL = 3
INFILTRATE_SEEN, INFILTRATE_HIDDEN = 18, 12
SCOUT_MOVE, SCOUT_FAST_MOVE, SCOUT_ENEMY_GAP = 6, 12, 12
FORTIFICATION_GAP = 3
MAX_CHARGE = 12
PILE_IN = 3
REGROUP_MOVE = 3
EMBARK_RANGE, DISEMBARK_RANGE = 2, 6
JET_ASSAULT_MOVE_DICE = 2
