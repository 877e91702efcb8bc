"""Conversion between Marlinformat and the `FEN;cp;result` text of
../shared/data/tuning (engine/tools/nnue/convert.py), both ways, and its
errors through the command line."""
import gzip
import itertools
import subprocess
import sys

import chess
import pytest

from engine.tools.nnue.convert import ConversionError, convert, line_to_record, record_to_line
from engine.tools.nnue.marlinformat import RECORD_SIZE, decode


def vireo(*args):
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True)


def test_text_to_records_and_back(tmp_path, data_lines):
    text = tmp_path / "in.txt.gz"
    with gzip.open(text, "wt") as handle:
        handle.write("\n".join(data_lines) + "\n")
    records, back = tmp_path / "data.bin", tmp_path / "back.txt"
    assert convert(text, records) == len(data_lines)
    assert records.stat().st_size == RECORD_SIZE * len(data_lines)
    assert convert(records, back) == len(data_lines)
    for original, returned in zip(data_lines, back.read_text().splitlines()):
        fen, score, result = original.split(";")
        fen2, score2, result2 = returned.split(";")
        assert chess.Board(fen2) == chess.Board(fen) and fen2 == chess.Board(fen).fen()
        assert (int(score2), float(result2)) == (int(score), float(result))


def test_score_and_result_keep_white_point_of_view():
    line = "8/1q6/p6K/P7/3nk3/8/8/5q2 b - - 3 71;-31998;0.0"
    sample = decode(line_to_record(line))
    assert sample.board.turn == chess.BLACK and sample.score == -31998 and sample.result == 0
    assert record_to_line(line_to_record(line)) == line


@pytest.mark.parametrize("line", ["not a fen;1;1.0", "8/8/8/8/8/8/8/8 w - - 0 1;x;1.0",
                                  chess.STARTING_FEN + ";10;2.0", chess.STARTING_FEN + ";10"])
def test_bad_lines_are_refused(line):
    with pytest.raises(ConversionError):
        line_to_record(line)


def test_cli_names_the_bad_line_and_fails(tmp_path):
    text = tmp_path / "bad.txt"
    text.write_text(f"{chess.STARTING_FEN};0;0.5\nnonsense\n")
    result = vireo("datagen", "--convert", str(text), str(tmp_path / "out.bin"))
    assert result.returncode == 2 and "bad.txt:2" in result.stderr and "Traceback" not in result.stderr


def test_cli_refuses_a_file_of_partial_records(tmp_path):
    partial = tmp_path / "partial.bin"
    partial.write_bytes(bytes(RECORD_SIZE + 5))
    result = vireo("datagen", "--convert", str(partial), str(tmp_path / "out.txt"))
    assert result.returncode == 2 and "whole number" in result.stderr


def test_cli_converts(tmp_path):
    text = tmp_path / "one.txt"
    text.write_text(f"{chess.STARTING_FEN};15;1.0\n")
    result = vireo("datagen", "--convert", str(text), str(tmp_path / "one.bin"))
    assert result.returncode == 0, result.stderr
    assert decode((tmp_path / "one.bin").read_bytes()).score == 15
