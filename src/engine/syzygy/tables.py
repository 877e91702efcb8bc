"""Syzygy endgame tablebases through chess.syzygy.

What the UCI layer and the search use:
  * Tablebases.open(syzygy_path)        several directories joined by os.pathsep;
                                         TablebaseError when nothing usable is found,
                                         .warnings for directories that were skipped.
  * tb.max_pieces                        the largest table found (3..7).
  * tb.probe_wdl(board)                  -2..2 for the side to move, or None; cheap
                                         refusals first, so it can back a search callback.
  * tb.rank_root_moves(board, rule50)    the root moves ranked as Stockfish ranks them
                                         (see the comments there); .best_moves() are the
                                         ones to search, .score the score to report.
  * wdl_to_score / search_probe_allowed  the in-search conventions (scores stay below mates).

Scores are centipawns from the side to move's point of view. The score scale
(MATE_SCORE, MAX_PLY) follows Stockfish's layout and must match the core's:
  mate in n plies          MATE_SCORE - n            >= MATE_IN_MAX_PLY
  tablebase win, n plies   TB_WIN_SCORE - n          > TB_WIN_IN_MAX_PLY, below every mate
  cursed win (rule50)      a few centipawns          (a draw under the 50-move rule)
"""
from __future__ import annotations

import os
from typing import List, NamedTuple, Optional

import chess
import chess.polyglot
import chess.syzygy

MATE_SCORE = 32000
MAX_PLY = 246
MATE_IN_MAX_PLY = MATE_SCORE - MAX_PLY
TB_WIN_SCORE = MATE_IN_MAX_PLY - 1          # Stockfish: VALUE_MATE - MAX_PLY - 1
TB_WIN_IN_MAX_PLY = TB_WIN_SCORE - MAX_PLY
PAWN_VALUE = 100
# Ranks live in [-MAX_DTZ, MAX_DTZ]; any DTZ (at most a few thousand plies even
# for 7 pieces) plus the 50-move counter fits far inside MAX_DTZ / 2.
MAX_DTZ = 1 << 18

_PROBE_FAILURES = (KeyError, OSError, ValueError)  # missing table, unreadable or corrupt file


class TablebaseError(Exception):
    """No usable tables; the message says which directories were tried and why they failed."""


class RankedMove(NamedTuple):
    move: chess.Move
    rank: int    # higher is better; equal ranks are equally good for the tables
    score: int   # the tablebase score of the move, side to move's view


class RootRanking(list):
    """RankedMoves, best first (stable: equal ranks keep legal-move order). Empty: root not in the tables."""

    used_dtz: bool = False  # False when the DTZ tables were missing and WDL alone ranked the moves

    def best_moves(self) -> List[chess.Move]:
        """The moves the search should consider: those that share the top rank."""
        return [m.move for m in self if m.rank == self[0].rank] if self else []

    @property
    def score(self) -> Optional[int]:
        """The tablebase score to report for the position (that of the top-ranked move)."""
        return self[0].score if self else None

    def probe_in_search(self) -> bool:
        """Should the search still probe? Yes when the root is not in the tables. When it is,
        Stockfish probes only if DTZ was missing and the root is won: with DTZ the ranking
        already secures the result, and probes would only cost time."""
        return not self or (not self.used_dtz and self[0].score > 0)


