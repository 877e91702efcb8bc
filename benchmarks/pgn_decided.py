"""Where match games were decided, and how each engine used an edge, read from PGNs.

    python benchmarks/pgn_decided.py GAMES.pgn[.xz] ... [--edge 150] [--margin 100]

`vireo match` (and cutechess-cli) write each engine's score after its
moves (`{ +0.84/18 0.917s }`, from the mover's side). Two engines that both
see one side ahead are rarely both wrong, so the game's *agreed edge* after
a ply is the smaller of the two engines' latest scores when they agree in
sign (White's view), and 0 when they do not.

- **Decided at**: a won game was decided at the first ply from which the
  winner's agreed edge stayed at least `--edge` cp to the end; a game that
  never had such a run (a late blunder, a loss on time) counts as decided
  at its last ply. Each engine's wins and losses are split by the stretch
  of the game (plies 17-40, 41-80, 81 on, as pgn_time_profile.py) and by
  the material left then (phase: knights and bishops 1, rooks 2, queens 4;
  24 at the start).
- **By margin**: each engine's score in the games where it was ever ahead
  by at least `--margin` cp (agreed), ever behind by as much, and the games
  where neither side ever had that edge.

docs/results.md's "Where the Elo go between nodes and the clock" compares
these splits between the equal-node and the equal-time runs.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parent))   # also when imported by path, as the tests do
from pgn_time_profile import read_games  # noqa: E402  (the same PGN reader, .xz included)

SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/\d+ ")
MATE_CP = 10_000
STRETCHES = ((1, 40), (41, 80), (81, 10_000))
PHASES = ((17, 24, "phase 17-24"), (9, 16, "phase 9-16"), (0, 8, "phase 0-8"))
PHASE_WEIGHT = {chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4}
RESULT_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def mover_score_cp(comment: str) -> int | None:
    """The score in centipawns from the mover's side, or None for a comment without one."""
    found = SCORE.match(comment or "")
    if not found:
        return None
    sign = -1 if found.group(1) == "-" else 1
    if found.group(2):
        return sign * MATE_CP
    return sign * round(float(found.group(3)) * 100)


def phase(board: chess.Board) -> int:
    return min(24, sum(weight * len(board.pieces(piece, color))
                       for piece, weight in PHASE_WEIGHT.items() for color in chess.COLORS))


@dataclass
class GameEdges:
    """The agreed edge (White's view) and the material phase after each searched ply."""
    plies: list[int] = field(default_factory=list)
    edges: list[int] = field(default_factory=list)
    phases: list[int] = field(default_factory=list)
    last_ply: int = 0
    last_phase: int = 24


def agreed_edges(game: chess.pgn.Game) -> GameEdges:
    out = GameEdges()
    latest = {}                      # engine side -> its latest score, White's view
    node, ply = game, 0
    while node.variations:
        node = node.variations[0]
        ply += 1
        board = node.board()
        out.last_ply, out.last_phase = ply, phase(board)
        score = mover_score_cp(node.comment)
        if score is None:
            continue
        mover = not board.turn
        latest[mover] = score if mover == chess.WHITE else -score
        if len(latest) < 2:
            continue
        white, black = latest[chess.WHITE], latest[chess.BLACK]
        edge = 0 if (white > 0) != (black > 0) or white == 0 or black == 0 else \
            (min(white, black) if white > 0 else max(white, black))
        out.plies.append(ply)
        out.edges.append(edge)
        out.phases.append(out.last_phase)
    return out


def decided_at(edges: GameEdges, winner: chess.Color, threshold: int) -> tuple[int, int]:
    """(ply, phase) from which the winner's agreed edge stayed >= threshold; else the last ply."""
    sign = 1 if winner == chess.WHITE else -1
    start = None
    for index in range(len(edges.edges) - 1, -1, -1):
        if sign * edges.edges[index] >= threshold:
            start = index
        else:
            break
    if start is None:
        return edges.last_ply, edges.last_phase
    return edges.plies[start], edges.phases[start]


def bucket(value: int, buckets) -> str:
    for low, high, *name in buckets:
        if low <= value <= high:
            return name[0] if name else (f"plies {low}-{high}" if high < 10_000 else f"plies {low}+")
    raise ValueError(value)


def tally(games, edge_cp: int, margin_cp: int):
    """Per engine: decided wins and losses by stretch and by phase, and scores by margin."""
    decided = defaultdict(lambda: defaultdict(lambda: [0, 0]))  # name -> bucket -> [wins, losses]
    margins = defaultdict(lambda: defaultdict(lambda: [0, 0.0]))  # name -> kind -> [games, points]
    totals = defaultdict(lambda: [0, 0.0])
    for game in games:
        result = game.headers.get("Result", "*")
        if result not in RESULT_POINTS:
            continue
        names = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
        edges = agreed_edges(game)
        for color, name in names.items():
            points = RESULT_POINTS[result] if color == chess.WHITE else 1.0 - RESULT_POINTS[result]
            totals[name][0] += 1
            totals[name][1] += points
            sign = 1 if color == chess.WHITE else -1
            best = max((sign * e for e in edges.edges), default=0)
            worst = min((sign * e for e in edges.edges), default=0)
            kinds = [kind for kind, hit in (("ahead", best >= margin_cp), ("behind", worst <= -margin_cp)) if hit]
            for kind in kinds or ["level throughout"]:
                margins[name][kind][0] += 1
                margins[name][kind][1] += points
        if result == "1/2-1/2":
            continue
        winner = chess.WHITE if result == "1-0" else chess.BLACK
        ply, material = decided_at(edges, winner, edge_cp)
        for key in (bucket(ply, STRETCHES), bucket(material, PHASES)):
            decided[names[winner]][key][0] += 1
            decided[names[not winner]][key][1] += 1
    return decided, margins, totals


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgns", nargs="+")
    parser.add_argument("--edge", type=int, default=150, help="agreed edge (cp) that decides a game")
    parser.add_argument("--margin", type=int, default=100, help="agreed edge (cp) counted as ahead or behind")
    args = parser.parse_args(argv)
    decided, margins, totals = tally(read_games(args.pgns), args.edge, args.margin)
    for name in sorted(totals):
        count, points = totals[name]
        print(f"{name}: {count} games, score {points / count:.1%}")
        print(f"  decided (edge {args.edge} cp)   wins  losses  net")
        for key in [bucket(low, STRETCHES) for low, _ in STRETCHES] + [p[2] for p in PHASES]:
            wins, losses = decided[name][key]
            print(f"    {key:<22} {wins:5d} {losses:7d} {wins - losses:+5d}")
        print(f"  by margin ({args.margin} cp)     games  score")
        for kind in ("ahead", "behind", "level throughout"):
            games, score = margins[name][kind]
            shown = f"{score / games:.1%}" if games else "-"
            print(f"    {kind:<22} {games:5d}  {shown:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
