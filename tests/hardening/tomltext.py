"""A tiny TOML writer for the scenario mutators (the stdlib reads TOML but cannot write it).

Everything is written as top-level ``key = value`` lines with inline tables, which
``tomllib`` reads back to the same data. Only the value types a scenario can hold are
supported: strings, integers, floats, booleans, dates and times, arrays and tables.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from typing import Any

from engine.tomlwrite import key as _key
from engine.tomlwrite import string as _string


def dumps(data: Mapping[str, Any]) -> str:
    """TOML text that ``tomllib.loads`` turns back into ``data``."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in data.items())


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
