"""The computer player sees only what its seat may see.

Two games that differ only in the other side's secret (its face-down activation deck,
its secret orders, its hand) must look the same to the bot: the same look-ahead copy and
the same choice. Each pair is built by answering the other side's hidden Decisions
differently, so both games are real, reachable games with the same public history.
"""

from __future__ import annotations

from pathlib import Path

from engine.bot import RandomBot
from engine.bot.players import EasyPlayer, NormalPlayer, lookahead_copy
from engine.cards import Deck
from engine.decisions import Choice
from engine.game import Game
from engine.hidden import SecretStack
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def twin_games(name: str, seed: int, until: int, secret: range) -> tuple[Game, Game]:
    """Game A played by a random bot for ``until`` choices; game B the same, except that
    the hidden answers at indices ``secret`` pick another option where there is one."""
    scenario = load_scenario(ROOT / "scenarios" / f"{name}.toml")
    a = Game(scenario, seed)
    bot = RandomBot(seed)
    while len(a.choices) < until:
        assert a.pending is not None
        a.choose(bot.choose(a.pending))
    b = Game(scenario, seed)
    for i, choice in enumerate(a.choices):
        pending = b.pending
        assert pending is not None
        if i in secret:
            assert pending.hidden and pending.player != a.pending.player  # type: ignore[union-attr]
            other = [o.key for o in pending.options if o.key != choice.key]
            b.choose(Choice(pending.id, other[0] if other else choice.key))
        else:
            b.choose(choice)
    return a, b


def assert_blind(a: Game, b: Game) -> None:
    """A and B differ in secret only, and the bot cannot tell them apart."""
    assert a.pending == b.pending and a.pending is not None
    assert a.view() == b.view()
    assert a.state_hash() != b.state_hash()  # the secret really differs
    seat = a.pending.player
    copy_a = lookahead_copy(a, seat, 77)
    copy_b = lookahead_copy(b, seat, 77)
    assert copy_a is not None and copy_b is not None
    assert copy_a.state_hash() == copy_b.state_hash()
    for seed in (1, 2, 3):
        assert NormalPlayer(seed).decide(a) == NormalPlayer(seed).decide(b)
        assert EasyPlayer(seed).decide(a) == EasyPlayer(seed).decide(b)


def test_confrontation_the_other_sides_deck_order_is_not_seen() -> None:
    """Seed 3: side 1 stacks its activation deck at choices 38-39, side 2 stacks, and at
    choice 44 side 2 picks whose Discipline to use with side 1's cards all face down."""
    a, b = twin_games("confrontation-crossing", 3, 44, range(38, 40))
    assert a.choices[38] != b.choices[38]
    assert_blind(a, b)


def test_apocalypse_the_other_sides_secret_orders_are_not_seen() -> None:
    """Seed 3: the Scrap Horde gives its two secret orders at choices 27-28; at 29 the
    Legion gives its own, the Horde's still face down."""
    a, b = twin_games("apocalypse-crossing", 3, 29, range(27, 29))
    assert a.choices[27:29] != b.choices[27:29]
    assert_blind(a, b)


def test_a_secret_stack_guess_ignores_the_real_order() -> None:
    first, second = SecretStack(1, ["c", "a", "b"]), SecretStack(1, ["b", "c", "a"])
    first.guess(0, 5)
    second.guess(0, 5)
    assert first.snapshot() == second.snapshot()
    assert sorted(first.secret_order(1)) == ["a", "b", "c"]
    own = SecretStack(0, ["c", "a", "b"])
    own.guess(0, 5)
    assert own.secret_order(0) == ("c", "a", "b")  # its owner knows it


def test_a_hand_guess_keeps_the_sizes_and_ignores_which_cards() -> None:
    first, second = Deck(1, "assets-1", list("abcdef")), Deck(1, "assets-1", list("fedcba"))
    first.draw(2, 9)
    second.draw(2, 9)
    assert first.hand != second.hand
    first.guess(0, 4)
    second.guess(0, 4)
    assert first.snapshot() == second.snapshot()
    assert len(first.hand) == 2 and len(first.draw_pile) == 4
    mine = Deck(0, "assets-0", list("abcdef"))
    mine.draw(2, 9)
    hand = list(mine.hand)
    mine.guess(0, 4)
    assert mine.hand == hand and sorted(mine.draw_pile) == sorted(set("abcdef") - set(hand))
