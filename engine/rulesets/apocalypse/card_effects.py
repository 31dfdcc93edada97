"""What each asset of the §12.4 deck does, and when it can be played (digest apocalypse §12.4).

`PLAYABLE[kind](state, player, window)` says whether playing the card now would do
anything; `EFFECTS[kind](state, ctx, player, window)` resolves it. The choices a card
asks for after it is played are public (the card is face up by then).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.attacks import ROLL_OFF, add_blast, is_wound, roll_wounds
from engine.rulesets.apocalypse.command import clear
from engine.rulesets.apocalypse.fighting import leadership
from engine.rulesets.apocalypse.geometry import visible
from engine.rulesets.apocalypse.placement import reserve_cells
from engine.rulesets.apocalypse.shooting import can_shoot, has_targets, shoot_action
from engine.rulesets.apocalypse.state import ApocState, Unit
from engine.rulesets.apocalypse.window import Window
from engine.wording import agrees, possessive, says

Playable = Callable[[ApocState, int, Window], bool]
Effect = Callable[[ApocState, RuleContext, int, Window], Procedure[None]]

BARRAGE_DICE = 3
BARRAGE_SAP = 6
BARRAGE_SAT = 9
MARCH_BONUS = 3


def _pick_unit(
    player: int, prompt: str, units: list[Unit], extra: tuple[Option, ...] = ()
) -> Decision:
    return Decision(
        player,
        DecisionKind.PICK_MODEL,
        prompt,
        tuple(Option(u.uid, u.name, cell=u.anchor, model=u.uid) for u in units) + extra,
    )


def _tactical_ok(state: ApocState, player: int, win: Window) -> bool:
    return player not in win.rerolled


def _tactical(state: ApocState, ctx: RuleContext, player: int, win: Window) -> Procedure[None]:
    """Tactical Insight: re-roll your own initiative die, once."""
    win.rerolled.add(player)
    old = win.dice[player]
    reroll = ctx.dice.roll(1, 12, player=player, reason="initiative re-roll", check=ROLL_OFF)
    win.dice[player] = reroll.faces[0]
    ctx.emit(
        "InitiativeRerolled",
        f"{state.side(player).name} re-rolls initiative: {old} -> {win.dice[player]}",
        player=player,
    )
    yield from ()


def tactical_odds(player: int, win: Window) -> Odds:
    """What Tactical Insight buys: the chance a fresh D12 takes the Initiative from the
    other die (a tie going to `Window.tie`); none where the die already holds it. Shown
    on the card, so a player (and the computer, `Option.spends`) need not re-roll a die
    winning 8 to 1."""
    other = win.dice[1 - player]

    def holds(face: int) -> bool:
        return face > other or (face == other and win.tie == player)

    wins = 0 if holds(win.dice[player]) else sum(1 for f in range(1, 13) if holds(f))
    return Odds.of(("re-roll takes the Initiative", Fraction(wins, 12)))


def deserters(state: ApocState, player: int) -> list[Unit]:
    return [u for u in state.on_battlefield(player) if u.deserter]


def _hold_ok(state: ApocState, player: int, win: Window) -> bool:
    return bool(deserters(state, player))


def _hold(state: ApocState, ctx: RuleContext, player: int, win: Window) -> Procedure[None]:
    """Hold the Line: remove the Deserter markers of up to 2 of your units."""
    for n in (1, 2):
        units = deserters(state, player)
        if not units:
            return
        extra = (Option("done", "No more", neutral=True),) if n == 2 else ()
        choice = yield _pick_unit(
            player,
            f"Hold the Line: remove the Deserter marker of which unit ({n} of 2)?",
            units,
            extra,
        )
        if choice.key == "done":
            return
        clear(ctx, state.units[choice.key], "holds the line")


def _ambush_ok(state: ApocState, player: int, win: Window) -> bool:
    return win.unit is not None and bool(reserve_cells(state, state.units[win.unit], deep=True))


def _ambush(state: ApocState, ctx: RuleContext, player: int, win: Window) -> Procedure[None]:
    """Ambush: the arriving unit sets up anywhere more than 9" from every enemy."""
    win.ambush = True
    yield from ()


def _always(state: ApocState, player: int, win: Window) -> bool:
    return True


def _march(state: ApocState, ctx: RuleContext, player: int, win: Window) -> Procedure[None]:
    """Forced March: +3" to Move actions, or re-roll natural-1 wound rolls."""
    assert win.detachment is not None
    det = state.detachments[win.detachment].name
    effects = {
        "move": f'{possessive(det)} Move actions get +3" this activation',
        "reroll": f"{det} {agrees(det, 're-rolls')} wound rolls of natural 1 this activation",
    }
    choice = yield Decision(
        player,
        DecisionKind.PICK_OPTION,
        f"Forced March for {det}: choose one effect",
        tuple(Option(key, words) for key, words in effects.items()),
    )
    target = state.effects.march_move if choice.key == "move" else state.effects.march_reroll
    target.add(win.detachment)
    ctx.emit("AssetResolved", f"Forced March: {effects[choice.key]}", player=player)


def _smoke_ok(state: ApocState, player: int, win: Window) -> bool:
    return bool(state.on_battlefield(player))


