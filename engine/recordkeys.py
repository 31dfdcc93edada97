"""Value keys of mutable records: what `engine.stateencoder` reuses a record's written
data and bytes by, from one checkpoint to the next (`Encoder.keyed`).

A wh40k6 checkpoint writes some sixty models and units, and between two phases most of
them did not change. Telling that they did not has to cost less than writing them: a
record's key is one tuple of its saved fields' values, read by name (compiled per class,
as `engine.stateencoder._fields_of` compiles the writers), its lists as tuples and its
frozen records by identity (the cache entry keeps them alive, so an id stands for one
object). Equal keys mean the same written data, given the same surroundings, which the
encoder checks apart.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import cache
from typing import TYPE_CHECKING, Any

import msgpack

from engine.statecodec import Path, _plan, _shape

if TYPE_CHECKING:
    from engine.stateencoder import Encoder, Fields

Node = tuple[Any, str | int] | None
"""A path as a chain of (parent, key) links: cheap to extend, flattened only when read."""


def flat(node: Node) -> Path:
    """The keys down to ``node``."""
    keys: list[str | int] = []
    while node is not None:
        node, key = node
        keys.append(key)
    return tuple(reversed(keys))


Key = Callable[[Any], Hashable]
"""A record's saved fields as one hashable tuple."""


@cache
def key_of(cls: Any, static: tuple[type, ...]) -> Key | None:
    """The key function of ``cls``, or None where a saved field holds what a key cannot
    stand for exactly (a mutable record, a list of records): such a record is written
    every time.

    The source is built from the fields' names alone (identifiers of the ruleset's own
    classes, never read from a file), as `_fields_of`'s is."""
    from engine.stateencoder import _frozen

    parts = []
    for name, hint, is_static, _ in _plan(cls, static):
        if is_static:
            continue
        assert name.isidentifier(), name
        value = f"obj.{name}"
        kind, inner = _shape(hint)
        if _hashable(hint):
            parts.append(value)
        elif all(_shape(h)[0] == "record" and _frozen(h, static) for h in _arms(hint)):
            parts.append(f"_id({value})")  # None's id, where it may be None
        elif kind == "sequence" and all(_hashable(a) for a in inner[1] if a is not Ellipsis):
            parts.append(f"_frozenset({value})" if inner[0] is set else f"tuple({value})")
        elif kind == "dict" and all(_hashable(h) for h in inner):
            parts.append(f"tuple({value}.items())")
        else:
            return None
    scope: dict[str, Any] = {"_id": id, "_frozenset": frozenset}
    source = f"def key(obj):\n    return ({', '.join(parts)},)"
    exec(source, scope)  # source from field names alone, see above
    compiled: Key = scope["key"]
    return compiled


def _arms(hint: Any) -> tuple[Any, ...]:
    """The kinds of value a field may hold, None aside."""
    kind, parts = _shape(hint)
    return tuple(parts[0]) if kind == "union" else (hint,)


def _hashable(hint: Any) -> bool:
    """Values of ``hint`` are hashable and equal only where they are written alike."""
    kind, parts = _shape(hint)
    if kind in ("primitive", "enum", "fraction"):
        return True
    if kind == "namedtuple":
        return all(_hashable(h) for h in parts)
    if kind == "union":
        return all(_hashable(h) for h in parts[0])
    if kind == "sequence":
        origin, args, _ = parts
        return origin in (tuple, frozenset) and all(_hashable(a) for a in args if a is not Ellipsis)
    return False


class _Kept:
    """A keyed record as written once: where (as its chain of links, which compare as
    their paths do, in one step), its data and bytes, the records written in full inside
    it with where they stood (so where it stands again, so do they) and the objects
    outside it it referred to, with where those stood. Each check of `reuse_keyed` is
    one step of C over these tuples: a record's check costs a tenth of writing it.
    Shared between states: nothing may change it."""

    __slots__ = (
        "inner",
        "inner_ids",
        "inner_nodes",
        "out",
        "packed",
        "ref_ids",
        "ref_nodes",
        "references",
        "refs",
        "where",
    )

    def __init__(
        self,
        where: Node,
        out: dict[str, Any],
        packed: bytes,
        inner: tuple[tuple[Any, ...], tuple[int, ...], tuple[Node, ...]],
        refs: list[tuple[Any, Node]],
        references: int,
    ) -> None:
        self.where, self.out, self.packed, self.references = where, out, packed, references
        self.inner, self.inner_ids, self.inner_nodes = inner
        self.refs = refs
        self.ref_ids = tuple([id(t) for t, _ in refs])
        self.ref_nodes = tuple([n for _, n in refs])


_KEPT: dict[tuple[type, Hashable], _Kept] = {}
_KEPT_MAX = 20_000
_AT: dict[Node, tuple[type, Hashable]] = {}
"""The key of the record last written afresh at each path: a model that moved replaces
its old entry rather than leaving it to grow the collector's older generations (bot games
ran 2% slower for them)."""


def reuse_keyed(enc: Encoder, obj: Any, node: Node, fields: Fields, keyer: Key) -> dict[str, Any]:
    """``obj`` written as `Encoder.record` writes a mutable record, or, where its key
    is one met before, what was written then: reused only at the same path, with none of
    the records written in full inside it met earlier in this state (they would now be
    references) and each object it referred to at the same path as then (the
    references read alike). The bytes go to ``enc.packed``, to be put in whole."""
    seen, made_refs = enc.seen, enc.refs
    assert made_refs is not None, "keyed records are written by encode_packed"
    key = (type(obj), keyer(obj))
    kept = _KEPT.get(key)
    if (
        kept is not None
        and kept.where == node
        and seen.keys().isdisjoint(kept.inner_ids)
        and tuple(map(seen.get, kept.ref_ids)) == kept.ref_nodes
    ):
        seen[id(obj)] = node
        seen.update(zip(kept.inner_ids, kept.inner_nodes, strict=True))
        enc.written.append(obj)
        enc.written += kept.inner
        made_refs += kept.refs
        enc.references += kept.references
        enc.packed.append((node, kept.out, kept.packed))
        return kept.out
    seen[id(obj)] = node
    start, refs, packs, references = (
        len(enc.written),
        len(made_refs),
        len(enc.packed),
        enc.references,
    )
    enc.written.append(obj)
    out = fields(enc, obj, node)
    if len(enc.packed) == packs:  # nothing inside put in apart (zones, terrain)
        inner = tuple(enc.written[start + 1 :])
        ids = tuple(map(id, inner))
        made = made_refs[refs:]
        if made:
            inside = {id(obj), *ids}
            made = [r for r in made if id(r[0]) not in inside]
        if enc.packer is None:
            enc.packer = msgpack.Packer(use_bin_type=True)
        packed: bytes = enc.packer.pack(out)
        if len(_KEPT) >= _KEPT_MAX:
            _KEPT.clear()
            _AT.clear()
        before = _AT.get(node)
        if before is not None:
            last = _KEPT.get(before)
            if last is not None and last.where == node:
                # What stood here before: freed, not left for the collector. Popped,
                # not deleted: a replay verifying in a worker thread shares the entries.
                _KEPT.pop(before, None)
        _AT[node] = key
        nodes = tuple(map(seen.__getitem__, ids))
        _KEPT[key] = _Kept(
            node, out, packed, (inner, ids, nodes), made, enc.references - references
        )
        enc.packed.append((node, out, packed))
    return out
