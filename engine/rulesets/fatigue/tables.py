"""Every tunable number of Roads of the Apocalypse in one table (digest fatigue §3.1).

Designers change the game here, not in the procedures. Each constant names the tag of
the rule it comes from (SEED, SEED-IMPLIED, PROPOSED or FILL-IN).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

FREE_ACTIVATIONS = 2
"""Activations per unit per round that cause no fatigue (SEED-IMPLIED, §10 #2)."""
ACTION_FP_COST = 1
"""FP paid for every basic action (SEED-IMPLIED: "2 FP for the attack and the ability")."""
COMMANDER_FP_BONUS = 1
"""FP a living commander of a non-fleeing unit adds to the pool (SEED)."""
BRACE_PROXIMITY = 3
"""Bracing is allowed even within 3 steps of a scrum (SEED); no check is needed."""
DRAW_IN_RADIUS = 3
"""Steps within which a free unit is drawn into a scrum (FILL-IN, §6.7)."""
TERROR_RADIUS = 3
"""Steps within which a terrifying model forces a Terror test (SEED)."""
CAMO_SPOT_RANGE = 3
"""Steps within which a camouflaged unit can be shot or attacked (FILL-IN, §6.30)."""
COHERENCY = 2
"""Every model within 2 steps of another model of its unit (EXT / FILL-IN, §6.31)."""
OBJECTIVE_RANGE = 2
"""Steps within which models count for objective control (FILL-IN, §4.4)."""
RALLYING_VOICE_RANGE = 6
"""Steps from the Leader to the unit Rallying Voice rallies (FILL-IN, §8)."""
MOVE_SHOOT_PENALTY = 1
"""Shooting penalty of a unit that moved this round and has not aimed (FILL-IN size)."""
COVER_PENALTY = 1
"""Shooting penalty against an obscured target (FILL-IN, §11.3)."""
FATIGUE_HIT_MOD = 1
"""To-hit penalty per fatigue token (PROPOSED, §10 #10)."""
FATIGUE_MORALE_MOD = 1
"""Morale penalty per fatigue token (PROPOSED, §10 #10)."""
FEAR_MOD = 1
"""Melee to-hit and Morale penalty of a failed Fear (a) test (SEED)."""
TERROR_MOD = 2
"""Melee to-hit and Morale penalty of a TERRIFIED unit in a scrum (SEED)."""
BRACE_BONUS = 1
"""+1 Mobility and +1 to melee dice of a braced unit (SEED)."""
LEAP_BONUS = 1
"""+1 Mobility and one Ramming die in the first exchange after a Leap Attack (SEED)."""
ROUNDS = 6
"""Default game length (FILL-IN, §12.3); a scenario's ``rounds`` overrides it."""
FIRST_SCORING_ROUND = 2
"""Objectives score at the end of rounds 2-6 (FILL-IN, §4.4)."""
DESTROYED_UNIT_VP = 2
"""VP per destroyed enemy unit at game end (FILL-IN, §4.4)."""
FALL_DROP = 2
"""A drop of at least this height is a fall (optional elevation, §10 #37)."""

LOW_OBSTACLE_HEIGHT = 1
"""Height of a low obstacle when the map gives none (§4.2)."""
WALL_HEIGHT = 3
"""Height of a wall when the map gives none (§4.2)."""

ROSTER_POINTS = 125
"""Largest force, in points (FILL-IN, §4.1)."""
ROSTER_UNITS = (3, 6)
"""Fewest and most units in a force (FILL-IN, §4.1)."""
ROSTER_MODELS = 25
"""Most models in a force (FILL-IN, §4.1)."""

STUPIDITY_TABLE = ((1, 3, "shuffles forward at half speed"), (4, 6, "stands still and drools"))
"""Stupidity failure table, D6 (SEED, §4.5)."""
MISFIRE_TABLE = ((1, 1, "Blowback"), (2, 3, "Jam"), (4, 6, "Sputter"))
"""Misfire table, D6 (FILL-IN, §6.29)."""


def d2(face: int) -> int:
    """A D2 read from a D6: 1-3 is 1, 4-6 is 2 (PROPOSED, §6.1 item 1)."""
    return 1 if face <= 3 else 2


def table_entry(table: tuple[tuple[int, int, str], ...], face: int) -> str:
    """The result of a D6 table row."""
    for low, high, text in table:
        if low <= face <= high:
            return text
    raise ValueError(f"no table row for {face}")
