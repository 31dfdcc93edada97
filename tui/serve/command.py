"""The ``wargrid serve`` subcommand: its options here, the server (and asyncssh) loaded
only when it runs, so the other commands start as fast as before."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tui.settings import DEFAULT_PACE, PACES


def add_serve_command(sub: Any) -> None:
    """Add ``serve`` to the command line's subcommands (``sub`` from add_subparsers)."""
    serve: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help="host games over SSH: each player in their own terminal, spectators welcome",
        description="Run an SSH server whose only program is wargrid. Players connect with "
        "`ssh -p PORT HOST`; games are saved after every choice and resumed on restart.",
    )
    who = serve.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--authorized-keys",
        type=Path,
        metavar="FILE",
        help="only these public keys log in; a key's comment is its player's name",
    )
    who.add_argument(
        "--guests",
        action="store_true",
        help="anyone logs in, named by their SSH user name (for a LAN)",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 for the LAN)",
    )
    serve.add_argument("--port", type=int, default=2222, help="port (default 2222)")
    serve.add_argument(
        "--state-dir",
        type=Path,
        default=Path("saves/server"),
        help="host key and hosted games (default saves/server)",
    )
    serve.add_argument(
        "--idle-timeout",
        type=float,
        default=30,
        metavar="MINUTES",
        help="close a session after this long without a key (default 30)",
    )
    serve.add_argument("--max-sessions", type=int, default=50, help="default 50")
    serve.add_argument(
        "--max-games", type=int, default=20, help="unfinished games at once (default 20)"
    )
    serve.add_argument(
        "--pace",
        choices=list(PACES),
        default=DEFAULT_PACE,
        help="how long each computer move stays on screen before its next "
        f"(default {DEFAULT_PACE}; a player skips ahead with F)",
    )
    serve.add_argument(
        "--no-shared-spectators",
        dest="share",
        action="store_false",
        help="give every spectator a process of its own (by default spectators of a game "
        "who press nothing share one per terminal size and type)",
    )
    serve.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Start the server with the parsed options; returns when it is stopped."""
    from tui.serve.server import ServeConfig, run

    return run(
        ServeConfig(
            state_dir=args.state_dir,
            host=args.host,
            port=args.port,
            authorized_keys=args.authorized_keys,
            guests=args.guests,
            idle_timeout=max(1.0, args.idle_timeout * 60),
            max_sessions=max(1, args.max_sessions),
            max_games=max(1, args.max_games),
            pace=PACES[args.pace],
            share_spectators=args.share,
        )
    )
