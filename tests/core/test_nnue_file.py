"""The core's own reading of network files: every malformed file is refused
with a message that names the problem, and the network already loaded stays."""
import struct
import zlib

import chess
import pytest

from engine import _core
from engine._core import Position
from engine.tools.nnue import network_file as nf
from nnue_nets import load, no_network  # noqa: F401


def with_crc(body):
    return body + struct.pack("<I", zlib.crc32(body))


def good_bytes():
    return nf.to_bytes(nf.random_network(16, nf.SCRELU, seed=31))


def bucketed_bytes():
    return nf.to_bytes(nf.random_network(16, nf.SCRELU, seed=34, buckets=4))


def king_bytes():
    return nf.to_bytes(nf.random_network(16, nf.SCRELU, seed=36, buckets=2, king_buckets=4))


def patched(offset, fmt, value, make=good_bytes):
    data = bytearray(make()[:-4])
    struct.pack_into(fmt, data, offset, value)
    return with_crc(bytes(data))


BAD_FILES = {
    "truncated header": (lambda: good_bytes()[:30], "truncated"),
    "truncated body": (lambda: good_bytes()[:-100], "bytes, a network with 16 neurons and 1 output bucket"),
    "trailing bytes": (lambda: good_bytes() + b"\0", "bytes, a network with 16 neurons and 1 output bucket"),
    "wrong magic": (lambda: patched(0, "8s", b"NOTANNET"), "not a Vireo network"),
    "wrong version": (lambda: patched(8, "<I", 4), "network version 4"),
    "version 2 has no king buckets": (lambda: patched(8, "<I", 2, king_bytes), "3072 inputs"),
    "king buckets but no map": (lambda: patched(8, "<I", 3, bucketed_bytes), "16 neurons, 4 output bucket"),
    "king inputs not a multiple": (lambda: patched(12, "<I", 3000, king_bytes), "3000 inputs"),
    "too many king buckets": (lambda: patched(12, "<I", 768 * 33, king_bytes), "per king bucket"),
    "king inputs and map disagree": (lambda: patched(12, "<I", 768 * 5, king_bytes), "5 king bucket"),
    "king map not mirrored": (lambda: patched(40 + 7, "<B", 1, king_bytes), "mirror"),
    "king map skips a bucket": (lambda: patched(40 + 7, "<B", 9, lambda: patched(40, "<B", 9, king_bytes)),
                                "every bucket"),
    "version 1 is one bucket": (lambda: patched(8, "<I", 1, bucketed_bytes), "16 neurons and 1 output bucket"),
    "zero buckets": (lambda: patched(36, "<I", 0, bucketed_bytes), "0 output buckets"),
    "too many buckets": (lambda: patched(36, "<I", 17, bucketed_bytes), "17 output buckets"),
    "mismatched buckets": (lambda: patched(36, "<I", 5, bucketed_bytes), "16 neurons and 5 output bucket"),
    "wrong inputs": (lambda: patched(12, "<I", 769), "769 inputs"),
    "bad hidden size": (lambda: patched(16, "<I", 24), "hidden size 24"),
    "mismatched hidden size": (lambda: patched(16, "<I", 32), "a network with 32 neurons and 1 output bucket"),
    "bad crc": (lambda: good_bytes()[:-5] + b"\x55" + good_bytes()[-4:], "checksum mismatch"),
    "unknown activation": (lambda: patched(20, "<I", 7), "unknown activation 7"),
    "zero QA": (lambda: patched(24, "<i", 0), "must be positive"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_file_is_refused_and_previous_network_stays(tmp_path, no_network, case):
    net = nf.random_network(32, nf.CRELU, seed=32)
    before = load(tmp_path, net, "good.nnue")
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    make, message = BAD_FILES[case]
    bad = tmp_path / "bad.nnue"
    bad.write_bytes(make())
    with pytest.raises(ValueError, match=message):
        _core.load_network(str(bad))
    assert _core.network_info() == before
    assert Position(board.fen()).nnue_eval() == nf.reference_eval(net, board)


def test_reference_reader_agrees_on_refusals(tmp_path):
    """The trainer's reader refuses the same files (the two stay one format)."""
    for make, _ in BAD_FILES.values():
        with pytest.raises(nf.NetworkFileError):
            nf.from_bytes(make())


def test_missing_file_and_no_network(tmp_path, no_network):
    with pytest.raises(ValueError, match="cannot read network file"):
        _core.load_network(str(tmp_path / "absent.nnue"))
    with pytest.raises(ValueError, match="cannot read network file"):
        _core.load_network(str(tmp_path))          # a directory
    assert _core.network_info() is None
    with pytest.raises(ValueError, match="no network is loaded"):
        Position().nnue_eval()


def test_info_describes_the_network(tmp_path, no_network):
    info = load(tmp_path, nf.random_network(256, nf.SCRELU, seed=33))
    assert info == {"path": str(tmp_path / "net.nnue"), "hidden": 256, "buckets": 1, "king_buckets": 0,
                    "activation": "screlu", "qa": 255, "qb": 64, "scale": 400, "bytes": nf.file_size(256)}
    assert _core.network_info() == info
    info = load(tmp_path, nf.random_network(64, nf.CRELU, seed=35, buckets=8), "bucketed.nnue")
    assert (info["hidden"], info["buckets"], info["bytes"]) == (64, 8, nf.file_size(64, 8))
    info = load(tmp_path, nf.random_network(32, nf.SCRELU, seed=37, buckets=8, king_buckets=16), "king.nnue")
    assert (info["king_buckets"], info["bytes"]) == (16, nf.file_size(32, 8, 16))


def test_one_bucket_is_written_in_the_first_format():
    """A one-bucket network is byte for byte a version-1 file (engines that
    predate buckets read it); more buckets make version 2, B in the header."""
    data = good_bytes()
    assert struct.unpack_from("<II", data, 8) == (1, 768) and struct.unpack_from("<I", data, 36) == (0,)
    assert len(data) == nf.file_size(16) == 40 + 2 * (768 * 16 + 16 + 32) + 4 + 4
    data = bucketed_bytes()
    assert struct.unpack_from("<I", data, 8) == (2,) and struct.unpack_from("<I", data, 36) == (4,)
    assert len(data) == nf.file_size(16, 4) == 40 + 2 * (768 * 16 + 16 + 4 * 32) + 4 * 4 + 4
    for make in (good_bytes, bucketed_bytes):
        net = nf.from_bytes(make())
        assert nf.to_bytes(net) == make()


def test_king_buckets_make_version_3_with_the_map_after_the_header():
    data = king_bytes()
    assert struct.unpack_from("<III", data, 8) == (3, 4 * 768, 16) and struct.unpack_from("<I", data, 36) == (2,)
    assert list(data[40:104]) == nf.king_bucket_layout(4).tolist()
    assert len(data) == nf.file_size(16, 2, 4) == 40 + 64 + 2 * (4 * 768 * 16 + 16 + 2 * 32) + 4 * 2 + 4
    net = nf.from_bytes(data)
    assert net.king_bucket_count == 4 and nf.to_bytes(net) == data
