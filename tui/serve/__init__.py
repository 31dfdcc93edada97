"""SSH-hosted games: ``wargrid serve`` (issue 8; PRIOR-ART §3 and §7.4).

One server process: the asyncssh listener (`server`) and the hub (`hub`, `games`), which
holds each hosted game's one authoritative `Game` and saves it after every choice. One
process per SSH session, in its own pseudo-terminal (`bridge`), forked from a process
that has imported it already (`spawner`, `zygote`): the Textual UI
(`client`, `lobby`, `seat`), which keeps a copy of its game (`replica`) moved only by the
choices the hub sends. They talk over a socket pair in msgpack (`protocol`).

Importing this package loads nothing heavy: asyncssh and Textual load in the modules
that need them.
"""
