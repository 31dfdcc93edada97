"""How the normal Confrontation player orders its activations: the activation deck
(judgement `_stack`: shooters first, heroes last) and which charges it declares."""

from __future__ import annotations

from engine.bot.players import make_bot
from engine.game import Game
from engine.position import parse_position
from tests.rulesets.confrontation.test_evaluation import SCENARIOS, table


def carded(phase: str, fighters: list[tuple[int, str, str, int, int]]) -> Game:
    """A round-1 (2 at the Strategic phase) position of ``(player, profile, card, x, y)``
    fighters, side 1 the Tactical winner."""
    text = 'scenario = "confrontation-crossing.toml"\n'
    text += f'round = {2 if phase == "Strategic" else 1}\nphase = "{phase}"\n'
    text += "[confrontation]\ntactical_winner = 1\n"
    for player, profile, card, x, y in fighters:
        text += f'[[confrontation.fighters]]\nplayer = {player}\nprofile = "{profile}"\n'
        text += f'card = "{card}"\ncell = [{x}, {y}]\n'
    position = parse_position(text, "p.toml", base=SCENARIOS)
    return Game(position.scenario, 0, position=position)


FIGHTERS = [
    (1, "aldric", "A1", 10, 5),
    (1, "spearman", "A2", 11, 5),
    (1, "spearman", "A2", 12, 5),
    (1, "crossbowman", "A3", 13, 5),
    (2, "grish", "B1", 10, 30),
    (2, "cutthroat", "B2", 11, 30),
    (2, "cutthroat", "B3", 12, 30),
    (2, "slinger", "B4", 13, 30),
]


def test_shooters_go_on_top_of_the_deck_and_heroes_at_the_bottom() -> None:
    """The Captain on top walked out alone ahead of his spearmen (the deck was stacked in
    the order the cards are listed); now the crossbowmen shoot first and the Captain
    comes last, to charge what came within reach. Grish, a hero with throwing knives,
    goes last too; the slingers first."""
    game = carded("Strategic", FIGHTERS)
    stacked: list[list[str]] = [[], []]
    while game.pending is not None and game.pending.prompt.startswith("Secretly stack"):
        decision = game.pending
        key = make_bot("normal", 1).decide(game).key
        stacked[decision.player].append(key)
        game.choose_key(key)
    assert stacked == [["A3", "A2"], ["B4", "B2", "B3"]]


def test_a_spearman_does_not_charge_where_its_card_mate_takes_the_last_contact_cell() -> None:
    """The goblin has one free contact cell (the Captain and the crossbowmen hold the
    others); the first spearman's charge takes it, so the second's would fall short and
    leave it stranded (a spearman on Grish, seed 5018): normal takes its common actions
    instead (it declared the charge)."""
    game = carded(
        "Activation",
        [
            (1, "spearman", "A2", 10, 13),
            (1, "spearman", "A2", 11, 13),
            (2, "cutthroat", "B2", 10, 20),
            (1, "crossbowman", "A3", 9, 20),
            (1, "crossbowman", "A3", 11, 20),
            (1, "aldric", "A1", 10, 21),
        ],
    )
    game.choose_key("me")
    game.choose_key("charge:B2")
    decision = game.pending
    assert decision is not None and decision.prompt == "Declare the action of Lantern Spearman A2.2"
    crowded = next(o for o in decision.options if o.key == "charge:B2")
    assert "in reach if a contact cell is left" in crowded.label
    for seed in (1, 2, 3):
        assert make_bot("normal", seed).decide(game).key == "common"


def test_the_tactical_winner_lets_the_other_side_take_the_first_turn() -> None:
    """Each enemy card is then answered by one of its own (the look-ahead chose by the
    quick worth's play of its own first card against no reply: 'me' on some seeds)."""
    game = table((1, "crossbowman", 3, 9), (1, "aldric", 5, 9), (2, "cutthroat", 3, 20))
    decision = game.pending
    assert decision is not None and decision.prompt == (
        "You won the Tactical roll: who takes the first activation turn?"
    )
    assert {make_bot("normal", seed).decide(game).key for seed in range(1, 9)} == {"them"}
