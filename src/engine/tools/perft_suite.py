"""Perft suites: reading `FEN ;D1 n ;D2 n ...` lines and checking them.

Every position is set up with Chess960 castling semantics: they are a
superset of standard castling (KQkq means the outermost rooks, which in a
standard set-up are the corner rooks), and the move tree -- so every perft
count -- is the same in both modes. That reads standard, X-FEN and
Shredder-FEN castling fields alike.
"""
from dataclasses import dataclass, field


class SuiteError(ValueError):
    """A suite line that cannot be read (bad FEN or bad depth entry)."""


@dataclass
class PerftCase:
    fen: str
    expected: dict = field(default_factory=dict)   # depth -> node count
    line_number: int = 0


def parse_line(line, line_number=0):
    """One suite line -> PerftCase, or None for a blank/comment line."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    parts = [p.strip() for p in text.split(";")]
    case = PerftCase(parts[0], {}, line_number)
    if not case.fen:
        raise SuiteError(f"line {line_number}: no FEN before the first ';'")
    for entry in parts[1:]:
        if not entry:
            continue
        words = entry.split()
        if len(words) != 2 or not words[0][:1] in ("D", "d") or not words[0][1:].isdigit() \
                or not words[1].isdigit():
            raise SuiteError(f"line {line_number}: bad depth entry {entry!r} (expected 'D<depth> <nodes>')")
        case.expected[int(words[0][1:])] = int(words[1])
    if not case.expected:
        raise SuiteError(f"line {line_number}: no 'D<depth> <nodes>' entries")
    return case


def read_suite(path):
    """All cases of a suite file; raises SuiteError on an unreadable line."""
    cases = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            case = parse_line(line, number)
            if case is not None:
                cases.append(case)
    return cases
