"""Writing a Kill Team moment as a position file (the reverse of ``position.py``).

The position records where every model stands and every token it carries, each side's
resources, the round and the phase; a game loaded from it starts at the beginning of that
phase. The scenario is embedded, so the file stands alone.
"""

from __future__ import annotations

import json

from engine.position import PositionError
from engine.rulesets.killteam.position import PHASES, STATES
from engine.rulesets.killteam.state import KTState, Model
from engine.scenario import Scenario


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are a subset of TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def position_toml(state: KTState, scenario: Scenario) -> str:
    """The state as a position at the start of its current phase."""
    phase = state.phase
    if phase not in PHASES and not (phase == "Deployment" and state.round <= 1):
        raise PositionError(
            f"a Kill Team position starts at a phase ({', '.join(PHASES)}); "
            f"it cannot be saved during {phase or 'setup'}"
        )
    lines = [
        "# A Kill Team position saved by wargrid: load it with `wargrid play --position`.",
        f"scenario = {{ text = {_string(scenario.text)} }}",
        f"round = {max(1, state.round)}",
        f"phase = {_string(phase)}",
        "",
        "[killteam]",
        f"initiative = {state.initiative + 1}",
    ]
    for team in state.teams:
        lines += [
            "",
            "[[killteam.sides]]",
            f"cp = {team.cp}",
            f"vp = {team.vp}",
            f"broken = {'true' if team.broken else 'false'}",
            f"start_count = {team.start_count}",
            f"points = {team.points}",
        ]
    for model in state.models.values():
        lines += ["", "[[killteam.models]]", *_model_lines(model)]
    return "\n".join(lines) + "\n"


def _model_lines(model: Model) -> list[str]:
    sheet = model.sheet
    carried = {w.id for w in model.weapons}
    options = [o.with_[0] for o in sheet.options if set(o.with_) <= carried]
    lines = [
        f"id = {_string(model.id)}",
        f"player = {model.player + 1}",
        f"datasheet = {_string(sheet.id)}",
    ]
    if model.specialism:
        lines.append(f"specialism = {_string(model.specialism)}")
    if options:
        lines.append(f"options = {json.dumps(options)}")
    if model.out_of_action or model.cell is None:
        lines.append("out_of_action = true")
    else:
        lines += [f"cell = [{model.cell.x}, {model.cell.y}]", f"wounds = {model.wounds}"]
    if model.flesh_wounds:
        lines.append(f"flesh_wounds = {model.flesh_wounds}")
    states = [name for name, flag in STATES.items() if getattr(model, flag)]
    if states:
        lines.append(f"states = {json.dumps(states)}")
    if model.charge_declared and model.charge_targets:
        lines.append(f"charge_targets = {json.dumps(sorted(model.charge_targets))}")
    return lines
