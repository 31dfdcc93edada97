"""The hub protocol: seats, turns, refusals, spectators, secrets, saves and restarts.

The hub is driven by messages, so these tests talk to it directly: each fake session is
a list the hub appends its messages to.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.decisions import Choice
from engine.save import decode, read_save, write_save
from engine.scenario import Scenario
from tests.serve.fakes import Session, play, turn
from tui.serve.games import OPEN_SEAT, HostedGame, clean_name
from tui.serve.hub import Hub
from tui.serve.protocol import ProtocolError, pack
from tui.serve.replica import SECRET_KEY, ReplicaGame

KILLTEAM = "killteam-crossroads.toml"


@pytest.fixture
def hub(tmp_path: Path) -> Hub:
    return Hub(tmp_path / "state")


def two_seats(hub: Hub, seed: int = 7) -> tuple[Session, Session, HostedGame]:
    """alice creates a Kill Team game (seat 0), bob takes the free seat (seat 1)."""
    alice, bob = Session(hub, "alice"), Session(hub, "bob")
    alice.send(t="create", scenario=KILLTEAM, seed=seed)
    game_id = alice.last("joined")["game"]
    bob.send(t="sit", game=game_id, seat=None)
    return alice, bob, hub.games[game_id]


def test_create_sit_and_lobby(hub: Hub, tmp_path: Path) -> None:
    alice, bob, hosted = two_seats(hub)
    assert hosted.game.players == ("alice", "bob")
    assert (alice.member.seat, bob.member.seat) == (0, 1)
    assert alice.last("joined")["seat"] == 0 and bob.last("joined")["seat"] == 1
    assert read_save(hosted.path).players == ("alice", "bob")  # seats survive a restart
    assert hosted.path.parent == tmp_path / "state" / "games"
    carol = Session(hub, "carol")
    (line,) = carol.last("lobby")["games"]
    assert line["seats"] == ["alice", "bob"] and line["online"] == [True, True]
    assert line["turn"] == hosted.game.pending.player  # type: ignore[union-attr]
    offers = {key: sides for key, _, sides in carol.last("lobby")["scenarios"]}
    assert offers[KILLTEAM] == ["Vanguard Militia", "Ashen Reavers"]
    carol.send(t="sit", game=hosted.id, seat=None)
    assert carol.last("refused")["message"].startswith("both seats are taken")
    carol.send(t="watch", game=hosted.id)
    assert carol.last("joined")["seat"] is None
    assert alice.last("players")["watchers"] == 1


def test_a_choice_reaches_every_session_and_the_save(hub: Hub) -> None:
    alice, bob, hosted = two_seats(hub)
    carol = Session(hub, "carol")
    carol.send(t="watch", game=hosted.id)
    pending = hosted.game.pending
    assert pending is not None
    player = turn(hosted, alice, bob)
    player.send(t="choose", choice=[pending.id, pending.options[0].key])
    assert len(hosted.game.choices) == 1
    for session in (alice, bob, carol):
        update = session.last("choice")
        assert update["choice"] == [pending.id, pending.options[0].key]
        assert update["checkup"][2] == hosted.game.checkups[-1].state_hash
    assert read_save(hosted.path).choices == (Choice(pending.id, pending.options[0].key),)


def test_a_choice_is_sent_to_every_session_before_it_is_saved(
    hub: Hub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every screen moves without waiting for the disk; the save follows before the hub
    reads anything else (a restart then finds the choice)."""
    alice, bob, hosted = two_seats(hub)
    carol = Session(hub, "carol")
    carol.send(t="watch", game=hosted.id)
    seen_at_save: list[list[int]] = []

    def write(game: object, path: Path) -> None:
        seen_at_save.append([len([m for m in s.inbox if m["t"] == "choice"]) for s in sessions])
        write_save(game, path)  # type: ignore[arg-type]

    sessions = (alice, bob, carol)
    monkeypatch.setattr("tui.serve.games.write_save", write)
    play(hosted, alice, bob, 2)
    assert seen_at_save == [[1, 1, 1], [2, 2, 2]]
    assert read_save(hosted.path).choices == tuple(hosted.game.choices)
    assert Hub(hub.store.folder.parent).games[hosted.id].game.choices == hosted.game.choices


