"""SSH hosting under load: N concurrent sessions on loopback (issue 8).

A real ``wargrid serve`` runs in its own process; this script connects N asyncssh
clients with a PTY (100x30), each of which opens the lobby and then watches one hosted
Kill Team game at a deployment Decision (lit cells). It reports:

- session start: SSH connect to the lobby drawn (a session process forked from the
  server's zygote, which imported Python + Textual + the UI once);
- memory per session process: RSS, and PSS (shared pages split between the processes
  that share them: what each session really costs); the server process's RSS;
- a sharing spectator's first key: from writing it until its own process (forked, opened
  on the game, then given the key) has drawn the game;
- keypress echo: from writing ``l``/``h`` (move the battlefield cursor) to the first and
  the last byte of the repaint (30 ms quiet ends a frame), one session at a time while
  all N are connected, then all N at once;
- fan-out: the seated player makes a choice; time until every spectator's screen has
  started to change. One choice's worst spectator is noisy (one late scheduling slice
  moves it by 20 ms), so the player makes ``--choices`` timed choices and the script
  reports the median and the p90 of the per-choice worst, and the median over every
  spectator of every choice. The computer holds the other seat (deployment alternates:
  each side picks a model, then places it); the timed choice is the host's pick of a
  model, which its own placing follows, so no computer move overlaps the timing; the
  placing and the computer's two moves are drawn and done with before the next one.
  It is timed before the echo, while the spectators have pressed nothing: they share one
  process (`tui.serve.sharing`); with ``--no-share`` (the server's
  ``--no-shared-spectators``) each has its own, as a spectator who pressed a key has.
  At most 8 choices: the host places its 10 models in as many rounds, and the echo is
  timed on a deployment cell after them (a key gives each spectator its own process).

Targets (issue 8): 50 sessions on 2 cores, at most 60 MB per session and 50 ms echo.
Issue 16: a choice reaches 9 spectators in at most 50 ms. Run:
``.venv/bin/python benchmarks/ssh_latency.py [--sessions N] [--choices K]`` (default 10
and 10, so that ``make bench`` stays short; the figures in the notes are from
``--sessions 50``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
from _pty import installed_env

from engine.game import Game
from engine.save import write_save
from engine.scenario import load_scenario
from tui.serve.games import computer_name

ROOT = Path(__file__).resolve().parents[1]
QUIET = 0.03


class Client:
    """One player's terminal: output chunks with their arrival times."""

    def __init__(
        self, conn: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess[bytes]
    ) -> None:
        self.conn = conn
        self.process = process
        self.output = bytearray()
        self.arrived = asyncio.Event()
        self.last_chunk = time.perf_counter()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while data := await self.process.stdout.read(65536):
            self.output += data
            self.last_chunk = time.perf_counter()
            self.arrived.set()

    async def expect(self, text: bytes, timeout: float = 60) -> None:
        deadline = time.perf_counter() + timeout
        while text not in self.output:
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no {text!r}")
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), 1)
            except TimeoutError:
                continue

    async def settle(self, quiet: float = 0.05) -> None:
        while time.perf_counter() - self.last_chunk < quiet:
            await asyncio.sleep(quiet)

    async def key_to_frame(self, key: bytes) -> tuple[float, float]:
        """Type ``key``; seconds to the first and the last byte of the repaint."""
        size = len(self.output)
        start = time.perf_counter()
        self.process.stdin.write(key)
        first = None
        while True:
            self.arrived.clear()
            if len(self.output) > size and first is None:
                first = self.last_chunk
            if first is not None and time.perf_counter() - self.last_chunk >= QUIET:
                return first - start, self.last_chunk - start
            try:
                await asyncio.wait_for(self.arrived.wait(), QUIET if first else 5)
            except TimeoutError:
                if first is None:
                    raise TimeoutError(f"no repaint after {key!r}") from None


async def connect(port: int, name: str) -> tuple[Client, float]:
    start = time.perf_counter()
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None)
    process = await conn.create_process(
        term_type="xterm-256color", term_size=(100, 30), encoding=None
    )
    client = Client(conn, process)
    await client.expect(f"signed in as {name}".encode())
    return client, time.perf_counter() - start


async def fan_out(host: Client, spectators: list[Client]) -> list[float]:
    """The host presses Enter (a choice): seconds until each spectator's screen changes."""
    for client in [host, *spectators]:
        await client.settle()
    marks = [len(c.output) for c in spectators]
    start = time.perf_counter()
    host.process.stdin.write(b"\r")
    arrivals = []
    for client, mark in zip(spectators, marks, strict=True):
        while len(client.output) <= mark:
            if time.perf_counter() - start > 20:
                raise TimeoutError("a spectator's screen did not change")
            await asyncio.sleep(0.001)
        arrivals.append(time.perf_counter() - start)
    return arrivals


async def fan_outs(
    host: Client, spectators: list[Client], everyone: list[Client], choices: int, who: str
) -> None:
    """Time ``choices`` choices' fan-out and print it."""
    worsts, every = [], []
    for _ in range(choices):
        host.process.stdin.write(b"\r")  # place the model; the computer answers
        await asyncio.sleep(0.2)
        for client in everyone:
            await client.settle(0.8)  # its two moves come 0.3 s apart
        arrivals = await fan_out(host, spectators)  # pick the next model
        worsts.append(max(arrivals))
        every += arrivals
    ms = sorted(w * 1000 for w in worsts)
    p90 = ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))]
    print(
        f"a choice reaches all {len(spectators)} spectators {who} (worst spectator of each "
        f"of {choices} choices): median {statistics.median(ms):.0f} ms, p90 {p90:.0f} ms, "
        f"max {ms[-1]:.0f} ms; any spectator: median {statistics.median(every) * 1000:.0f} ms"
    )


