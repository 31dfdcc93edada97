"""The hub: the server's one authoritative `Game` per hosted game, and the sessions.

Every session process keeps a copy of its game (`tui.serve.replica`) that advances only
by the choices the hub broadcasts, so the stock game screen can draw it. The hub alone
calls `Game.choose`: it checks that the sender sits in the seat whose Decision is
pending (spectators never act), lets the engine validate the rest (an illegal or stale
choice changes nothing), sends the choice to every session of the game, then saves it.
Sessions acknowledge each choice with their state hash, so a copy that diverged is sent
the game again (Wesnoth's out-of-sync check, PRIOR-ART §1.3).

No terminal, SSH or Textual here: the hub is driven by messages, so tests drive it
directly; `serve_link` connects it to a session's socket.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path

from engine.bugreport import FOLDER, write_bug_report
from engine.decisions import Choice
from engine.errors import ChoiceRejection, EngineBugError, IllegalChoiceError, WargridError
from engine.save import COMPUTER_LEVELS, to_bytes
from engine.scenario import Scenario
from engine.untrusted import new_seed
from tui.serve.computer import ComputerSeats, worker_pool
from tui.serve.games import OPEN_SEAT, GameStore, HostedGame, Member, hostable_scenarios
from tui.serve.protocol import (
    Link,
    Message,
    ProtocolError,
    choice_field,
    choice_record,
    int_field,
    text_field,
)

log = logging.getLogger("wargrid.serve")


FALLBACKS = 3
"""Other options the computer tries when its move hits a rules bug."""


class RefusedError(Exception):
    """A request the hub turns down; the session is told why and nothing changes."""

    def __init__(self, message: str, why: str = "request") -> None:
        super().__init__(message)
        self.why = why


class Hub:
    """Games, sessions, seats; the only place a Choice enters a hosted game."""

    def __init__(
        self,
        state_dir: Path,
        *,
        max_games: int = 20,
        seeds: Callable[[], int] = new_seed,
        pace: float = 0.0,
        workers: Callable[[], Executor] = worker_pool,
    ) -> None:
        self.store = GameStore(state_dir / "games")
        self.bugs_dir = state_dir / FOLDER
        """Bug reports of choices that hit a rules bug (`engine.bugreport`)."""
        self.max_games = max_games
        self.seeds = seeds
        """Where new games' secret seeds come from (tests pass fixed ones; never a session)."""
        self.members: list[Member] = []
        self.scenarios: dict[str, Scenario] = hostable_scenarios()
        live, self.finished = self.store.load()
        self.games: dict[str, HostedGame] = {hosted.id: hosted for hosted in live}
        self.refusals = 0
        """Requests turned down so far (tests and logs)."""
        self.resyncs = 0
        """Sessions sent their game again after their copy diverged."""
        self.computer = ComputerSeats(
            self._play_computer, self._notice, pace=pace, executor=workers
        )
        """Plays the seats the computer holds, ``pace`` seconds apart (0: at once)."""

    def start(self) -> None:
        """Start the computer's workers, and let it move in resumed games where it must
        (in the server's event loop)."""
        try:
            self.computer.prepare()
        except (OSError, ValueError) as exc:  # games against the computer wait; others play
            log.error("cannot start the computer's workers: %s", exc)
        for hosted in self.games.values():
            self.computer.wake(hosted)

    def close(self) -> None:
        """Stop the computer's workers (every game is saved already)."""
        self.computer.close()

    # -- sessions --------------------------------------------------------------------

    def connect(self, name: str, send: Callable[[Message], None]) -> Member:
        """A new session under ``name``; it gets the lobby at once."""
        member = Member(name, send)
        self.members.append(member)
        member.send(self.lobby(member))
        return member

    def disconnect(self, member: Member) -> None:
        """The session ended (its seat waits for the player to come back)."""
        self._detach(member)
        if member in self.members:
            self.members.remove(member)

    def handle(self, member: Member, message: Message) -> None:
        """Act on one message; a refusal is sent back, never raised.

        Raises:
            ProtocolError: the message is malformed (the caller drops the session).
        """
        handlers: dict[str, Callable[[Member, Message], None]] = {
            "lobby": lambda m, _: m.send(self.lobby(m)),
            "create": self._create,
            "sit": self._sit,
            "watch": self._watch,
            "replay": self._replay,
            "choose": self._choose,
            "skip": self._skip,
            "ack": self._ack,
            "resync": lambda m, _: self._send_game(m),
            "leave": lambda m, _: self._detach(m),
        }
        handler = handlers.get(message["t"])
        if handler is None:
            raise ProtocolError(f"unknown message type {message['t']!r}")
        try:
            handler(member, message)
        except RefusedError as exc:
            self.refusals += 1
            member.send({"t": "refused", "why": exc.why, "message": str(exc)})

    # -- the lobby ---------------------------------------------------------------------

    def lobby(self, member: Member) -> Message:
        """Every game (unfinished first) and every scenario a game can be created on."""
        live = sorted(self.games.values(), key=lambda h: (h.game.is_over, h.id))
        return {
            "t": "lobby",
            "you": member.name,
            "games": [h.info() for h in live] + self.finished,
            "scenarios": [
                [key, s.describe(), list(s.sides[:2])] for key, s in self.scenarios.items()
            ],
        }

    def _lobby_changed(self) -> None:
        for member in self.members:
            if member.game is None:
                member.send(self.lobby(member))

    def _create(self, member: Member, message: Message) -> None:
        scenario = self.scenarios.get(text_field(message, "scenario"))
        if scenario is None:
            raise RefusedError("no such scenario on this server")
        running = sum(1 for h in self.games.values() if not h.game.is_over)
        if running >= self.max_games:
            raise RefusedError(
                f"the server already hosts {running} unfinished games (its limit): "
                "join or watch one of them"
            )
        level = message.get("computer") or ""
        if level not in COMPUTER_LEVELS:
            raise RefusedError("no such computer player: easy or normal")
        seed = self.seeds()  # any "seed" the session sent is ignored: it would be known
        try:
            hosted = self.store.new(scenario, seed, computer=("", level))
        except (WargridError, OSError) as exc:
            log.error("cannot create a game on %s: %s", scenario.name, exc)
            raise RefusedError(f"cannot create that game: {exc}") from None
        self.games[hosted.id] = hosted
        log.info("%s created %s", member.name, hosted.id)
        self._take(member, hosted, 0)
        self.computer.wake(hosted)

    def _hosted(self, message: Message) -> HostedGame:
        hosted = self.games.get(text_field(message, "game"))
        if hosted is None:
            raise RefusedError("no such game (it may have just ended): pick another")
        return hosted

    def _sit(self, member: Member, message: Message) -> None:
        hosted = self._hosted(message)
        asked = int_field(message, "seat", optional=True)
        game = hosted.game
        names = ["" if game.computer[s] else game.players[s] for s in (0, 1)]
        # nobody sits in the computer's seat, whatever it is called
        if asked is not None and asked not in (0, 1):
            raise RefusedError("a game has seats 0 and 1")
        if asked is not None and hosted.game.computer[asked]:
            raise RefusedError("the computer plays that seat: press w to watch instead")
        if asked is None:
            mine = sorted(
                (s for s in (0, 1) if names[s] == member.name), key=lambda s: hosted.online()[s]
            )  # my idle seat first
            free = [s for s in (0, 1) if names[s] == OPEN_SEAT]
            seats = mine or ([] if hosted.game.is_over else free)
            if not seats:
                raise RefusedError("both seats are taken: press w to watch instead")
            asked = seats[0]
        elif names[asked] not in (OPEN_SEAT, member.name):
            raise RefusedError(f"that seat is {names[asked]}'s")
        self._take(member, hosted, asked)

    def _take(self, member: Member, hosted: HostedGame, seat: int) -> None:
        if hosted.game.players[seat] == OPEN_SEAT:
            try:
                hosted.take_seat(seat, member.name)
            except OSError as exc:
                log.error("%s: cannot save the seat: %s", hosted.id, exc)
                raise RefusedError(
                    f"the server cannot save this game ({exc.strerror or exc}): try later"
                ) from None
            log.info("%s sits at seat %d of %s", member.name, seat, hosted.id)
        for other in list(hosted.members):  # one terminal per seat: the newest wins
            if other is not member and other.seat == seat:
                self._detach(other, "You took this seat from another terminal.")
        self._attach(member, hosted, seat)

    def _watch(self, member: Member, message: Message) -> None:
        hosted = self._hosted(message)
        if member.share is not None and member.share(hosted):
            return  # the server shows it through a shared render (`tui.serve.sharing`)
        self._attach(member, hosted, None)

    def watch(self, member: Member, game_id: str) -> None:
        """Attach ``member`` as a spectator of ``game_id`` (never a shared render: this is
        how a shared render's own process, or a viewer leaving one, joins); a game that
        is gone is refused to it as usual."""
        share, member.share = member.share, None
        try:
            self.handle(member, {"t": "watch", "game": game_id})
        finally:
            member.share = share

    def recount(self, member: Member, viewers: int) -> None:
        """``member``'s screen now reaches ``viewers`` spectators (a shared render)."""
        if member.viewers != viewers:
            member.viewers = viewers
            if member.game is not None:
                self._presence(member.game)

    def _replay(self, member: Member, message: Message) -> None:
        game_id = text_field(message, "game")
        hosted = self.games.get(game_id)
        if hosted is not None:
            if not hosted.game.is_over:
                raise RefusedError("this game is not finished: watch it instead (w)")
            member.send({"t": "replay", "game": game_id, "save": to_bytes(hosted.game)})
            return
        path = self.store.path_of(game_id)
        if path is None or not any(info["id"] == game_id for info in self.finished):
            raise RefusedError("no such finished game")
        try:
            save = path.read_bytes()
        except OSError as exc:
            raise RefusedError(f"cannot read that game: {exc.strerror}") from exc
        member.send({"t": "replay", "game": game_id, "save": save})

    # -- attaching sessions to games -----------------------------------------------------

    def _attach(self, member: Member, hosted: HostedGame, seat: int | None) -> None:
        if member.game is not None:
            self._detach(member)
        member.game, member.seat, member.synced = hosted, seat, 0
        hosted.members.append(member)
        self._send_game(member)
        self._presence(hosted)
        self.computer.wake(hosted)  # after a failed move, coming back tries again

    def _send_game(self, member: Member) -> None:
        hosted = member.game
        if hosted is None:
            return
        member.send(
            {"t": "joined", "game": hosted.id, "seat": member.seat, "save": to_bytes(hosted.game)}
        )

    def _detach(self, member: Member, message: str | None = None) -> None:
        hosted = member.game
        if hosted is None:
            return
        member.game, member.seat = None, None
        if member in hosted.members:
            hosted.members.remove(member)
        left, member.on_left = member.on_left, None
        if left is not None:
            left()
        if message is not None:
            member.send({"t": "left", "message": message})
        member.send(self.lobby(member))
        self._presence(hosted)

    def _presence(self, hosted: HostedGame) -> None:
        update = {
            "t": "players",
            "game": hosted.id,
            "players": list(hosted.game.players),
            "online": hosted.online(),
            "watchers": hosted.watchers(),
        }
        for member in hosted.members:
            member.send(update)
        self._lobby_changed()

    # -- playing -----------------------------------------------------------------------

    def _choose(self, member: Member, message: Message) -> None:
        choice = choice_field(message)
        hosted = member.game
        if hosted is None:
            raise RefusedError("you are not in a game", ChoiceRejection.NO_DECISION.value)
        game = hosted.game
        pending = game.pending
        if member.seat is None:
            raise RefusedError(
                "you are watching: spectators cannot act", ChoiceRejection.WRONG_PLAYER.value
            )
        if pending is None:
            raise RefusedError("the game is over", ChoiceRejection.NO_DECISION.value)
        if pending.player != member.seat:  # before the engine: its message lists options
            raise RefusedError(
                f"it is {game.players[pending.player]}'s decision, not yours",
                ChoiceRejection.WRONG_PLAYER.value,
            )
        self._enter(hosted, choice)

    def _enter(self, hosted: HostedGame, choice: Choice) -> None:
        """Play ``choice`` in ``hosted`` and tell every session: a person's or the computer's.

        Raises:
            RefusedError: the choice is not taken (the game is unchanged).
        """
        game = hosted.game
        if not hosted.save_again():
            raise RefusedError(
                f"the server cannot save this game ({hosted.unsaved}): your choice is not "
                "taken until it can; try again in a while"
            )
        try:
            game.choose(choice)
        except IllegalChoiceError as exc:
            raise RefusedError(str(exc), exc.reason.value) from exc
        except EngineBugError as exc:  # the game is as before the choice: it goes on
            raise RefusedError(self._engine_bug(hosted, choice.key, exc)) from None
        except Exception:  # an engine bug must not take the other games down
            log.exception("%s: the engine failed on %s", hosted.id, choice)
            raise RefusedError("the server could not apply that choice (logged)") from None
        checkup = game.checkups[-1]
        update = {
            "t": "choice",
            "game": hosted.id,
            "choice": choice_record(choice),
            "n": len(game.choices),
            "checkup": [checkup.rolls, checkup.events, checkup.state_hash],
        }
        for other in hosted.members:
            other.send(update)
        # Saved once sent: every screen moves one save (a rewrite and two fsyncs, tens of
        # ms) sooner, and the game is on disk before the hub reads its next message.
        if not hosted.save():  # the choice stands in memory; no other is taken until saved
            log.error("%s: autosave failed: %s", hosted.id, hosted.unsaved)
            for other in hosted.members:
                other.send({"t": "notice", "message": _unsaved_notice(hosted.unsaved)})
        if game.is_over:
            log.info("%s is over: %s", hosted.id, game.outcome)
        self._lobby_changed()
        self.computer.wake(hosted)

    def _play_computer(self, hosted: HostedGame, choice: Choice) -> None:
        """The computer's move, through the same path as a person's. A move that hits a
        rules bug (reported to all) would be chosen again, so the computer plays one of
        its other options instead, and the game goes on."""
        pending = hosted.game.pending
        if self.games.get(hosted.id) is not hosted or pending is None:
            return
        others = [o.key for o in pending.options if o.key != choice.key]
        for key in [choice.key, *others[:FALLBACKS]]:
            try:
                self._enter(hosted, Choice(choice.decision_id, key))
            except RefusedError as exc:
                log.error("%s: the computer's move %r was refused: %s", hosted.id, key, exc)
                continue
            return
        self._notice(hosted, "The computer could not move (logged): join again to retry.")

    def _notice(self, hosted: HostedGame, text: str) -> None:
        for member in hosted.members:
            member.send({"t": "notice", "message": text})

    def _skip(self, member: Member, _: Message) -> None:
        """F: the computer's moves without pauses until a person must decide."""
        hosted = member.game
        if hosted is None or member.seat is None or not any(hosted.game.computer):
            raise RefusedError("only a player against the computer can skip its pauses")
        self.computer.skip(hosted)

    def _engine_bug(self, hosted: HostedGame, key: str, exc: EngineBugError) -> str:
        """Log and report a rules bug; every other session of the game hears of it."""
        log.error("%s: the engine failed on %r: %s\n%s", hosted.id, key, exc, exc.trace)
        try:
            report = write_bug_report(hosted.game, key, exc, self.bugs_dir).case.name
        except OSError as err:
            log.error("%s: no bug report written: %s", hosted.id, err)
            report = "none written"
        text = (
            "That choice hit a bug in the rules engine; the game stays at the same decision "
            f"(bug report {report} on the server)."
        )
        for other in hosted.members:
            other.send({"t": "notice", "message": text})
        return text

    def _ack(self, member: Member, message: Message) -> None:
        hosted = member.game
        n = int_field(message, "n")
        state_hash = text_field(message, "hash", 64)
        if hosted is None or n is None or not 0 <= n <= len(hosted.game.choices):
            return  # an ack racing a leave or a resync: nothing to check
        game = hosted.game
        expected = game.checkups[n - 1] if n else game.start_checkup
        member.synced = n
        acked, member.on_ack = member.on_ack, None
        if acked is not None:
            acked()
        if state_hash != expected.state_hash:
            self.resyncs += 1
            log.warning(
                "%s: %s's copy diverged at choice %d; sending the game again",
                hosted.id,
                member.name,
                n,
            )
            self._send_game(member)


def _unsaved_notice(why: str) -> str:
    return (
        f"The server could not save this game ({why}). The last choice stands, but no "
        "further choice is taken until a save succeeds."
    )


async def serve_link(
    hub: Hub,
    name: str,
    link: Link,
    *,
    watch: str | None = None,
    joined: Callable[[Member], None] | None = None,
) -> None:
    """Run one session's connection until it closes; a malformed message drops only it.
    ``watch``: a game it watches from the start (it opens on the game, not the lobby);
    ``joined`` is given its member before any of its messages is read."""
    member = hub.connect(name, link.send)
    if watch is not None:
        hub.watch(member, watch)
    if joined is not None:
        joined(member)
    try:
        while (message := await link.receive()) is not None:
            hub.handle(member, message)
    except (ProtocolError, ConnectionError) as exc:
        log.warning("dropping %s's session: %s", name, exc)
    finally:
        hub.disconnect(member)
        link.close()