def _smoke(state: ApocState, ctx: RuleContext, player: int, win: Window) -> Procedure[None]:
    """Smoke Screen: one of your units is obscured against the activating detachment."""
    assert win.detachment is not None
    det = state.detachments[win.detachment].name
    prompt = f"Smoke Screen: which of your units is obscured against {det}?"
    choice = yield _pick_unit(player, prompt, state.on_battlefield(player))
    state.effects.smoke[choice.key] = win.detachment
    name = state.units[choice.key].name
    ctx.emit(
        "AssetResolved",
        f"{says(name, 'is')} hidden by smoke from {det} this activation",
        player=player,
    )


def barrage_targets(state: ApocState, player: int) -> list[Unit]:
    mine = state.on_battlefield(player)
    return [e for e in state.on_battlefield(1 - player) if any(visible(state, u, e) for u in mine)]


def _barrage_ok(state: ApocState, player: int, win: Window) -> bool:
    return bool(barrage_targets(state, player))


def _barrage(state: ApocState, ctx: RuleContext, player: int, win: Window) -> Procedure[None]:
    """Precision Barrage: 3 wound rolls, SAP 6+ / SAT 9+, no hit rolls."""
    choice = yield _pick_unit(
        player,
        "Precision Barrage: 3 wound rolls on which enemy unit?",
        barrage_targets(state, player),
    )
    target = state.units[choice.key]
    needed = BARRAGE_SAP if target.sheet.category == "LIGHT" else BARRAGE_SAT
    reason = f"barrage on {target.name}"
    heavy = target.sheet.category != "LIGHT"
    faces = roll_wounds(ctx, player, BARRAGE_DICE, needed, reason=reason, heavy=heavy)
    wounds = sum(is_wound(f, needed) for f in faces)
    for _ in range(wounds):
        add_blast(target)
    ctx.emit(
        "WoundsRolled",
        "",  # the dice line says it all
        player=player,
        target=target.uid,
        wounds=wounds,
        small=target.blast_small,
        large=target.blast_large,
        dice=BARRAGE_DICE,
        needed=needed,
    )


def gunners(state: ApocState, player: int) -> list[Unit]:
    return [
        u
        for u in state.on_battlefield(player)
        if state.detachment_of(u).activated and can_shoot(state, u) and has_targets(state, u)
    ]


def _opportunity_ok(state: ApocState, player: int, win: Window) -> bool:
    return bool(gunners(state, player))


def _opportunity(state: ApocState, ctx: RuleContext, player: int, win: Window) -> Procedure[None]:
    """Opportunity Fire: a free Shoot action, no order modifiers."""
    choice = yield _pick_unit(
        player,
        "Opportunity Fire: which of your units makes a free Shoot action?",
        gunners(state, player),
    )
    yield from shoot_action(state, ctx, state.units[choice.key], free=True)


def _fortitude(state: ApocState, ctx: RuleContext, player: int, win: Window) -> Procedure[None]:
    """Fortitude: +1 to every save roll of that unit this phase."""
    assert win.unit is not None
    state.effects.fortitude.add(win.unit)
    yield from ()


def _nerves(state: ApocState, ctx: RuleContext, player: int, win: Window) -> Procedure[None]:
    """Steady Nerves: the morale test is passed automatically."""
    win.auto_pass = True
    yield from ()


def _nerves_ok(state: ApocState, player: int, win: Window) -> bool:
    """Only when the test can fail: a 6 plus the blast markers beats the Ld (§6.12.2 4)."""
    unit = state.units.get(win.unit or "")
    return unit is None or 6 + unit.blasts > leadership(state, unit)


def damaged_units(state: ApocState, player: int) -> list[Unit]:
    return [u for u in state.on_battlefield(player) if u.damage]


def _repairs_ok(state: ApocState, player: int, win: Window) -> bool:
    return bool(damaged_units(state, player))


def _repairs(state: ApocState, ctx: RuleContext, player: int, win: Window) -> Procedure[None]:
    """Field Repairs: remove 1 damage marker, and critical damage if back to W/2."""
    prompt = "Field Repairs: remove 1 damage marker from which unit?"
    choice = yield _pick_unit(player, prompt, damaged_units(state, player))
    unit = state.units[choice.key]
    unit.damage -= 1
    if unit.critical and 2 * unit.damage <= unit.sheet.wounds:
        unit.critical = False
    ctx.emit(
        "DamageRepaired",
        f"{says(unit.name, 'is')} repaired: damage {unit.damage}"
        + ("" if unit.critical else ", no critical damage"),
        player=player,
        unit=unit.uid,
    )


PLAYABLE: dict[str, Playable] = {
    "tactical_insight": _tactical_ok,
    "hold_the_line": _hold_ok,
    "ambush": _ambush_ok,
    "forced_march": _always,
    "smoke_screen": _smoke_ok,
    "precision_barrage": _barrage_ok,
    "opportunity_fire": _opportunity_ok,
    "fortitude": _always,
    "steady_nerves": _nerves_ok,
    "field_repairs": _repairs_ok,
}

EFFECTS: dict[str, Effect] = {
    "tactical_insight": _tactical,
    "hold_the_line": _hold,
    "ambush": _ambush,
    "forced_march": _march,
    "smoke_screen": _smoke,
    "precision_barrage": _barrage,
    "opportunity_fire": _opportunity,
    "fortitude": _fortitude,
    "steady_nerves": _nerves,
    "field_repairs": _repairs,
}
