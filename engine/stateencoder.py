"""Writing a ruleset's state as plain data: the encoding half of engine.statecodec.

A checkpoint is written at every phase, so this half is the hot one: each annotation is
compiled once into a function (`_compiled`) instead of being walked again for every value,
paths are linked pairs flattened only when a reference needs one, and frozen records of
frozen data (datasheets, weapons, profiles: most records of a state) are written once and
reused while nothing in them can have changed (`_FROZEN`).

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

import msgpack

from engine.recordkeys import Key, Node, key_of, reuse_keyed
from engine.recordkeys import flat as _flat
from engine.statecodec import (
    SAME,
    Path,
    StateCodecError,
    _path_text,
    _plan,
    _shape,
)

Encode = Callable[["Encoder", Any, Node], Any]
"""Plain data of one value of a given hint (None: the value is its own plain data)."""


class Encoder:
    """Turns one state into plain data, remembering where each object was written."""

    def __init__(self, static: tuple[type, ...]) -> None:
        self.static = static
        self.seen: dict[int, Node] = {}
        self.written: list[Any] = []
        """Every record written out in full, in order (what a frozen one holds)."""
        self.references = 0
        """How many ``same_as`` references were written so far."""
        self.writers: dict[type, tuple[Fields, bool, Key | None]] = {}
        """Per record class met: its field writer (`_fields_of`), whether it is frozen
        (`_frozen`) and its key where it is keyed (`encode_packed`), looked up once per
        state rather than once per record."""
        self.packed: list[tuple[Node, Any, bytes]] = []
        """Values written that were packed before: where, the value, its bytes
        (`encode_packed`)."""
        self.given: dict[int, Given] = {}
        """By id: maps of cells the caller wrote and packed before (`encode_packed`)."""
        self.keyed: tuple[type, ...] = ()
        """Record classes whose written data and bytes are reused by their value key
        (`engine.recordkeys`, `encode_packed`)."""
        self.packer: msgpack.Packer | None = None
        """Packs the keyed records written afresh (made on first use: one per state)."""
        self.refs: list[tuple[Any, Node]] | None = None
        """Every object a ``same_as`` reference was written to, with where it stands:
        kept where records are keyed (`encode_packed` makes the list), to know what a
        keyed record referred to."""

    def record(self, obj: Any, node: Node) -> dict[str, Any]:
        seen = self.seen
        key = id(obj)
        if key in seen:
            self.references += 1
            if self.refs is not None:
                self.refs.append((obj, seen[key]))
            return {SAME: list(_flat(seen[key]))}
        kind: Any = type(obj)
        writer = self.writers.get(kind)
        if writer is None:
            writer = self.writers[kind] = (
                _fields_of(kind, self.static),
                _frozen(kind, self.static),
                key_of(kind, self.static) if kind in self.keyed else None,
            )
        fields, frozen, keyer = writer
        if not frozen:
            if keyer is not None:
                return reuse_keyed(self, obj, node, fields, keyer)
            seen[key] = node
            self.written.append(obj)
            return fields(self, obj, node)
        kept = _FROZEN.get(key)
        if kept is not None and kept[0] is obj and not any(id(o) in seen for o, _ in kept[2]):
            seen[key] = node
            self.written.append(obj)  # written in full here, as in a record holding it
            for inner, steps in kept[2]:
                at = node
                for step in steps:
                    at = (at, step)
                seen[id(inner)] = at
                self.written.append(inner)
            return kept[1]
        seen[key] = node
        start, references = len(self.written), self.references
        self.written.append(obj)
        out = fields(self, obj, node)
        if self.references == references:  # no reference in or out: the same anywhere
            depth = len(_flat(node))
            inner = tuple((o, _flat(seen[id(o)])[depth:]) for o in self.written[start + 1 :])
            if len(_FROZEN) >= _FROZEN_MAX:
                _FROZEN.clear()
            _FROZEN[key] = (obj, out, inner)
        return out


_FROZEN_MAX = 20_000
_FROZEN: dict[int, tuple[Any, dict[str, Any], tuple[tuple[Any, Path], ...]]] = {}
"""Frozen records already written: by id, the object itself (kept alive, so its id is not
reused), its plain data, and the records written inside it with their paths from it.

