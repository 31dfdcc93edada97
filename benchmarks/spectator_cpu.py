"""One spectator's session process, alone: CPU and time per choice, and join (issue 16).

A session process (`tui.serve.client`, as the server starts it: warmed as its zygote
is, in its own pseudo-terminal, 100x30, with one end of a socket pair to the hub) is
driven by this script playing the hub: the lobby, then ``joined`` with a long Kill Team
game cut `CHOICES` choices before its end, then those choices one by one, as the hub
sends them. No SSH and no other session: what one spectator's process costs, without
the machine's other load in the way.

- join: from sending ``joined`` to the session's ack (the copy is built) and to the
  last byte of the game screen drawn (30 ms quiet);
- per choice: the session's CPU (user + system, /proc) from sending the choice to its
  frame drawn, and the time to its ack and to the first and last byte of its repaint.

``--profile FILE``: the session runs under pyinstrument (text report to FILE when the
session ends; the figures then include the profiler's cost).
Run: ``.venv/bin/python benchmarks/spectator_cpu.py [--choices N] [--profile FILE]``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import msgpack
from _pty import Terminal
from run import long_game, scenarios_by_ruleset

from engine.game import Game
from engine.save import to_bytes

ROOT = Path(__file__).resolve().parents[1]
CHOICES = 40
QUIET = 0.03
SESSION = """
import os, socket, sys
from tui.serve import client, zygote
zygote.warm()  # as the server's zygote has, before it forks a session
sock = socket.socket(fileno=int(os.environ["WARGRID_HUB_FD"]))
if len(sys.argv) > 1:
    from pyinstrument import Profiler
    profiler = Profiler(interval=0.0005)
    profiler.start()
    try:
        client.session(sock)
    finally:
        profiler.stop()
        with open(sys.argv[1], "w") as out:
            out.write(profiler.output_text(unicode=True, show_all=False))
        profiler.last_session.save(sys.argv[1] + ".pyisession")
else:
    client.session(sock)
"""


def cpu_seconds(pid: int) -> float:
    """CPU time all threads of a process have run (/proc schedstat: nanoseconds, where
    /proc/PID/stat counts 10 ms ticks, as coarse as a whole choice)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile
    return total / 1e9


class Session:
    """A session process in a PTY, with this script as its hub."""

    def __init__(self, profile: str | None) -> None:
        hub, mine = socket.socketpair()
        fd = mine.fileno()
        args = [profile] if profile else []
        self.terminal = Terminal(SESSION, (100, 30), *args, pass_fds=(fd,), WARGRID_HUB_FD=str(fd))
        mine.close()
        self.process = self.terminal.process
        self.master = self.terminal.master
        self.hub = hub
        self.unpacker = msgpack.Unpacker(raw=False)
        self.output = self.terminal.output

    def send(self, message: dict[str, object]) -> None:
        self.hub.sendall(msgpack.packb(message, use_bin_type=True))

    def pump(self, timeout: float) -> tuple[bool, list[dict[str, object]]]:
        """Read what arrives within ``timeout``: (screen bytes came, hub messages)."""
        hub = self.hub.fileno()
        ready, _, _ = select.select([self.master, hub], [], [], timeout)
        drew, messages = False, []
        if self.master in ready:
            try:
                self.output += os.read(self.master, 1 << 16)
                drew = True
            except OSError:
                pass
        if hub in ready:
            self.unpacker.feed(self.hub.recv(1 << 16))
            messages = list(self.unpacker)
        return drew, messages

    def until_ack(self, start: float) -> tuple[float, float, float, dict[str, object]]:
        """(ack s, first byte s, last byte s, the ack) after ``start``."""
        ack: dict[str, object] | None = None
        acked = first = last = 0.0
        while True:
            drew, messages = self.pump(5.0 if ack is None or not first else QUIET)
            now = time.perf_counter()
            for message in messages:
                if message.get("t") == "ack":
                    ack, acked = message, now - start
                elif message.get("t") == "resync":
                    raise RuntimeError("the session could not apply a choice")
            if drew:
                first = first or now - start
                last = now - start
            elif ack is not None and first:
                return acked, first, last, ack
            elif not messages:
                raise TimeoutError("the session neither acked nor drew")

    def settle(self) -> None:
        while any(self.pump(0.2)):
            pass

    def close(self) -> None:
        self.hub.close()  # the session exits: "the server closed this session"
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=20)
        self.terminal.close()


def summary(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--choices", type=int, default=CHOICES)
    parser.add_argument("--profile")
    parser.add_argument("--seat", type=int, choices=(0, 1), help="a seat's session instead")
    args = parser.parse_args()
    full = long_game(scenarios_by_ruleset()["killteam"], 2000)
    cut = len(full.choices) - args.choices
    game: Game = full.replayed(full.choices[:cut])
    game.players = ("host", "rival")
    session = Session(args.profile)
    try:
        session.send({"t": "lobby", "you": "watcher", "games": [], "scenarios": []})
        while b"signed in as watcher" not in session.output:
            session.pump(1.0)
        session.settle()
        start = time.perf_counter()
        session.send({"t": "joined", "game": "0001", "seat": args.seat, "save": to_bytes(game)})
        acked, _, drawn, _ = session.until_ack(start)
        who = "spectator" if args.seat is None else f"seat {args.seat}"
        print(f"Kill Team game at choice {cut:,}, one {who}'s session (100x30):")
        print(f"  join: copy built (ack) {acked * 1000:.0f} ms, screen drawn {drawn * 1000:.0f} ms")
        session.settle()
        cpus, acks, firsts, lasts = [], [], [], []
        for choice in full.choices[cut:]:
            game.choose(choice)
            checkup = game.checkups[-1]
            before = cpu_seconds(session.process.pid)
            start = time.perf_counter()
            session.send(
                {
                    "t": "choice",
                    "game": "0001",
                    "choice": [choice.decision_id, choice.key],
                    "n": len(game.choices),
                    "checkup": [checkup.rolls, checkup.events, checkup.state_hash],
                }
            )
            acked, first, last, ack = session.until_ack(start)
            if ack.get("hash") != checkup.state_hash:
                raise RuntimeError(f"the copy diverged at choice {len(game.choices)}")
            cpus.append(cpu_seconds(session.process.pid) - before)
            acks.append(acked)
            firsts.append(first)
            lasts.append(last)
        mean = statistics.mean(cpus) * 1000
        print(f"  per choice ({len(cpus)} choices): CPU {summary(cpus)} (mean {mean:.1f} ms)")
        print(f"  to the ack: {summary(acks)}; first byte {summary(firsts)}; last {summary(lasts)}")
    finally:
        session.close()
    if args.profile:
        print(f"profile in {args.profile}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