class Tablebases:
    """Open Syzygy tables. Use Tablebases.open(path)."""

    def __init__(self, tables: chess.syzygy.Tablebase, directories: List[str], warnings: List[str]):
        self._tables = tables
        self.directories = directories
        self.warnings = warnings
        # chess.syzygy files each table under both colourings (KQvK and KvKQ): count signatures.
        self.wdl_count = _signature_count(tables.wdl)
        self.dtz_count = _signature_count(tables.dtz)
        # Table names are material signatures such as "KQvKR": pieces = letters - "v".
        self.max_pieces = max((len(name) - 1 for name in tables.wdl), default=0)
        self.hits = 0              # successful probes (the "tbhits" of UCI info lines)
        self.failures: List[str] = []  # first few probe errors (missing or corrupt tables)

    @classmethod
    def open(cls, path: str) -> "Tablebases":
        """Open every directory of a SyzygyPath string (directories separated by os.pathsep).

        A directory that does not exist or holds no tables is skipped and listed in
        .warnings; TablebaseError only when no WDL table at all was found.
        """
        directories = [d for d in (path or "").split(os.pathsep) if d.strip() and d.strip() != "<empty>"]
        if not directories:
            raise TablebaseError("no Syzygy directory given")
        tables = chess.syzygy.Tablebase()
        warnings: List[str] = []
        used: List[str] = []
        for directory in directories:
            if not os.path.isdir(directory):
                warnings.append(f"Syzygy directory not found: {directory}")
                continue
            try:
                found = tables.add_directory(directory)
            except OSError as exc:
                warnings.append(f"cannot read Syzygy directory {directory}: {exc.strerror or exc}")
                continue
            if found:
                used.append(directory)
            else:
                warnings.append(f"no Syzygy tables (*.rtbw, *.rtbz) in {directory}")
        if not tables.wdl:
            tables.close()
            detail = "; ".join(warnings) or "only DTZ tables (*.rtbz) found, WDL tables (*.rtbw) are needed"
            raise TablebaseError(f"no usable Syzygy tables: {detail}")
        return cls(tables, used, warnings)

    def close(self) -> None:
        self._tables.close()

    def __enter__(self) -> "Tablebases":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def summary(self) -> str:
        return (f"{self.wdl_count} WDL and {self.dtz_count} DTZ tables, up to "
                f"{self.max_pieces} pieces, from {os.pathsep.join(self.directories)}")

    # -- probes -------------------------------------------------------------

    def probable(self, board: chess.Board, limit: Optional[int] = None) -> bool:
        """Cheap test: few enough pieces and no castling rights (tables hold neither)."""
        pieces = chess.popcount(board.occupied)
        return pieces <= (self.max_pieces if limit is None else min(limit, self.max_pieces)) \
            and not board.castling_rights

    def probe_wdl(self, board: chess.Board) -> Optional[int]:
        """WDL for the side to move: 2 win, 1 cursed win (drawn by the 50-move rule),
        0 draw, -1 blessed loss, -2 loss; None when the position is not in the tables."""
        return self._probe(self._tables.probe_wdl, board)

    def probe_dtz(self, board: chess.Board) -> Optional[int]:
        """Distance to zeroing in plies (sign as WDL, may be off by one, see chess.syzygy); None if unknown."""
        return self._probe(self._tables.probe_dtz, board)

    def _probe(self, probe, board: chess.Board) -> Optional[int]:
        """One table probe, counted as a hit; failures are noted, never raised."""
        if not self.probable(board):
            return None
        try:
            value = probe(board)
        except _PROBE_FAILURES as exc:
            self._note_failure(exc)
            return None
        self.hits += 1
        return value

    def _note_failure(self, exc: Exception) -> None:
        if len(self.failures) < 10 and not isinstance(exc, chess.syzygy.MissingTableError):
            self.failures.append(str(exc))

    # -- root ranking -------------------------------------------------------

    def rank_root_moves(self, board: chess.Board, rule50: bool = True, rank_dtz: bool = False,
                        probe_limit: Optional[int] = None) -> RootRanking:
        """Rank the legal moves as Stockfish's Tablebases::rank_root_moves does.

        Empty when the root is not in the tables (too many pieces, castling rights,
        a table missing): then search as usual. rule50 is the Syzygy50MoveRule
        option; rank_dtz also orders wins by DTZ (fastest conversion first);
        probe_limit is SyzygyProbeLimit.
        """
        if not self.probable(board, probe_limit):
            return RootRanking()
        moves = list(board.legal_moves)
        if not moves:
            return RootRanking()
        work = board.copy()  # keeps the move stack: repetitions need the game history
        ranked = self._rank_by_dtz(work, moves, rule50, rank_dtz)
        used_dtz = ranked is not None
        if ranked is None:  # some DTZ table missing: WDL alone still keeps wins and draws
            ranked = self._rank_by_wdl(work, moves, rule50)
        if ranked is None:
            return RootRanking()
        ranking = RootRanking(sorted(ranked, key=lambda m: -m.rank))
        ranking.used_dtz = used_dtz
        self.hits += len(moves)
        return ranking

    def _rank_by_dtz(self, board, moves, rule50, rank_dtz) -> Optional[List[RankedMove]]:
        # Idea and constants from Stockfish's Tablebases::root_probe (tbprobe.cpp).
        #
        # dtz below is counted from the root, in plies, to the next zeroing move
        # (capture or pawn move) of the winning line: > 0 the mover wins, < 0 loses.
        # The 50-move rule draws when 100 plies pass without a zeroing move, so a
        # win is certain only while dtz + cnt50 <= 99 (cnt50 = the root's halfmove
        # clock). Hence:
        #   * certain wins (dtz + cnt50 <= 99, no repetition since the last zeroing
        #     move) share the top rank: the search picks among them freely, and as
        #     cnt50 grows the set shrinks to moves that make progress, so a win is
        #     never thrown away;
        #   * wins the clock endangers rank below, shorter dtz + cnt50 first (after
        #     a repetition this forces progress instead of a third repetition);
        #   * draws rank 0, above every loss: a draw is never thrown away either;
        #   * losses rank lowest, those where a 50-move draw is in sight above the rest.
        cnt50 = board.halfmove_clock
        repeated = _repeated_since_zeroing(board)
        bound = MAX_DTZ // 2 - 100 if rule50 else 1
        out = []
        for move in moves:
            board.push(move)
            try:
                if board.halfmove_clock == 0:
                    # A zeroing move: its own dtz is 1 (win), 101 (cursed win) etc.
                    dtz = _dtz_before_zeroing(-self._tables.probe_wdl(board))
                elif board.is_repetition(3) or board.is_fifty_moves():
                    dtz = 0  # the move itself claims a draw
                else:
                    dtz = -self._tables.probe_dtz(board)
                    dtz = dtz + 1 if dtz > 0 else dtz - 1 if dtz < 0 else 0
                if dtz == 2 and board.is_checkmate():
                    dtz = 1  # a mating move counts as one ply
            except _PROBE_FAILURES as exc:
                self._note_failure(exc)
                return None
            finally:
                board.pop()
            if dtz > 0:
                rank = (MAX_DTZ - (dtz if rank_dtz else 0) if dtz + cnt50 <= 99 and not repeated
                        else MAX_DTZ // 2 - (dtz + cnt50))
            elif dtz < 0:
                rank = (-MAX_DTZ - (dtz if rank_dtz else 0) if -dtz * 2 + cnt50 < 100
                        else -MAX_DTZ // 2 + (-dtz + cnt50))
            else:
                rank = 0
            out.append(RankedMove(move, rank, _rank_to_score(rank, bound)))
        return out

    def _rank_by_wdl(self, board, moves, rule50) -> Optional[List[RankedMove]]:
        # Stockfish's root_probe_wdl: without DTZ only the outcome is known.
        wdl_rank = {-2: -MAX_DTZ, -1: -MAX_DTZ + 101, 0: 0, 1: MAX_DTZ - 101, 2: MAX_DTZ}
        wdl_score = {-2: -TB_WIN_SCORE, -1: -2, 0: 0, 1: 2, 2: TB_WIN_SCORE}
        out = []
        for move in moves:
            board.push(move)
            try:
                if board.is_repetition(3) or board.is_fifty_moves():
                    wdl = 0
                else:
                    wdl = -self._tables.probe_wdl(board)
            except _PROBE_FAILURES as exc:
                self._note_failure(exc)
                return None
            finally:
                board.pop()
            shown = wdl if rule50 else 2 * ((wdl > 0) - (wdl < 0))
            out.append(RankedMove(move, wdl_rank[wdl], wdl_score[shown]))
        return out


def _signature_count(names) -> int:
    return len({min(name, "v".join(reversed(name.split("v")))) for name in names})


def _dtz_before_zeroing(wdl: int) -> int:
    return {2: 1, 1: 101, 0: 0, -1: -101, -2: -1}[wdl]


def _rank_to_score(rank: int, bound: int) -> int:
    # Certain results get the tablebase win score; a cursed win gets 1..49 cp,
    # growing as it gets closer to a real win (Stockfish's display rule).
    if rank >= bound:
        return TB_WIN_SCORE
    if rank > 0:
        return _div_trunc(max(3, rank - (MAX_DTZ // 2 - 200)) * PAWN_VALUE, 200)
    if rank == 0:
        return 0
    if rank > -bound:
        return _div_trunc(min(-3, rank + (MAX_DTZ // 2 - 200)) * PAWN_VALUE, 200)
    return -TB_WIN_SCORE


def _div_trunc(a: int, b: int) -> int:
    """C++ integer division (towards zero), which Stockfish's formula assumes."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _repeated_since_zeroing(board: chess.Board) -> bool:
    """Has any position occurred twice since the last capture or pawn move (Stockfish's has_repeated)?"""
    plies = min(board.halfmove_clock, len(board.move_stack))
    if plies < 4:
        return False
    probe = board.copy()
    seen = {chess.polyglot.zobrist_hash(probe)}
    for _ in range(plies):
        probe.pop()
        key = chess.polyglot.zobrist_hash(probe)
        if key in seen:
            return True
        seen.add(key)
    return False


# -- in-search conventions (for the core's callback) ---------------------------

def search_probe_allowed(pieces: int, depth: int, halfmove_clock: int, castling: bool,
                         cardinality: int, probe_depth: int) -> bool:
    """Stockfish's rule for probing inside the search, where it pays:
    only right after a zeroing move (the WDL is then exact for the 50-move rule and
    the position is new to the tables), with no castling rights, few enough pieces,
    and, at the largest piece count, only at depth >= probe_depth (those probes
    touch the biggest, slowest tables)."""
    return (halfmove_clock == 0 and not castling and pieces <= cardinality
            and (pieces < cardinality or depth >= probe_depth))


def effective_limits(probe_limit: int, probe_depth: int, max_pieces: int):
    """(cardinality, probe_depth) for the search: a SyzygyProbeLimit above the largest
    table means all tables are small enough to probe at every depth (Stockfish)."""
    if probe_limit > max_pieces:
        return max_pieces, 0
    return probe_limit, probe_depth


def wdl_to_score(wdl: int, ply: int, rule50: bool = True) -> int:
    """Search score of a probed WDL at distance `ply` from the root.

    Wins are TB_WIN_SCORE - ply: above every evaluation, below every mate, and
    nearer wins score higher. With rule50 a cursed win / blessed loss is a draw
    nudged by 2 cp (Stockfish). Use it as a lower bound for wins, an upper bound
    for losses and an exact score for draws.
    """
    draw_margin = 1 if rule50 else 0
    if wdl > draw_margin:
        return TB_WIN_SCORE - ply
    if wdl < -draw_margin:
        return -TB_WIN_SCORE + ply
    return 2 * wdl * draw_margin
