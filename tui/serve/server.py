"""`wargrid serve`: an SSH server whose only program is wargrid (PRIOR-ART §7.4).

Every connection gets the wargrid UI and nothing else: no shell, no command, no
subsystem, no forwarding. A session without a terminal is refused with a message (wish's
``activeterm``). Each session's UI runs in its own process and PTY (`bridge`); the hub
(`hub`) in this process holds each game's one authoritative `Game`.

Who is who: with ``--authorized-keys`` only those public keys log in, and a key's
comment (else its fingerprint) is the player's name, as terminal.shop does; with
``--guests`` anyone logs in and the SSH user name is the player's name (``ssh
alice@host``), which suits a LAN. The host key is made on first start and kept in the
state folder, so players' ``known_hosts`` stay valid.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import asyncssh

from engine.errors import WargridError
from engine.untrusted import printable
from tui.serve.bridge import PtySession
from tui.serve.games import clean_name
from tui.serve.hub import Hub, serve_link
from tui.serve.protocol import MAX_SESSION_MESSAGE, Link
from tui.serve.session_process import Opened, Ui, set_size
from tui.serve.sharing import SHARED_NAME, Sharing
from tui.serve.spawner import Spawner
from tui.settings import DEFAULT_PACE, PACES

log = logging.getLogger("wargrid.serve")

TERM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
"""A terminal type as the client may name it (else the session gets plain xterm)."""

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
"""Where ``tui`` and ``engine`` are (the session processes import them from here)."""


class ServeError(WargridError):
    """The server cannot start: a bad key file, a port in use, an unusable folder."""


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """What ``wargrid serve`` was asked to do."""

    state_dir: Path = Path("saves/server")
    """Host key and hosted games (``games/``)."""
    host: str = "127.0.0.1"
    port: int = 2222
    """0 picks a free port (tests)."""
    authorized_keys: Path | None = None
    guests: bool = False
    idle_timeout: float = 30 * 60
    """Seconds without a keypress before a session is closed (its seat waits)."""
    max_sessions: int = 50
    max_games: int = 20
    """Unfinished games at once."""
    pace: float = PACES[DEFAULT_PACE]
    """Seconds each computer move stays on screen before its next one."""
    session_memory: int = 512 * 2**20
    """Heap ceiling of each session process, in bytes (a session uses about 60 MB)."""
    zygote: bool = True
    """Fork session processes from a process that has imported the UI (`spawner`);
    False starts each as a new Python."""
    share_spectators: bool = True
    """Spectators who press nothing share one process per game, terminal size and type
    (`sharing`); False gives each session its own."""


def load_host_key(state_dir: Path) -> asyncssh.SSHKey:
    """The server's host key, made (ed25519, mode 0600) on first start."""
    path = state_dir / "ssh_host_ed25519_key"
    if path.exists():
        try:
            return asyncssh.read_private_key(path)
        except (OSError, asyncssh.KeyImportError) as exc:
            raise ServeError(f"{path}: cannot read the host key: {exc}") from exc
    key = asyncssh.generate_private_key("ssh-ed25519", comment="wargrid host key")
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.export_private_key())
    tmp.replace(path)
    log.info("made a new host key: %s", path)
    return key


def read_authorized_keys(path: Path) -> dict[bytes, str]:
    """Public keys allowed in, each with its player's name (comment, else fingerprint).

    A player is their key: each name belongs to exactly one key, so a second key with the
    same comment is refused here rather than sitting down in the first one's seats. Lines
    with OpenSSH options (``from=``, ``command=``, ``no-pty``) are refused too: this server
    would not honour them, and a silently ignored ``from=`` lets the key in from anywhere.

    Raises:
        ServeError: naming the line and what to change.
    """
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise ServeError(f"{path}: cannot read the authorized keys: {exc.strerror}") from exc
    keys: dict[bytes, str] = {}
    owners: dict[str, tuple[bytes, int]] = {}
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        where = f"{path}, line {number}"
        if not fields[0].startswith(("ssh-", "ecdsa-", "sk-")):
            raise ServeError(
                f"{where}: options ({printable(fields[0][:40])}) are not supported: wargrid "
                "serve does not honour from=, command= or no-pty; remove them and restrict "
                "who can reach the port with a firewall"
            )
        try:
            key = asyncssh.import_public_key(" ".join(fields))
        except (asyncssh.KeyImportError, ValueError) as exc:
            raise ServeError(f"{where}: not a public key ({exc})") from exc
        comment = key.get_comment()
        fingerprint = key.get_fingerprint().split(":", 1)[-1]
        name = clean_name(comment or "", fallback=f"key-{fingerprint[:8]}")
        owner = owners.setdefault(name, (key.public_data, number))
        if owner[0] != key.public_data:
            raise ServeError(
                f"{where}: another key is already named {name!r} (line {owner[1]}); a name "
                "is a player, so give each key its own comment"
            )
        keys[key.public_data] = name
    if not keys:
        raise ServeError(f"{path}: no public keys: nobody could log in")
    return keys


