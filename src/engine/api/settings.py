"""The engine's options for the public API: the UCI option table itself (the
same names, types, defaults and ranges as `vireo` declares), given Python
values instead of `setoption` text, and shown as python-chess Options.
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

import chess.engine

from ..book.probe import DEFAULT_BOOK_PATH
from ..uci import strength
from ..uci.go import GoSettings
from ..uci.options import OptionError, OptionTable, build_option_table


def option_table() -> OptionTable:
    return build_option_table(elo_min=strength.ELO_MIN, elo_max=strength.ELO_MAX,
                              elo_default=strength.ELO_DEFAULT,
                              own_book_default=DEFAULT_BOOK_PATH.exists())


def as_text(name: str, value: Any) -> Any:
    """A Python value as `setoption` would carry it (python-chess's rule:
    booleans as true/false, None for a button)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if hasattr(value, "__fspath__"):
        return str(value.__fspath__())
    raise ValueError(f"option {name}: {value!r} is not a bool, int or str")


def parse_options(table: OptionTable, options: Mapping[str, Any]) -> Dict[str, Any]:
    """{option's own name: typed value} for every entry, or ValueError naming
    the first unknown option or bad value (nothing is stored)."""
    if not isinstance(options, Mapping):
        raise ValueError(f"options must be a mapping of option names to values, not {type(options).__name__}")
    parsed = {}
    for name, value in options.items():
        option = table.find(str(name))
        if option is None:
            known = ", ".join(o.name for o in table)
            raise ValueError(f"unknown option {name!r} (known: {known})")
        try:
            parsed[option.name] = option.parse(as_text(option.name, value))
        except OptionError as exc:
            raise ValueError(str(exc)) from None
    return parsed


def python_chess_options(table: OptionTable) -> Dict[str, chess.engine.Option]:
    """The options as chess.engine.SimpleEngine.options shows them."""
    return {o.name: chess.engine.Option(o.name, o.kind, o.default, o.min, o.max, list(o.choices))
            for o in table}


def go_settings(table: OptionTable, *, analyse: bool, multipv: int, chess960: bool) -> GoSettings:
    """What a GoTask reads, as the UCI layer builds it from the options;
    analyse: UCI_AnalyseMode on, as python-chess's analyse() sets it."""
    return GoSettings(
        multipv=multipv, move_overhead=table["Move Overhead"], show_wdl=table["UCI_ShowWDL"],
        chess960=chess960, limit_strength=table["UCI_LimitStrength"], elo=table["UCI_Elo"],
        analyse_mode=analyse or table["UCI_AnalyseMode"], own_book=table["OwnBook"],
        book_file=table["BookFile"], book_depth=table["BookDepth"], book_mode=table["BookMode"],
        syzygy_path=table["SyzygyPath"], syzygy_probe_depth=table["SyzygyProbeDepth"],
        syzygy_probe_limit=table["SyzygyProbeLimit"], syzygy_50=table["Syzygy50MoveRule"])


def line_count(multipv: Optional[int], option: int) -> int:
    """The lines to search: the call's multipv, else the MultiPV option."""
    if multipv is None:
        return option
    if isinstance(multipv, bool) or not isinstance(multipv, int) or not 1 <= multipv <= 256:
        raise ValueError(f"multipv must be an integer from 1 to 256, not {multipv!r}")
    return multipv
