"""Text files opened through the compression their name ends with.

The match PGNs and tuning states kept in benchmarks/results/ are stored
xz-compressed (`.pgn.xz`, `.json.xz`): a PGN shrinks to about a tenth, and
the tools read and write them as they are, with the standard library's
lzma and gzip modules, so no command has to unpack a file first.
"""
import gzip
import lzma
from typing import IO

# What reading a damaged compressed file can raise, besides a plain OSError:
# a truncated stream ends in EOFError, a corrupt xz one in LZMAError (gzip's
# BadGzipFile is an OSError).
READ_ERRORS = (OSError, EOFError, lzma.LZMAError, UnicodeDecodeError)


def open_text(path: str, mode: str = "r", encoding: str = "utf-8") -> IO[str]:
    """`open(path, mode, encoding=...)`, through gzip for a name ending in
    .gz and through xz for one ending in .xz; mode is "r", "w" or "a"."""
    if path.endswith(".gz"):
        return gzip.open(path, mode + "t", encoding=encoding)
    if path.endswith(".xz"):
        return lzma.open(path, mode + "t", encoding=encoding)
    return open(path, mode, encoding=encoding)