Reused only where none of those was written before in the same state (it would then be
a reference), and kept only when writing it made no reference (its data does not depend
on what surrounds it). The data is shared between states: nothing may change it."""


@cache
def _frozen(cls: Any, static: tuple[type, ...]) -> bool:
    """A frozen dataclass whose saved fields hold only frozen data, all the way down."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        return False
    _FREEZING.add(cls)
    try:
        return all(
            _frozen_hint(hint, static)
            for _, hint, is_static, _ in _plan(cls, static)
            if not is_static
        )
    finally:
        _FREEZING.discard(cls)


_FREEZING: set[Any] = set()
"""Classes whose `_frozen` is being decided: a record holding its own kind (directly or
not) is taken as not frozen, which is never wrong, only slower."""


def _frozen_hint(hint: Any, static: tuple[type, ...]) -> bool:
    kind, parts = _shape(hint)
    if kind in ("primitive", "enum", "fraction"):
        return True
    if kind == "namedtuple":
        return all(_frozen_hint(h, static) for h in parts)
    if kind == "union":
        return all(_frozen_hint(h, static) for h in parts[0])
    if kind == "sequence":
        origin, args, _ = parts
        return origin in (tuple, frozenset) and all(
            _frozen_hint(a, static) for a in args if a is not Ellipsis
        )
    if kind == "record":
        return hint not in _FREEZING and _frozen(hint, static)  # a cycle: assume not
    return False


@cache
def _record_plan(cls: Any, static: tuple[type, ...]) -> tuple[tuple[str, Encode | None], ...]:
    """The saved fields of ``cls`` with their compiled encoders."""
    return tuple(
        (name, _compiled(hint, static))
        for name, hint, is_static, _ in _plan(cls, static)
        if not is_static
    )


Fields = Callable[[Encoder, Any, Node], dict[str, Any]]
"""Writes the saved fields of one record into a new map."""


@cache
def _fields_of(cls: Any, static: tuple[type, ...]) -> Fields:
    """A function writing ``cls``'s saved fields, compiled from its plan: the record's
    fields read by name and each encoder called directly, not looked up and tested field
    by field (a wh40k6 checkpoint writes some seventy records, a third of its time).
    The same map in the same key order as walking the plan: a field holding None is
    left out, a plain value kept as it is.

    The source is built from the fields' names alone (identifiers of the ruleset's own
    classes, never read from a file)."""
    plan = _record_plan(cls, static)
    lines = ["def fields(enc, obj, node):", "    out = {}", "    record = enc.record"]
    scope: dict[str, Any] = {}
    for n, (name, encoder) in enumerate(plan):
        assert name.isidentifier(), name
        lines += [f"    v = obj.{name}", "    if v is not None:"]
        if encoder is None:
            lines.append(f"        out[{name!r}] = v")
        elif encoder is _record:
            lines.append(f"        out[{name!r}] = record(v, (node, {name!r}))")
        else:
            scope[f"e{n}"] = encoder
            lines.append(f"        out[{name!r}] = e{n}(enc, v, (node, {name!r}))")
    lines.append("    return out")
    exec("\n".join(lines), scope)  # source from field names alone, see above
    compiled: Fields = scope["fields"]
    return compiled


def plain_fields(cls: Any, static: tuple[type, ...]) -> Fields:
    """`_fields_of` walking the plan field by field (tests hold the compiled one to it)."""
    return lambda enc, obj, node: _plain_fields(enc, obj, cls, node)


def _plain_fields(enc: Encoder, obj: Any, kind: Any, node: Node) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, encoder in _record_plan(kind, enc.static):
        field_value = getattr(obj, name)
        if field_value is None:
            continue
        out[name] = field_value if encoder is None else encoder(enc, field_value, (node, name))
    return out


def _record(enc: Encoder, value: Any, node: Node) -> Any:
    return enc.record(value, node)


def _ordered(out: list[Any]) -> list[Any]:
    """A set has no order of its own: give it one."""
    try:
        out.sort()
    except TypeError:  # mixed or unorderable items: order their text
        out.sort(key=lambda v: json.dumps(v, sort_keys=True))
    return out


@cache
def _compiled(hint: Any, static: tuple[type, ...]) -> Encode | None:
    """The encoder of ``hint``'s values; None where a value is its own plain data."""
    kind, parts = _shape(hint)
    if kind == "primitive":
        return None
    if kind == "record":
        return _record
    if kind == "union":
        return _union(parts[0], static)
    if kind == "sequence":
        origin, args, fixed = parts
        return _sequence(origin, args, fixed, static)
    if kind == "dict":
        key_hint, value_hint = parts
        return _mapping(key_hint, value_hint, static)
    if kind == "namedtuple":
        return _fixed([_compiled(h, static) for h in parts], False)
    if kind == "enum":
        return lambda enc, value, node: value.name
    if kind == "fraction":
        return lambda enc, value, node: f"{value.numerator}/{value.denominator}"

    def unknown(enc: Encoder, value: Any, node: Node) -> Any:
        raise StateCodecError(f"{_path_text(_flat(node))}: cannot save a {hint!r}")

    return unknown


