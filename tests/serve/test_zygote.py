"""Sessions forked from the warm zygote (`tui.serve.spawner`, `tui.serve.zygote`).

A forked session must be what a new process was: its own process group and controlling
terminal, the client's terminal type (a name, nothing else), the heap ceiling, and no
descriptor of the zygote or of another session. When the zygote is gone, logins still
start (as new processes), and the sessions it forked still end cleanly.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from pathlib import Path

import msgpack
import pytest

from tests.serve.terminal import Terminal, until
from tui.serve.server import ServeConfig, WargridServer
from tui.serve.spawner import Forked, Zygote


def zygote_of(server: WargridServer) -> Zygote:
    zygote = server.spawner.zygote
    assert zygote is not None and zygote.process is not None
    return zygote


def socket_inodes(pid: int) -> set[str]:
    """The sockets a process holds open (as ``socket:[inode]``)."""
    links = (str(p.readlink()) for p in Path(f"/proc/{pid}/fd").iterdir())
    return {link for link in links if link.startswith("socket:")}


def status_field(pid: int, name: str) -> str:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return next(line.split(":", 1)[1].strip() for line in lines if line.startswith(name + ":"))


async def test_a_session_is_a_fork_of_the_zygote_and_holds_only_its_own(
    server: WargridServer,
) -> None:
    alice = await Terminal.connect(server.port, "alice")  # xterm-256color
    bob = await Terminal.connect(server.port, "bob", term="xterm\nLD_PRELOAD=/tmp/x.so")
    for terminal, name in ((alice, "alice"), (bob, "bob")):
        await terminal.expect(f"signed in as {name}")
    zygote = zygote_of(server)
    assert zygote.forks == 2 and server.spawner.cold == 0
    assert zygote.process is not None
    children = {s.process.get_extra_info("wargrid_name"): s.child for s in server.sessions}
    pids = {name: child.pid for name, child in children.items() if child is not None}
    assert all(isinstance(child, Forked) for child in children.values())
    for pid in pids.values():
        assert status_field(pid, "PPid") == str(zygote.process.pid)
        assert os.getsid(pid) == pid and os.getpgid(pid) == pid  # its own session and group
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        assert stat[4] != "0"  # a controlling terminal (tty_nr): resizes reach it
        limits = Path(f"/proc/{pid}/limits").read_text()
        assert f"Max data size             {server.config.session_memory}" in limits
    # The client's terminal type, read as a new process reads it from its environment:
    # 256 colours for alice; a TERM that is not a name is plain xterm (8 colours).
    assert b"\x1b[38;5;" in alice.output
    assert b"\x1b[38;2;" not in bob.output and b"\x1b[38;5;" not in bob.output
    # Each holds its own hub socket, none of the other's, none of the zygote's.
    zygote_sockets = socket_inodes(zygote.process.pid)
    alice_sockets, bob_sockets = socket_inodes(pids["alice"]), socket_inodes(pids["bob"])
    assert alice_sockets and bob_sockets
    assert not alice_sockets & bob_sockets
    assert not (alice_sockets | bob_sockets) & zygote_sockets
    # Leaving ends the process; the zygote reaps it and the server hears the status.
    alice_child = children["alice"]
    assert alice_child is not None
    await alice.close()
    await until(lambda: alice_child.returncode is not None, "alice's process to end")
    await until(lambda: len(server.sessions) == 1, "alice's session to end")
    assert not Path(f"/proc/{alice_child.pid}").exists()  # reaped, not a zombie
    await bob.close()


async def test_without_its_zygote_the_server_starts_sessions_the_old_way(
    server: WargridServer,
) -> None:
    alice = await Terminal.connect(server.port, "alice")
    await alice.expect("signed in as alice")
    zygote = zygote_of(server)
    assert zygote.process is not None
    (session,) = server.sessions
    forked = session.child
    assert forked is not None
    os.kill(zygote.process.pid, signal.SIGKILL)
    await until(lambda: not zygote.alive, "the server to notice")
    bob = await Terminal.connect(server.port, "bob")
    await bob.expect("signed in as bob")  # started cold
    assert server.spawner.cold == 1
    bob.press("n")
    await bob.expect("New game")
    # alice's session outlived the zygote; its end is still noticed (by its pidfd).
    alice.press("n")
    await alice.expect("New game")
    await alice.close()
    await until(lambda: forked.returncode is not None, "alice's process to end")
    await until(lambda: len(server.sessions) == 1, "alice's session to end")
    await bob.close()
    await until(lambda: not server.sessions and server.admitted == 0, "every slot to free")


async def test_the_zygote_refuses_what_is_not_a_session_request(tmp_path: Path) -> None:
    """Garbage on the control socket forks nothing; the zygote goes on serving."""
    server = WargridServer(ServeConfig(state_dir=tmp_path, port=0, guests=True))
    await server.start()
    try:
        zygote = zygote_of(server)
        assert await zygote.ready
        control = zygote._control
        assert control is not None
        spare, other = socket.socketpair()
        loop = asyncio.get_running_loop()
        replies: list[asyncio.Future[Forked]] = [loop.create_future() for _ in range(2)]
        zygote._replies.extend(replies)  # the zygote answers requests in order
        for junk in (b"\xc1not msgpack", msgpack.packb({"env": {"TERM": 5}})):
            socket.send_fds(control, [junk], [spare.fileno(), other.fileno()])
        for reply in replies:
            with pytest.raises(Exception, match="not a session request"):
                await reply
        assert zygote.forks == 0 and zygote.alive
        alice = await Terminal.connect(server.port, "alice")
        await alice.expect("signed in as alice")
        assert zygote.forks == 1
        await alice.close()
        spare.close()
        other.close()
    finally:
        await server.close()