def test_wrong_seat_unknown_stale_and_spectator_choices_change_nothing(hub: Hub) -> None:
    alice, bob, hosted = two_seats(hub)
    carol = Session(hub, "carol")
    carol.send(t="watch", game=hosted.id)
    game = hosted.game
    pending = game.pending
    assert pending is not None
    player = turn(hosted, alice, bob)
    other = bob if player is alice else alice
    before = (len(game.choices), game.state_hash(), hosted.path.read_bytes())
    attempts = [
        (other, [pending.id, pending.options[0].key], "wrong player"),
        (carol, [pending.id, pending.options[0].key], "wrong player"),
        (player, [pending.id, "no-such-option"], "unknown option"),
        (player, [pending.id + 5, pending.options[0].key], "stale"),
    ]
    for session, choice, why in attempts:
        session.clear()
        session.send(t="choose", choice=choice)
        assert session.kinds() == ["refused"] and session.last("refused")["why"] == why
    assert carol.last("refused")["message"].startswith("you are watching")
    assert "options" not in other.last("refused")["message"]  # not a peek at my options
    assert (len(game.choices), game.state_hash(), hosted.path.read_bytes()) == before
    assert hub.refusals == 4
    assert "choice" not in alice.kinds() + bob.kinds()


def test_a_new_terminal_takes_the_seat_over_and_a_dropped_seat_waits(hub: Hub) -> None:
    alice, bob, hosted = two_seats(hub)
    play(hosted, alice, bob, 2)
    hub.disconnect(bob.member)  # the connection dropped
    assert hosted.online() == [True, False]
    assert hosted.game.players == ("alice", "bob")  # the seat is still bob's
    alice2 = Session(hub, "alice")
    alice2.send(t="sit", game=hosted.id, seat=None)  # resume from another terminal
    assert alice2.member.seat == 0 and alice2.last("joined")["seat"] == 0
    assert alice.member.game is None and alice.last("left")["message"].startswith("You took")
    bob2 = Session(hub, "bob")
    bob2.send(t="sit", game=hosted.id, seat=None)
    assert bob2.member.seat == 1
    data = decode(bob2.last("joined")["save"], "joined")
    assert len(data.choices) == 2
    eve = Session(hub, "eve")
    eve.send(t="sit", game=hosted.id, seat=1)
    assert eve.last("refused")["message"] == "that seat is bob's"


def test_a_diverged_copy_is_sent_the_game_again(hub: Hub) -> None:
    alice, bob, hosted = two_seats(hub)
    play(hosted, alice, bob, 1)
    bob.clear()
    bob.send(t="ack", n=1, hash=hosted.game.checkups[0].state_hash)
    assert bob.inbox == [] and bob.member.synced == 1
    bob.send(t="ack", n=1, hash="0000")
    assert bob.kinds() == ["joined"] and hub.resyncs == 1


def test_malformed_requests(hub: Hub) -> None:
    alice, _, _ = two_seats(hub)
    with pytest.raises(ProtocolError):
        alice.send(t="shell")
    with pytest.raises(ProtocolError):
        alice.send(t="choose", choice="1,2")
    alice.send(t="sit", game="../../etc/passwd", seat=0)
    assert alice.last("refused")["why"] == "request"
    alice.send(t="replay", game="../../etc/passwd")
    assert alice.last("refused")["message"] == "no such finished game"
    alice.send(t="create", scenario="/etc/passwd", seed=1)
    assert alice.last("refused")["message"] == "no such scenario on this server"
    assert len(pack({"t": "x"})) < 10


def test_game_limit(tmp_path: Path) -> None:
    hub = Hub(tmp_path, max_games=1)
    alice = Session(hub, "alice")
    alice.send(t="create", scenario=KILLTEAM, seed=1)
    alice.send(t="create", scenario=KILLTEAM, seed=2)
    assert "limit" in alice.last("refused")["message"]
    assert len(hub.games) == 1