def _union(arms: tuple[Any, ...], static: tuple[type, ...]) -> Encode:
    by_type: dict[type, Encode | None] = {}
    """The arm's encoder for each type of value met (`_arm_for` asks isinstance, which
    a value's type alone decides)."""

    def encode_union(enc: Encoder, value: Any, node: Node) -> Any:
        if value is None:
            return {}
        kind = type(value)
        if kind in by_type:
            encoder = by_type[kind]
        else:
            encoder = by_type[kind] = _compiled(_arm_for(value, arms, node), static)
        return value if encoder is None else encoder(enc, value, node)

    return encode_union


def _as_list(enc: Encoder, value: Any, node: Node) -> Any:
    """A tuple of plain values (a cell) as a list."""
    return list(value)


_SORTED: dict[frozenset[Any], tuple[list[list[int]], bytes]] = {}
"""Frozen sets of cells (deployment zones, written at every checkpoint) already written,
and packed (half the bytes of a wh40k6 checkpoint). The data is shared between states,
as `_FROZEN`'s is: nothing may change it."""


def _cell_frozenset(enc: Encoder, value: Any, node: Node) -> Any:
    """A frozen set of cells, sorted as `_ordered` sorts their lists (tuples of ints order
    as their lists do); it cannot change, so it is written and packed once while it is
    in use."""
    done = _SORTED.get(value)
    if done is None:
        written = [list(v) for v in sorted(value)]
        done = (written, msgpack.packb(written, use_bin_type=True))
        if len(_SORTED) >= 64:
            _SORTED.clear()
        _SORTED[value] = done
    enc.packed.append((node, *done))
    return done[0]


def _fixed(encoders: list[Encode | None], as_set: bool) -> Encode:
    """Items encoded each by its own encoder (fixed tuples, NamedTuples such as cells)."""
    if all(e is None for e in encoders):
        if as_set:
            return lambda enc, value, node: _ordered(list(value))
        return _as_list

    def encode_fixed(enc: Encoder, value: Any, node: Node) -> Any:
        out = [
            item if e is None else e(enc, item, (node, i))
            for i, (item, e) in enumerate(zip(value, encoders, strict=False))
        ]
        return _ordered(out) if as_set else out

    return encode_fixed


def _sequence(origin: Any, args: Any, fixed: bool, static: tuple[type, ...]) -> Encode:
    as_set = origin in (set, frozenset)
    if fixed:
        return _fixed([_compiled(a, static) for a in args], as_set)
    item = _compiled(args[0], static)
    if item is None:
        if as_set:
            return lambda enc, value, node: _ordered(list(value))
        return _as_list
    if item is _as_list:  # cells: no path needed, no call per item
        if origin is frozenset:
            return _cell_frozenset
        if as_set:
            return lambda enc, value, node: _ordered([list(v) for v in value])
        return lambda enc, value, node: [list(v) for v in value]

    def encode_items(enc: Encoder, value: Any, node: Node) -> Any:
        out = [item(enc, v, (node, i)) for i, v in enumerate(value)]
        return _ordered(out) if as_set else out

    return encode_items


def _mapping(key_hint: Any, value_hint: Any, static: tuple[type, ...]) -> Encode:
    ev = _compiled(value_hint, static)
    if key_hint is str:
        if ev is None:
            return lambda enc, value, node: dict(value)
        return lambda enc, value, node: {k: ev(enc, v, (node, k)) for k, v in value.items()}
    ek = _compiled(key_hint, static)
    if ek is _as_list and ev is None:  # cells to plain values (terrain maps)
        return _cell_map

    def encode_pairs(enc: Encoder, value: Any, node: Node) -> Any:
        out = []
        for i, (k, v) in enumerate(value.items()):
            at = (node, i)
            out.append(
                [
                    k if ek is None else ek(enc, k, (at, 0)),
                    v if ev is None else ev(enc, v, (at, 1)),
                ]
            )
        return out

    return encode_pairs


