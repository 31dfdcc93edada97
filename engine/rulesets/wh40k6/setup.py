"""The pre-game sequence, steps 1-9 and 14 (digest wh40k6 §4.1-§4.8, §4.10).

Mission (D1) and deployment map (D2) are agreed or rolled; the table-half roll-off
winner picks a half (D3); fortifications (D4), terrain (D5), objectives (D6), Warlord
traits (D7) and psychic powers (D8) follow; a second roll-off decides who deploys first
(D9). Deployment itself, infiltrators and scouts live in `deployment`. The second
deployer may try to Seize the Initiative (D13).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.checks import TABLE, Check
from engine.decisions import Decision, DecisionKind, Option, Procedure, ask_yes_no
from engine.roll_off import roll_off as shared_roll_off
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import maps
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.fortifications import place_fortifications
from engine.rulesets.wh40k6.objectives import place_objectives
from engine.rulesets.wh40k6.psychic import generate_powers
from engine.rulesets.wh40k6.state import State
from engine.rulesets.wh40k6.terrain_setup import alternating_terrain, auto_terrain
from engine.wording import agrees, possessive

ROLL = "roll"


@dataclass(frozen=True, slots=True)
class SetupOptions:
    """What the scenario fixes and what the players decide (§12.3)."""

    mission: int | str = 5
    """1-6, or "roll" / "choose"."""
    deployment: str = "dawn_of_war"
    """A map key, or "roll" / "choose"."""
    terrain: str = "fixed"
    """"fixed", "auto", "alternating" or "choose"."""
    fortifications: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = ((), ())


def roll_off(state: State, ctx: RuleContext, title: str, prize: str) -> int:
    """Each player rolls a D6; the higher wins; ties re-roll (§3.7)."""
    return shared_roll_off(ctx, (state.side(0).name, state.side(1).name), title, prize)


def choose_mission(state: State, ctx: RuleContext, setting: int | str) -> Procedure[None]:
    """D1: agree on a mission or roll D6 on the mission table (§4.1 step 1, §4.2)."""
    number = setting if isinstance(setting, int) else None
    if setting == "choose":
        picked = yield from _propose(
            "mission", [(str(n), f"{m.name} (mission {n})") for n, m in t.MISSIONS.items()]
        )
        number = None if picked is None else int(picked)
    if number is None:
        number = ctx.dice.d6(player=-1, reason="mission table", check=TABLE)
    state.mission = number
    ctx.emit("MissionChosen", f"Mission: {t.MISSIONS[number].name}", mission=number)


def choose_map(state: State, ctx: RuleContext, setting: str) -> Procedure[None]:
    """D2: agree on a deployment map or roll D3 (§4.1 step 2, §10 A-2)."""
    keys = {k: name for k, name in t.MAPS.values()}
    key: str | None = setting if setting in keys else None
    if setting == "choose":
        key = yield from _propose("deployment map", list(keys.items()))
    if key is None:
        key = t.MAPS[ctx.dice.d3(player=-1, reason="deployment map table", check=TABLE)][0]
    state.deployment_map = key
    ctx.emit("DeploymentMapChosen", f"Deployment map: {keys[key]}", deployment=key)


def _propose(what: str, choices: list[tuple[str, str]]) -> Procedure[str | None]:
    """Player 1 proposes, player 2 accepts or refuses; refusing means rolling (D1, D2)."""
    options = [Option(ROLL, f"Roll for the {what}")] + [
        Option(k, f"Propose {label}") for k, label in choices
    ]
    choice = yield Decision(
        0, DecisionKind.PICK_OPTION, f"Agree on the {what} or roll?", tuple(options)
    )
    if choice.key == ROLL:
        return None
    label = dict(choices)[choice.key]
    agreed = yield from ask_yes_no(1, f"Your opponent proposes {label}: agree (no: roll for it)?")
    return choice.key if agreed else None


def table_halves(state: State, ctx: RuleContext) -> Procedure[int]:
    """D3: the roll-off winner picks a table half; returns the winner (§4.1 step 3)."""
    winner = roll_off(state, ctx, "Table-halves roll-off", "chooses a table half")
    halves = maps.HALVES[state.deployment_map]
    choice = yield Decision(
        winner,
        DecisionKind.PICK_OPTION,
        "Which table half do you take?",
        tuple(Option(key, label.capitalize()) for key, label in halves),
    )
    mine = choice.key
    for player, half in ((winner, mine), (1 - winner, maps.other_half(state.deployment_map, mine))):
        side = state.side(player)
        side.half = half
        side.zone = maps.zone(half, state.width, state.height)
        side.edges = maps.EDGES[half]
        takes = agrees(side.name, "takes")
        ctx.emit("TableHalfTaken", f"{side.name} {takes} {dict(halves)[half]}", player=player)
    return winner


def warlord_traits(state: State, ctx: RuleContext) -> Procedure[None]:
    """D7 if the scenario names no Warlord, then each player rolls a D3 trait (§4.7)."""
    for side in state.sides:
        if not side.warlord:
            hq = [
                m
                for m in state.models.values()
                if m.player == side.player
                and "character" in m.profile.rules
                and state.unit_of(m).slot == "HQ"
            ]
            if not hq:
                continue
            if len(hq) > 1:
                choice = yield Decision(
                    side.player,
                    DecisionKind.PICK_MODEL,
                    "Which HQ character is your Warlord?",
                    tuple(Option(m.id, m.name, model=m.id) for m in hq),
                )
                side.warlord = choice.key
            else:
                side.warlord = hq[0].id
                ctx.answered(
                    f"{hq[0].name} is the Warlord of {side.name}: its only HQ character.",
                    side.player,
                )
            state.unit_of(state.models[side.warlord]).warlord = True
        roll = ctx.dice.d3(player=side.player, reason="Warlord trait", check=TABLE)
        side.trait = roll
        name, text = t.WARLORD_TRAITS[roll]
        ctx.emit(
            "WarlordTraitRolled",
            f"{possessive(side.name)} Warlord: {name} ({text})",
            player=side.player,
            trait=roll,
        )


def pregame_until_deployment(
    state: State, ctx: RuleContext, options: SetupOptions
) -> Procedure[int]:
    """Steps 1-8; returns the table-half roll-off winner."""
    state.phase = "Setup"
    ctx.enter(0, "Setup")
    yield from choose_mission(state, ctx, options.mission)
    yield from choose_map(state, ctx, options.deployment)
    winner = yield from table_halves(state, ctx)
    yield from place_fortifications(state, ctx, winner, options.fortifications)
    method = options.terrain
    if method == "choose":
        choice = yield Decision(
            winner,
            DecisionKind.PICK_OPTION,
            "How is the terrain set up?",
            (
                Option("fixed", "Keep the scenario's map as it is"),
                Option("auto", "Auto terrain (seeded random, by density)"),
                Option("alternating", "Alternating method: place pieces in turn"),
            ),
        )
        method = choice.key
    if method == "auto":
        auto_terrain(state, ctx)
    elif method == "alternating":
        yield from alternating_terrain(state, ctx, winner)
    yield from place_objectives(state, ctx, winner)
    yield from warlord_traits(state, ctx)
    for player in (winner, 1 - winner):
        yield from generate_powers(state, ctx, player)
    return winner


def seize_the_initiative(state: State, ctx: RuleContext) -> Procedure[None]:
    """D13: the second deployer may roll a D6; on a 6 it goes first (§4.10)."""
    second = 1 - state.first_deployer
    name = state.side(second).name
    state.first_player = state.first_deployer
    yes = yield from ask_yes_no(
        second, "Try to Seize the Initiative (a 6 on a D6 takes the first turn)?"
    )
    if not yes:  # said, or the first player learns nothing of the offer
        ctx.emit(
            "InitiativeNotTried",
            f"{name} {agrees(name, 'does')} not try to seize the initiative",
            player=second,
        )
        return
    check = Check("seize", 6, "a 6 seizes", fails_on=frozenset(), words=("seized", "fails"))
    face = ctx.dice.d6(player=second, reason="Seize the Initiative", check=check)
    if check.passes(face):
        state.first_player = second
        ctx.emit(
            "InitiativeSeized", f"{name} {agrees(name, 'seizes')} the initiative!", player=second
        )
    else:
        ctx.emit(
            "InitiativeNotSeized",
            f"{name} {agrees(name, 'fails')} to seize the initiative",  # face: dice line
        )