def test_restart_resumes_unfinished_games_from_their_saves(tmp_path: Path) -> None:
    hub = Hub(tmp_path)
    alice, bob, hosted = two_seats(hub, seed=11)
    play(hosted, alice, bob, 6)
    state = hosted.game.state_hash()
    restarted = Hub(tmp_path)  # the old one is simply gone, as after a crash
    again = restarted.games[hosted.id]
    assert len(again.game.choices) == 6 and again.game.state_hash() == state
    assert again.game.players == ("alice", "bob")
    alice = Session(restarted, "alice")
    alice.send(t="sit", game=hosted.id, seat=None)
    assert alice.member.seat == 0
    bob = Session(restarted, "bob")
    bob.send(t="sit", game=hosted.id, seat=None)
    play(again, alice, bob, 1)  # and play goes on, saved as before
    assert len(read_save(again.path).choices) == 7
    alice.send(t="create", scenario=KILLTEAM, seed=3)
    assert alice.last("joined")["game"].startswith("0002-")  # numbering goes on too


def test_secret_choices_never_show_to_the_other_seat(hub: Hub, secret_scenario: Scenario) -> None:
    hosted = hub.store.new(secret_scenario, 1)
    hub.games[hosted.id] = hosted
    red, blue, carol = Session(hub, "red"), Session(hub, "blue"), Session(hub, "carol")
    red.send(t="sit", game=hosted.id, seat=0)
    blue.send(t="sit", game=hosted.id, seat=1)
    carol.send(t="watch", game=hosted.id)
    copies = {
        s.member.seat: ReplicaGame(decode(s.last("joined")["save"], "j"), viewer=s.member.seat)
        for s in (red, blue, carol)
    }
    pending = hosted.game.pending
    assert pending is not None and pending.hidden and pending.player == 0
    mine = copies[0].pending
    assert mine is not None and [o.key for o in mine.options] == ["1", "2", "3"]
    for viewer in (1, None):  # the other seat and the spectator see only who decides
        theirs = copies[viewer].pending
        assert theirs is not None and theirs.player == 0 and theirs.id == pending.id
        assert [o.key for o in theirs.options] == [SECRET_KEY]
        assert "card" not in theirs.prompt.lower() and theirs.subject is None
    blue.send(t="choose", choice=[pending.id, SECRET_KEY])
    assert blue.last("refused")["why"] == "wrong player"
    red.send(t="choose", choice=[pending.id, "3"])
    for copy in copies.values():  # every copy stays in step, secrets and all
        copy.apply(Choice(*red.last("choice")["choice"]))
        assert copy.state_hash() == hosted.game.state_hash()
    with pytest.raises(ValueError, match="server"):
        copies[1].choose(Choice(1, "1"))  # a copy never moves by itself
    assert copies[0].pending is not None and copies[0].secret_pending  # blue's secret now
    assert copies[1].pending is not None and not copies[1].secret_pending


def test_finished_games_are_listed_and_replayable(
    tmp_path: Path, secret_scenario: Scenario
) -> None:
    hub = Hub(tmp_path)
    hosted = hub.store.new(secret_scenario, 1)
    hub.games[hosted.id] = hosted
    red, blue = Session(hub, "red"), Session(hub, "blue")
    red.send(t="sit", game=hosted.id, seat=0)
    blue.send(t="sit", game=hosted.id, seat=1)
    red.send(t="watch", game="nothing")
    red.send(t="replay", game=hosted.id)
    assert red.last("refused")["message"].startswith("this game is not finished")
    play(hosted, red, blue, 4)
    assert hosted.game.is_over
    red.send(t="replay", game=hosted.id)
    assert decode(red.last("replay")["save"], "r").result is not None
    restarted = Hub(tmp_path)
    assert hosted.id not in restarted.games  # finished: listed, not replayed
    (line,) = restarted.finished
    assert line["finished"] and line["seats"] == ["red", "blue"]
    carol = Session(restarted, "carol")
    carol.send(t="replay", game=hosted.id)
    assert carol.last("replay")["save"] == hosted.path.read_bytes()


def test_login_names_are_cleaned() -> None:
    assert clean_name(OPEN_SEAT) == "openseat"  # nobody can pose as a free seat
    assert clean_name("\x1b[2Jeve") == "2Jeve"
    assert clean_name("") == "guest"
    assert clean_name("alice@laptop") == "alice@laptop"
    assert len(clean_name("x" * 100)) == 24
