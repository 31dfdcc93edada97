"""A ruleset's whole state as plain data and back, read off its type annotations.

Checkpoints and written positions must restore a game *exactly*: every flag, counter,
hidden deck and card order. Rather than one hand-written serialiser per ruleset (which
drifts the day someone adds a field), the codec walks the state's dataclasses by their
annotated fields, so a new field is saved the moment it is declared.

Plain data is what both TOML and msgpack hold: str, int, bool, lists and str-keyed maps.

- dataclasses (and classes with class-level annotations) become maps of their fields;
  a field holding None is left out. ``TRANSIENT`` (a ClassVar of field names) lists
  caches that are rebuilt, not saved; a ``restored()`` method runs after decoding.
- an object met a second time (the same object in two places, e.g. a model in its unit
  and in the model table) becomes ``{same_as = [path]}``, so sharing survives the trip.
- tuples, lists, sets become lists; maps with str keys stay maps, others become lists of
  ``[key, value]`` pairs; enums become their names; fractions "n/d"; NamedTuples (cells) lists.
- ``static`` types (the board) are not written: they come back from ``template``, the
  state a fresh ruleset builds from the same scenario.

Decoding checks every value against its annotation and names the path of the first one
that does not fit: checkpoints come from files, and files are hostile.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import sys
import types
import typing
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import chain
from typing import Any

from engine.errors import ScenarioError

SAME = "same_as"
"""The key of a reference to an object written earlier (its path)."""

Path = tuple[str | int, ...]
_FRACTION = re.compile(r"^-?[0-9]{1,18}/[0-9]{1,18}$")


class StateCodecError(ScenarioError):
    """A saved state does not fit the ruleset's state; the message names the path."""


@cache
def _hints(cls: Any) -> dict[str, Any]:
    """The annotated fields of ``cls`` (ClassVars and private caches left out)."""
    module = sys.modules.get(cls.__module__)
    hints = typing.get_type_hints(cls, vars(module) if module else None)
    transient = set(getattr(cls, "TRANSIENT", ()))
    out: dict[str, Any] = {}
    for name, hint in hints.items():
        if typing.get_origin(hint) is typing.ClassVar or name in transient:
            continue
        if dataclasses.is_dataclass(cls) and name not in {f.name for f in dataclasses.fields(cls)}:
            continue
        out[name] = hint
    return out


def _is_record(cls: Any) -> bool:
    """A class the codec writes field by field."""
    return (
        isinstance(cls, type)
        and (dataclasses.is_dataclass(cls) or bool(getattr(cls, "__annotations__", None)))
        and not _is_namedtuple(cls)
    )