class _Login(asyncssh.SSHServer):
    """Authentication: the listed keys, or anyone (guests); records the player's name."""

    def __init__(self, keys: dict[bytes, str] | None) -> None:
        self.keys = keys
        self.conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn

    def begin_auth(self, username: str) -> bool:
        if self.keys is None and self.conn is not None:  # guests: no authentication
            self.conn.set_extra_info(wargrid_name=clean_name(username))
            return False
        return True

    def public_key_auth_supported(self) -> bool:
        return self.keys is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        name = None if self.keys is None else self.keys.get(key.public_data)
        if name is None or self.conn is None:
            return False
        self.conn.set_extra_info(wargrid_name=name)
        return True


class WargridServer:
    """The SSH listener, the hub, and the live sessions."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.hub: Hub | None = None
        self.sessions: set[PtySession] = set()
        self.admitted = 0
        """Sessions let in and not yet over, counted before the first await: logins that
        arrive together cannot all pass the --max-sessions check before any is counted."""
        self.host_key: asyncssh.SSHKey | None = None
        self.spawner = Spawner(self._environment(None), zygote=config.zygote)
        self.sharing: Sharing | None = None
        self._acceptor: asyncssh.SSHAcceptor | None = None

    @property
    def port(self) -> int:
        """The port listened on (the real one when the config asked for 0)."""
        return self.config.port if self._acceptor is None else self._acceptor.get_port()

    async def start(self) -> None:
        """Load the host key and the games, and listen.

        Raises:
            ServeError: the keys or the folder are unusable, or the port is taken.
        """
        config = self.config
        if config.guests == (config.authorized_keys is not None):
            raise ServeError("choose one: --authorized-keys FILE, or --guests")
        try:
            config.state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            raise ServeError(f"{config.state_dir}: cannot create it: {exc.strerror}") from exc
        keys = (
            None if config.authorized_keys is None else read_authorized_keys(config.authorized_keys)
        )
        self.host_key = load_host_key(config.state_dir)
        self.hub = Hub(config.state_dir, max_games=config.max_games, pace=config.pace)
        try:
            self._acceptor = await asyncssh.create_server(
                lambda: _Login(keys),
                config.host,
                config.port,
                server_host_keys=[self.host_key],
                process_factory=self._session,
                encoding=None,
                line_editor=False,
                allow_scp=False,
                agent_forwarding=False,
                x11_forwarding=False,
                login_timeout=60,
                keepalive_interval=60,
            )
        except OSError as exc:
            raise ServeError(
                f"cannot listen on {config.host}:{config.port}: {exc.strerror or exc}"
            ) from exc
        self.hub.start()
        await self.spawner.start()
        if config.share_spectators:
            self.sharing = Sharing(self._open_shared, self.hub.recount)

    async def close(self) -> None:
        """Stop listening and hang up every session (the games are already saved)."""
        note = "wargrid: the server is stopping. Every game is saved; come back later.\r\n"
        await asyncio.gather(*(s.end(note) for s in list(self.sessions)))
        if self.sharing is not None:
            await self.sharing.close()
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()
        if self.hub is not None:
            self.hub.close()
        await self.spawner.close()

    async def _session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        try:
            code = await self._run(process)
        except Exception:  # one session's failure must not reach the others
            log.exception("session failed")
            code = 1
        with contextlib.suppress(OSError, asyncssh.Error):
            process.exit(code)

    async def _run(self, process: asyncssh.SSHServerProcess[bytes]) -> int:
        name = str(process.get_extra_info("wargrid_name") or "guest")
        refusal = self._refusal(process)
        if refusal:
            process.stderr.write(f"wargrid: {refusal}\r\n".encode())
            log.info("refused a session of %s: %s", name, refusal)
            return 1
        self.admitted += 1
        try:
            return await self._admit(process, name)
        finally:
            self.admitted -= 1

    async def _admit(self, process: asyncssh.SSHServerProcess[bytes], name: str) -> int:
        session = PtySession(
            process,
            partial(self._open_ui, name),
            self._environment(process),
            idle_timeout=self.config.idle_timeout,
            sharing=self.sharing,
        )
        self.sessions.add(session)
        log.info("%s connected (%d sessions)", name, len(self.sessions))
        try:
            return await session.run()
        finally:
            self.sessions.discard(session)
            log.info("%s disconnected (%d sessions)", name, len(self.sessions))

    async def _open_ui(
        self,
        name: str,
        watch: str | None,
        size: tuple[int, int],
        env: Mapping[str, str],
        opened: Opened,
    ) -> Ui:
        """A session process in a new PTY of ``size``, with its own link to the hub
        (under ``name``; watching ``watch`` from the start, else in the lobby)."""
        assert self.hub is not None
        hub_end, ui_end = socket.socketpair()
        reader, writer = await asyncio.open_unix_connection(sock=hub_end)
        link = asyncio.create_task(
            serve_link(
                self.hub,
                name,
                Link(reader, writer, MAX_SESSION_MESSAGE),
                watch=watch,
                joined=opened,
            )
        )
        master, slave = os.openpty()
        set_size(slave, *size)
        try:
            child = await self.spawner.spawn(slave, ui_end, env)
        except BaseException:
            writer.close()
            os.close(master)
            raise
        finally:
            os.close(slave)
            ui_end.close()
        os.set_blocking(master, False)
        return Ui(master, child, link, writer.close)

    async def _open_shared(
        self, watch: str, size: tuple[int, int], env: Mapping[str, str], opened: Opened
    ) -> Ui:
        return await self._open_ui(SHARED_NAME, watch, size, env, opened)

    def _refusal(self, process: asyncssh.SSHServerProcess[bytes]) -> str:
        """Why this session cannot have a UI, or ""."""
        if process.command is not None or process.subsystem is not None:
            return "this server runs only the game: connect without a command (ssh -p PORT host)"
        if process.get_terminal_type() is None:
            return "the game needs a terminal: connect with plain ssh (ssh -t, not ssh -T)"
        if self.admitted >= self.config.max_sessions:
            return (
                f"the server is full ({self.config.max_sessions} sessions): please try again later"
            )
        return ""

    def _environment(self, process: asyncssh.SSHServerProcess[bytes] | None) -> dict[str, str]:
        """A small, fixed environment: nothing of the server's own leaks into a session.
        Without a process: what the zygote starts with (every session's part of it)."""
        path = os.environ.get("PYTHONPATH")
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/"),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "PYTHONPATH": str(PACKAGE_ROOT) + (os.pathsep + path if path else ""),
            "TERM": "xterm",
            "TEXTUAL_ANIMATIONS": "none",
            "WARGRID_SESSION_MEMORY": str(self.config.session_memory),
        }
        if process is None:
            return env
        term = process.get_terminal_type() or ""
        if TERM_NAME.fullmatch(term):  # the client's word: a name, nothing else
            env["TERM"] = term
        colorterm = process.env.get("COLORTERM")  # sent by clients with SendEnv COLORTERM
        if colorterm in ("truecolor", "24bit"):
            env["COLORTERM"] = colorterm
        return env


def run(config: ServeConfig) -> int:
    """Serve until SIGINT or SIGTERM (the command line's ``wargrid serve``)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("asyncssh").setLevel(logging.WARNING)  # a line per channel event
    if os.geteuid() == 0:
        log.warning("running as root: run wargrid serve as an unprivileged user")
    asyncio.run(_serve(config))
    return 0


async def _serve(config: ServeConfig) -> None:
    server = WargridServer(config)
    await server.start()
    assert server.host_key is not None and server.hub is not None
    fingerprint = server.host_key.convert_to_public().get_fingerprint()
    print(
        f"wargrid serve: listening on {config.host}:{server.port}\n"
        f"  host key {fingerprint}\n  games in {config.state_dir / 'games'} "
        f"({len(server.hub.games)} resumed)\n  connect: ssh -p {server.port} "
        f"{'NAME@' if config.guests else ''}{config.host}   (Ctrl+C stops)",
        flush=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.close()