def hosted_game(state: Path) -> None:
    """A Kill Team game at its first deployment cell, saved where the server resumes it;
    the computer (easy) holds the other seat, so the host can make choice after choice
    (deployment alternates: host picks a model, places it; the computer does the same)."""
    scenario = load_scenario(ROOT / "scenarios" / "killteam-crossroads.toml")
    game = Game(scenario, 7, players=("host", "(open seat)"))
    while game.pending is not None and game.pending.kind.name != "PICK_CELL":
        game.choose_key(game.pending.options[0].key)
    assert game.pending is not None
    host = game.pending.player  # whose Decision it is: the host resumes that seat
    levels = ["easy", "easy"]
    levels[host] = ""
    players = [computer_name("easy"), computer_name("easy")]
    players[host] = "host"
    resumed = Game(scenario, 7, players=(players[0], players[1]), computer=(levels[0], levels[1]))
    for choice in game.choices:
        resumed.choose(choice)
    write_save(resumed, state / "games" / "0001-bench.wargrid")


def memory_kib(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of a process in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        fields[name] = int(value.split()[0])
    return fields["Rss"], fields["Pss"]


def children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(p) for p in text.split()]


def sessions_of(server: int) -> tuple[list[int], int | None]:
    """The session processes (forked by the server's zygote, or started cold), and the
    zygote's pid."""
    sessions, zygote = [], None
    for pid in children(server):
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
        if b"tui.serve.zygote" in command:
            zygote = pid
            sessions += children(pid)
        elif b"tui.serve.client" in command:
            sessions.append(pid)
    return sessions, zygote


def summary(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


def start_server(
    state: Path, sessions: int, *, share: bool = True
) -> tuple[subprocess.Popen[str], int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = installed_env(PYTHONPATH=str(ROOT))
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tui.cli",
            "serve",
            "--guests",
            "--port",
            str(port),
            "--state-dir",
            str(state),
            "--max-sessions",
            str(sessions + 5),
            "--pace",
            "fast",
            *([] if share else ["--no-shared-spectators"]),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    if "listening" not in line:
        server.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return server, port


async def measure(sessions: int, choices: int, *, share: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "state"
        hosted_game(state)
        server, port = start_server(state, sessions, share=share)
        clients: list[Client] = []
        try:
            starts = []
            host, took = await connect(port, "host")
            host.process.stdin.write(b"\r")  # resume the seat whose Decision is pending
            await host.expect(b"Deployment")
            for i in range(sessions - 1):
                client, took = await connect(port, f"p{i}")
                starts.append(took)
                client.process.stdin.write(b"w")
                await client.expect(b"You are watching")
                clients.append(client)
            everyone = [host, *clients]
            await asyncio.sleep(1)
            pids, zygote = sessions_of(server.pid)
            mems = [memory_kib(pid) for pid in pids]
            server_rss, _ = memory_kib(server.pid)
            zygote_rss = memory_kib(zygote)[0] if zygote else 0
            print(f"{sessions} sessions on {os.cpu_count()} cores (100x30, loopback)")
            print(f"session start: {summary(starts)}")
            print(
                f"per session: RSS {statistics.mean(m[0] for m in mems) / 1024:.1f} MB, "
                f"PSS {statistics.mean(m[1] for m in mems) / 1024:.1f} MB (mean of "
                f"{len(mems)}); server RSS {server_rss / 1024:.1f} MB; the zygote they are "
                f"forked from RSS {zygote_rss / 1024:.1f} MB"
            )
            how = "sharing one process" if share else "each in its own process"
            await fan_outs(host, clients, everyone, choices, f"who pressed nothing, {how},")
            if share:  # a key gives a sharing spectator its own process: timed, not echo
                splits = []
                for client in clients:
                    await client.settle()
                    mark, start = len(client.output), time.perf_counter()
                    client.process.stdin.write(b"l")
                    while b"You are watching" not in client.output[mark:]:
                        client.arrived.clear()
                        await asyncio.wait_for(client.arrived.wait(), 10)
                    splits.append(time.perf_counter() - start)
                    await client.settle(0.5)
                    client.process.stdin.write(b"h")
                    await client.settle(0.5)
                print(
                    f"a sharing spectator's first key to its own process's game: {summary(splits)}"
                )
            firsts, lasts = [], []
            for client in everyone:
                await client.settle()
                for key in (b"l", b"h", b"l", b"h"):
                    first, last = await client.key_to_frame(key)
                    firsts.append(first)
                    lasts.append(last)
            print(f"echo, one at a time, first byte: {summary(firsts)}")
            print(f"echo, one at a time, whole frame: {summary(lasts)}")
            firsts, lasts = [], []
            for key in (b"l", b"h", b"l", b"h"):  # the cursor back where it was
                for client in everyone:
                    await client.settle()
                results = await asyncio.gather(*(c.key_to_frame(key) for c in everyone))
                firsts += [r[0] for r in results]
                lasts += [r[1] for r in results]
            print(f"echo, all {sessions} at once, first byte: {summary(firsts)}")
            print(f"echo, all {sessions} at once, whole frame: {summary(lasts)}")
        finally:
            for client in [*clients]:
                client.conn.close()
            server.terminate()
            server.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--choices", type=int, default=8, help="choices the fan-out times (1-8)")
    parser.add_argument(
        "--no-share", action="store_true", help="serve with --no-shared-spectators (before/after)"
    )
    args = parser.parse_args()
    choices = min(8, max(1, args.choices))
    asyncio.run(measure(max(2, args.sessions), choices, share=not args.no_share))


if __name__ == "__main__":
    main()
