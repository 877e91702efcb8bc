"""benchmarks/pgn_same_schedule.py: two runs of one schedule compared game by
game, on PGNs written by hand."""
import importlib.util

from conftest import REPO

SPEC = importlib.util.spec_from_file_location("pgn_same_schedule", REPO / "benchmarks" / "pgn_same_schedule.py")
pgn_same_schedule = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(pgn_same_schedule)


def pgn(path, name, results):
    """Games 1.1, 1.2, ... with `name` White in the first of each pair, as `vireo match` schedules them."""
    games = []
    for i, result in enumerate(results):
        white, black = (name, "SF") if i % 2 == 0 else ("SF", name)
        games.append(f'[Round "{i // 2 + 1}.{i % 2 + 1}"]\n[White "{white}"]\n[Black "{black}"]\n'
                     f'[Result "{result}"]\n\n1. e4 e5 {result}\n')
    path.write_text("\n".join(games))
    return str(path)


def test_counts_alike_games_and_points_each_way(tmp_path, capsys):
    new = pgn(tmp_path / "new.pgn", "New", ["1-0", "1-0", "1/2-1/2", "0-1"])
    old = pgn(tmp_path / "old.pgn", "Old", ["1-0", "1/2-1/2", "1-0", "0-1"])
    # by game, New against Old: 1 vs 1 alike; 0 vs 0.5 gives back 0.5; 0.5 vs 1 gives back 0.5; 1 vs 1 alike
    assert pgn_same_schedule.compare(pgn_same_schedule.scores(new, "New"),
                                     pgn_same_schedule.scores(old, "Old")) == (4, 2, 0, 1.0)
    pgn_same_schedule.main([old, new, "--first", "Old", "--other", "New"])
    assert "4 games in both runs, 2 ended alike; in the other 2 Old gained 1 points and gave back 0" in capsys.readouterr().out