def _is_namedtuple(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


def _path_text(path: Path) -> str:
    return ".".join(str(p) for p in path) or "(the state)"


PRIMITIVES = (int, str, bool)


@cache
def _shape(hint: Any) -> tuple[str, tuple[Any, ...]]:
    """What kind of value ``hint`` describes, and its parts (cached: hints repeat)."""
    origin = typing.get_origin(hint)
    if hint in PRIMITIVES:
        return "primitive", ()
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        arms = tuple(a for a in args if a is not type(None))
        return "union", (arms, len(arms) < len(args))
    if hint is Fraction:
        return "fraction", ()
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return "enum", ()
    if _is_namedtuple(hint):
        return "namedtuple", tuple(_hints(hint).values())
    if origin in (list, tuple, set, frozenset):
        args = typing.get_args(hint)
        fixed = origin is tuple and args[-1] is not Ellipsis
        return "sequence", (origin, args, fixed)
    if origin is dict:
        return "dict", typing.get_args(hint)
    if _is_record(hint):
        return "record", ()
    return "unknown", ()


@cache
def _plan(cls: Any, static: tuple[type, ...]) -> tuple[tuple[str, Any, bool, bool], ...]:
    """Per field of ``cls``: name, hint, kept from the template, may be None."""
    return tuple(
        (name, hint, _is_static(hint, static), _optional(hint))
        for name, hint in _hints(cls).items()
    )


def _is_static(hint: Any, static: tuple[type, ...]) -> bool:
    return isinstance(hint, type) and issubclass(hint, static)


def encode(state: Any, static: tuple[type, ...] = ()) -> dict[str, Any]:
    """``state`` (a dataclass) as plain data (engine.stateencoder, which builds on the
    hints read here)."""
    from engine.stateencoder import encode as encode_state

    return encode_state(state, static)


_CHECKS: dict[Any, tuple[type, str]] = {
    bool: (bool, "must be true or false"),
    int: (int, "must be a whole number"),
    str: (str, "must be a string"),
}


class Decoder:
    """Rebuilds a state from plain data, checking each value against its annotation."""

    def __init__(self, static: tuple[type, ...], memo: Memo | None = None) -> None:
        self.static = static
        self.made: dict[Path, Any] = {}
        self.memo = memo
        """Sets of cells decoded before from these very lists (`decode`'s ``memo``)."""

    def fail(self, path: Path, why: str) -> StateCodecError:
        return StateCodecError(f"state key '{_path_text(path)}': {why}")

    def primitive(self, raw: Any, hint: Any, path: Path) -> Any:
        kind, why = _CHECKS[hint]
        if type(raw) is not kind:  # exact: a bool is no int here
            raise self.fail(path, why)
        return raw

    def value(self, raw: Any, hint: Any, path: Path, template: Any = None) -> Any:
        kind, parts = _shape(hint)
        if kind == "primitive":
            return self.primitive(raw, hint, path)
        if kind == "union":
            arms, optional = parts
            if optional and raw == {}:
                return None
            errors = []
            for arm in arms:
                try:
                    return self.value(raw, arm, path, template)
                except StateCodecError as exc:
                    errors.append(str(exc))
            raise StateCodecError(errors[0]) if errors else self.fail(path, "no value")
        if kind == "record":
            return self.record(raw, hint, path, template)
        if kind == "sequence":
            return self.sequence(raw, parts, path, template)
        if kind == "dict":
            return self.mapping(raw, parts, path, template)
        if kind == "namedtuple":
            if not isinstance(raw, list) or len(raw) != len(parts):
                raise self.fail(path, f"must be a list of {len(parts)} values")
            if all(type(v) is int for v in raw) and all(h is int for h in parts):
                return hint(*raw)  # a cell: the common case, checked at once
            return hint(
                *(
                    self.value(v, h, (*path, i))
                    for i, (v, h) in enumerate(zip(raw, parts, strict=False))
                )
            )
        if kind == "enum":
            if not isinstance(raw, str) or raw not in hint.__members__:
                raise self.fail(path, f"must be one of {', '.join(hint.__members__)}")
            return hint[raw]
        if kind == "fraction":
            if not isinstance(raw, str) or not _FRACTION.match(raw):
                raise self.fail(path, 'must be a fraction written as "n/d"')
            numerator, denominator = raw.split("/")
            if int(denominator) == 0:
                raise self.fail(path, "must not divide by zero")
            return Fraction(int(numerator), int(denominator))
        raise self.fail(path, f"cannot restore a {hint!r}")

    def sequence(self, raw: Any, parts: tuple[Any, ...], path: Path, template: Any) -> Any:
        origin, args, fixed = parts
        if not isinstance(raw, list):
            raise self.fail(path, "must be a list")
        if fixed and len(raw) != len(args):
            raise self.fail(path, f"must list {len(args)} values")
        memo = self.memo if origin is frozenset and not fixed else None
        if memo is not None:
            kept = memo.get(id(raw))
            if kept is not None and kept[0] is raw:
                return kept[1]
        items = None if fixed else _cells(raw, args[0])
        if items is not None:
            made = self.collected(items, origin, path)
            if memo is not None:
                memo[id(raw)] = (raw, made)
            return made
        items = []
        for i, item in enumerate(raw):
            arg = args[i] if fixed else args[0]
            if arg in PRIMITIVES:
                items.append(self.primitive(item, arg, (*path, i)))
                continue
            sub = template[i] if fixed and template is not None else None
            items.append(self.value(item, arg, (*path, i), sub))
        return self.collected(items, origin, path)

    def collected(self, items: list[Any], origin: Any, path: Path) -> Any:
        """A sequence's checked items as the collection its hint names."""
        if origin in (set, frozenset):
            try:
                made = origin(items)
            except TypeError:
                raise self.fail(path, "holds values that cannot be in a set") from None
            if len(made) != len(items):
                raise self.fail(path, "lists a value twice")
            return made
        return tuple(items) if origin is tuple else items

    def mapping(
        self, raw: Any, parts: tuple[Any, ...], path: Path, template: Any
    ) -> dict[Any, Any]:
        key_hint, value_hint = parts
        subs = template if isinstance(template, dict) else {}
        out: dict[Any, Any] = {}
        if key_hint is str:
            if not isinstance(raw, dict):
                raise self.fail(path, "must be a table")
            for k, v in raw.items():
                out[k] = self.value(v, value_hint, (*path, k), subs.get(k))
            return out
        if not isinstance(raw, list):
            raise self.fail(path, "must be a list of [key, value] pairs")
        for i, pair in enumerate(raw):
            if not isinstance(pair, list) or len(pair) != 2:
                raise self.fail((*path, i), "must be a [key, value] pair")
            key = self.value(pair[0], key_hint, (*path, i, 0))
            try:
                fresh = key not in out
            except TypeError:
                raise self.fail((*path, i, 0), "cannot be a key") from None
            if not fresh:
                raise self.fail((*path, i, 0), "a key given twice")
            out[key] = self.value(pair[1], value_hint, (*path, i, 1), subs.get(key))
        return out

    def record(self, raw: Any, cls: type, path: Path, template: Any) -> Any:
        if not isinstance(raw, dict):
            raise self.fail(path, f"must be a table (a {cls.__name__})")
        if SAME in raw:
            return self.reference(raw, cls, path)
        plan = _plan(cls, self.static)
        if len(raw) > len(plan) or not raw.keys() <= _hints(cls).keys():
            unknown = [k for k in raw if k not in _hints(cls)]
            raise self.fail(
                (*path, unknown[0] if unknown else "?"), f"not a field of {cls.__name__}"
            )
        obj: Any = object.__new__(cls)
        self.made[path] = obj
        setter = object.__setattr__
        for name, hint, static, optional in plan:
            if static:
                if template is None:
                    raise self.fail((*path, name), "nothing to take it from")
                value = getattr(template, name)
            elif name not in raw:
                if not optional:
                    raise self.fail((*path, name), "missing")
                value = None
            elif hint in PRIMITIVES:
                value = self.primitive(raw[name], hint, (*path, name))
            else:
                sub = getattr(template, name, None) if template is not None else None
                value = self.value(raw[name], hint, (*path, name), sub)
            setter(obj, name, value)
        _fill_rest(obj, cls)
        return obj

    def reference(self, raw: dict[str, Any], cls: type, path: Path) -> Any:
        target = raw[SAME]
        if len(raw) != 1 or not isinstance(target, list):
            raise self.fail(path, f"'{SAME}' must be alone and list a path")
        try:
            obj = self.made.get(tuple(target))
        except TypeError:
            obj = None
        if obj is None or not isinstance(obj, cls):
            raise self.fail(path, f"'{SAME}' names no {cls.__name__} written before")
        return obj


def _cells(raw: list[Any], hint: Any) -> list[Any] | None:
    """A list of cells (NamedTuples of ints, such as a deployment zone) made at once, or
    None if ``raw`` is not plainly one (then each item is checked and named on its own).

    Zones and terrain run to thousands of cells in a checkpoint; checking the types of
    all their numbers in one pass costs a fraction of walking each cell."""
    kind, parts = _shape(hint)
    if kind != "namedtuple" or not all(h is int for h in parts) or hint._field_defaults:
        return None
    if not raw or set(map(type, raw)) != {list}:
        return None
    try:
        made = [hint(*item) for item in raw]
    except TypeError:  # a wrong number of values: said by the item's own check
        return None
    if set(map(type, chain.from_iterable(made))) != {int}:
        return None
    return made


def _optional(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType) and type(
        None
    ) in typing.get_args(hint)


@cache
def _rest(cls: Any) -> tuple[tuple[str, Any, Any], ...]:
    """The fields of ``cls`` not saved: name, default, default factory."""
    saved = _hints(cls)
    if not dataclasses.is_dataclass(cls):
        return ()
    return tuple(
        (f.name, f.default, f.default_factory)
        for f in dataclasses.fields(cls)
        if f.name not in saved
    )


def _fill_rest(obj: Any, cls: type) -> None:
    """Transient and private fields get their defaults; then ``restored()`` rebuilds."""
    for name, default, factory in _rest(cls):
        if default is not dataclasses.MISSING:
            object.__setattr__(obj, name, default)
        elif factory is not dataclasses.MISSING:
            object.__setattr__(obj, name, factory())
    restored: Callable[[], None] | None = getattr(obj, "restored", None)
    if restored is not None:
        restored()


Memo = dict[int, tuple[Any, Any]]
"""By the id of a list of plain data: the list (kept, so its id stays its own) and the
frozen set of cells decoded from it."""


def decode(
    data: Any,
    cls: type[Any],
    template: Any = None,
    static: tuple[type, ...] = (),
    memo: Memo | None = None,
) -> Any:
    """A ``cls`` rebuilt from ``encode``'s plain data; StateCodecError names the bad key.

    ``memo``: kept with ``data`` where the same data is decoded again and again (a
    computer player restores one checkpoint for every option it weighs): a frozen set
    of cells (a deployment zone) decoded from a list of it once is that set again, the
    same object, in every state decoded from it. Only for data nobody changes."""
    try:
        return Decoder(static, memo).record(data, cls, (), template)
    except RecursionError:
        raise StateCodecError("state: nested too deeply") from None
