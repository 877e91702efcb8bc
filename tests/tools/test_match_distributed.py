"""A match split into shards (one per machine) and scored again from the PGN files."""
import pytest

from conftest import require_engine, shared_data
from engine.__main__ import main
from engine.tools.match.rescore import RescoreError, tally_from_pgn


def game(round_, white, black, result, opening="book.pgn #1"):
    return (f'[Event "t"]\n[Round "{round_}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n[Opening "{opening}"]\n\n{result}\n\n')


def test_shards_add_up_to_the_whole_match(tmp_path, capsys):
    # Fixed node counts and one thread make Stockfish deterministic, so the
    # three shards must reproduce the unsharded match game for game.
    engine = require_engine("stockfish")
    book = shared_data("openings", "8moves_v3.pgn")
    common = ["match", "--engine", f"cmd={engine}", "name=a", "nodes=200", "--engine", f"cmd={engine}",
              "name=b", "nodes=400", "--each", "option.Threads=1", "--games", "10",
              "--openings", f"file={book}", "order=random", "--seed", "5", "--no-progress"]
    assert main([*common, "--pgnout", str(tmp_path / "all.pgn")]) == 0
    for k in (1, 2, 3):
        assert main([*common, "--shard", f"{k}/3", "--pgnout", str(tmp_path / f"part{k}.pgn")]) == 0
    capsys.readouterr()
    whole = tally_from_pgn([str(tmp_path / "all.pgn")])
    parts = tally_from_pgn([str(tmp_path / f"part{k}.pgn") for k in (1, 2, 3)])
    assert whole.games == parts.games == 10
    assert (whole.wins, whole.draws, whole.losses) == (parts.wins, parts.draws, parts.losses)
    assert whole.pentanomial == parts.pentanomial
    rounds = (tmp_path / "part2.pgn").read_text()
    assert '[Round "2.1"]' in rounds and '[Round "5.2"]' in rounds and '[Round "1.1"]' not in rounds

    assert main(["match", "--rescore", *(str(tmp_path / f"part{k}.pgn") for k in (1, 2, 3)),
                 "--sprt", "elo0=0", "elo1=5"]) == 0
    out = capsys.readouterr().out
    assert "Results of a vs b" in out and "Games: 10," in out and "LLR" in out


def test_rescore_pairs_by_round_and_counts_for_first(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(game("1.1", "x", "y", "1-0") + game("1.2", "y", "x", "1-0")
                    + game("2.1", "x", "y", "1/2-1/2") + game("2.2", "y", "x", "*"))
    tally = tally_from_pgn([str(path)], first="y")
    assert (tally.wins, tally.draws, tally.losses) == (1, 1, 1)
    assert tally.pentanomial == [0, 0, 1, 0, 0]


def test_rescore_adds_a_run_with_another_seed(tmp_path):
    # Both runs number their pairs from 1; their openings tell the pairs apart.
    first, second = tmp_path / "seed1.pgn", tmp_path / "seed2.pgn"
    first.write_text(game("1.1", "x", "y", "1-0", "b #7") + game("1.2", "y", "x", "0-1", "b #7"))
    second.write_text(game("1.1", "x", "y", "0-1", "b #9") + game("1.2", "y", "x", "1/2-1/2", "b #9"))
    tally = tally_from_pgn([str(first), str(second)], first="x")
    assert (tally.wins, tally.draws, tally.losses) == (2, 1, 1)
    assert tally.pentanomial == [0, 1, 0, 0, 1]
    with pytest.raises(RescoreError, match="given twice"):
        tally_from_pgn([str(first), str(first)])


@pytest.mark.parametrize("text, message", [
    (game("1.1", "x", "y", "1-0") * 3, "given twice"),
    (game("1.1", "x", "y", "1-0") + game("1.2", "x", "z", "1-0"), "not between"),
    (game("?", "x", "y", "1-0"), "not one game of a pair"),
    (game("1.1", "x", "y", "*"), "no finished games"),
])
def test_rescore_refuses_what_is_not_one_match(tmp_path, text, message):
    path = tmp_path / "games.pgn"
    path.write_text(text)
    with pytest.raises(RescoreError, match=message):
        tally_from_pgn([str(path)])


def test_rescore_cli_errors(tmp_path, capsys):
    assert main(["match", "--rescore", str(tmp_path / "missing.pgn")]) == 2
    assert "cannot read" in capsys.readouterr().err
    path = tmp_path / "g.pgn"
    path.write_text(game("1.1", "x", "y", "1-0"))
    assert main(["match", "--rescore", str(path), "--first", "nobody"]) == 2
    assert main(["match", "--rescore", str(path), "--engine", "cmd=x"]) == 2
    assert main(["match", "--engine", "cmd=a", "--engine", "cmd=b", "--each", "depth=1", "--shard", "3/2"]) == 2
    assert "--shard" in capsys.readouterr().err


def _earlier_games(path, pentanomial, first="a", second="b"):
    """A PGN whose pairs make `pentanomial` for `first`."""
    results = {0: ("0-1", "1-0"), 1: ("0-1", "1/2-1/2"), 2: ("1-0", "1-0"), 3: ("1-0", "1/2-1/2"), 4: ("1-0", "0-1")}
    text, pair = "", 0
    for bucket, count in enumerate(pentanomial):
        for _ in range(count):
            pair += 1
            one, two = results[bucket]   # first plays White in game 1, Black in game 2
            text += game(f"{pair}.1", first, second, one, f"old #{pair}")
            text += game(f"{pair}.2", second, first, two, f"old #{pair}")
    path.write_text(text)


def test_continue_counts_earlier_games_and_stops_when_all_decide(tmp_path, capsys):
    engine = require_engine("stockfish")
    earlier, new = tmp_path / "earlier.pgn", tmp_path / "new.pgn"
    _earlier_games(earlier, [0, 1, 4, 1, 15])            # LLR 2.80 of 2.94 for elo1=50
    args = ["match", "--engine", f"cmd={engine}", "name=a", "nodes=20000", "--engine", f"cmd={engine}",
            "name=b", "depth=1", "--each", "option.Threads=1", "--games", "40", "--seed", "3",
            "--openings", f"file={shared_data('openings', '8moves_v3.pgn')}", "order=random",
            "--sprt", "elo0=0", "elo1=50", "--no-progress", "--pgnout", str(new)]
    assert main([*args, "--continue", str(earlier)]) == 0
    out = capsys.readouterr().out
    played = tally_from_pgn([str(new)], "a")
    assert 2 <= played.games < 40 and "stopped by SPRT" in out and "H1 accepted" in out
    assert f"Games: {42 + played.games}," in out
    both = tally_from_pgn([str(earlier), str(new)], "a")
    assert f"Games: {both.games}, Wins: {both.wins}, Draws: {both.draws}, Losses: {both.losses}" in out

    # decided already: nothing is played
    assert main([*args, "--continue", str(earlier), str(new)]) == 1
    assert "already decided" in capsys.readouterr().err
    # other engines' games do not continue this test
    other = tmp_path / "other.pgn"
    _earlier_games(other, [1, 1, 1, 1, 1], first="c", second="d")
    assert main([*args, "--continue", str(other)]) == 1
    assert "--continue" in capsys.readouterr().err