def _cell_map(enc: Encoder, value: Any, node: Node) -> Any:
    """A map of cells to plain values (terrain), or what the caller wrote of it before."""
    given = enc.given.get(id(value))
    if given is not None and given[0] is value:
        enc.packed.append((node, given[1], given[2]))
        return given[1]
    return [[list(k), v] for k, v in value.items()]


def _arm_for(value: Any, arms: tuple[Any, ...], node: Node) -> Any:
    for arm in arms:
        base = typing.get_origin(arm) or arm
        if isinstance(base, type) and isinstance(value, base):
            return arm
    raise StateCodecError(f"{_path_text(_flat(node))}: {type(value).__name__} fits none of {arms}")


def encode(state: Any, static: tuple[type, ...] = ()) -> dict[str, Any]:
    """``state`` (a dataclass) as plain data."""
    return Encoder(static).record(state, None)


Splices = dict[str | int, "Splices | tuple[Any, bytes]"]
"""Keys down to the values already packed (the leaves: the value and its bytes)."""


Given = tuple[Any, list[Any], bytes]
"""A map of cells as the caller wrote it before: the map, its plain data, their bytes."""


def encode_packed(
    state: Any,
    static: tuple[type, ...] = (),
    given: tuple[Given, ...] = (),
    keyed: tuple[type, ...] = (),
) -> bytes:
    """``encode``'s plain data packed (msgpack, binary type): the very bytes of packing
    it whole, with the values packed before (`_cell_frozenset`) put in as they are
    rather than packed again. Only the maps and lists on the way to them are packed
    piece by piece; everything beside them is packed in runs, one call each.

    ``given``: maps of cells (terrain) the caller wrote and packed while they have not
    changed since, as `encode` writes them (the caller vouches for that: a wh40k6 state
    clears its cache whenever its terrain changes).

    ``keyed``: record classes written once per value of their fields and reused while
    those are the same (`reuse_keyed`): the models and units of a wh40k6 state."""
    enc = Encoder(static)
    enc.given = {id(g[0]): g for g in given}
    enc.keyed = keyed
    enc.refs = [] if keyed else None
    data = enc.record(state, None)
    splices: Splices = {}
    under: dict[int, Splices] = {}  # by parent link: the models of a state share one
    for node, value, packed in enc.packed:
        assert node is not None
        parent, last = node
        at = under.get(id(parent))
        if at is None:
            at = splices
            for key in _flat(parent):
                inner = at.setdefault(key, {})
                assert isinstance(inner, dict)
                at = inner
            under[id(parent)] = at
        at[last] = (value, packed)
    return pack_spliced(data, splices)


def pack_spliced(data: dict[str, Any] | list[Any], splices: Splices) -> bytes:
    """``data`` packed (msgpack, binary type), byte for byte, with the values ``splices``
    names (by the keys down to them) put in as the bytes it gives with them. A value not
    where ``splices`` says (not the very object) has the whole packed instead."""
    packer = msgpack.Packer(use_bin_type=True)
    if splices:
        try:
            return _spliced(packer, data, splices)
        except _MovedError:
            pass
    whole: bytes = packer.pack(data)
    return whole


class _MovedError(Exception):
    """A value packed before is not where it was written (a set's items are sorted
    after they are written): the state is packed whole instead."""


def _spliced(packer: msgpack.Packer, value: Any, splices: Splices) -> bytes:
    """``value`` (a map or list) packed, its items named in ``splices`` put in whole."""
    is_map = isinstance(value, dict)
    parts = [packer.pack_map_header(len(value)) if is_map else packer.pack_array_header(len(value))]
    run: list[Any] = []
    for key, item in value.items() if is_map else enumerate(value):
        inner = splices.get(key)
        if inner is None:
            run += (key, item) if is_map else (item,)
            continue
        if run:
            parts.append(_run(packer, run))
            run = []
        if is_map:
            parts.append(packer.pack(key))
        if isinstance(inner, tuple):
            if inner[0] is not item:
                raise _MovedError
            parts.append(inner[1])
        elif isinstance(item, dict | list):
            parts.append(_spliced(packer, item, inner))
        else:
            raise _MovedError
    if run:
        parts.append(_run(packer, run))
    return b"".join(parts)


def _run(packer: msgpack.Packer, items: list[Any]) -> bytes:
    """Items packed back to back: packed as one list, its header cut off."""
    packed: bytes = packer.pack(items)
    n = len(items)
    return packed[1 if n < 16 else 3 if n < 0x10000 else 5 :]
