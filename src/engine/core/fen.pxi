# FEN in and out (cold code: plain Python string handling is fine here).
#
# Castling accepts KQkq (X-FEN: the outermost rook on that side of the king)
# and Shredder-FEN file letters (the rook on that file), so Chess960 needs no
# second code path. A FEN is validated completely on a scratch position before
# anything is copied into the target: an invalid FEN raises ValueError naming
# the problem and leaves the target untouched.

from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
PIECE_CHARS = " PNBRQK  pnbrqk"
FILE_NAMES = "abcdefgh"

cdef str square_name(int sq):
    return FILE_NAMES[file_of(sq)] + str(rank_of(sq) + 1)

cdef int parse_square(str s) except -2:
    if len(s) != 2 or s[0] not in FILE_NAMES or s[1] not in "12345678":
        return -1
    return FILE_NAMES.index(s[0]) + 8 * (int(s[1]) - 1)

cdef void clear_position(Pos *pos) noexcept nogil:
    cdef int i
    memset(pos, 0, sizeof(StateInfo) + <size_t>(<char *>&pos.st[0] - <char *>pos))
    pos.st[0].ep = NO_SQ
    pos.fullmove = 1
    for i in range(64):
        pos.castle_mask[i] = 15

cdef int add_castling_right(Pos *pos, int color, int rsq) except -1:
    cdef int ksq = king_sq(pos, color)
    cdef int idx = castle_index(color, 1 if rsq < ksq else 0)
    cdef int kto = castle_king_to(idx), rto = castle_rook_to(idx)
    if pos.st[0].castle & (1 << idx):
        raise ValueError("castling rights name two rooks on the same side of the %s king"
                         % ("white" if color == WHITE else "black"))
    pos.st[0].castle |= 1 << idx
    pos.castle_rook[idx] = rsq
    pos.castle_path[idx] = (BETWEEN[ksq][kto] | sq_bb(kto) | BETWEEN[rsq][rto] | sq_bb(rto)) \
        & ~(sq_bb(ksq) | sq_bb(rsq))
    pos.king_path[idx] = BETWEEN[ksq][kto] | sq_bb(kto)
    pos.castle_mask[ksq] &= ~(3 << (2 * color))
    pos.castle_mask[rsq] &= ~(1 << idx)
    return 0

cdef int parse_castling(Pos *pos, str field, bint chess960) except -1:
    cdef int color, ksq, rsq, f, step
    if field == "-":
        return 0
    if len(set(field)) != len(field):
        raise ValueError(f"castling field {field!r} repeats a letter")
    # FEN writes white's rights first (KQkq, HAha); "KkQ" is malformed, and
    # python-chess, which most GUIs' FENs pass through, refuses it too.
    if any(a.islower() and b.isupper() for a, b in zip(field, field[1:])):
        raise ValueError(f"castling field {field!r}: white's rights must come before black's")
    for ch in field:
        if ch not in "KQkqABCDEFGHabcdefgh":
            raise ValueError(f"castling field {field!r} has an invalid character {ch!r}")
        color = WHITE if ch.isupper() else BLACK
        back = 0 if color == WHITE else 7
        side_name = "white" if color == WHITE else "black"
        ksq = king_sq(pos, color)
        if rank_of(ksq) != back:
            raise ValueError(f"castling right {ch!r}: the {side_name} king is not on its back rank")
        rook = make_piece(color, ROOK)
        if ch in "KQkq":
            # X-FEN: the outermost rook on that side of the king.
            rsq = -1
            step = 1 if ch in "Kk" else -1
            f = file_of(ksq) + step
            while 0 <= f < 8:
                if pos.board[8 * back + f] == rook:
                    rsq = 8 * back + f
                f += step
            if rsq < 0:
                raise ValueError(f"castling right {ch!r} but no {side_name} rook on the "
                                 f"{'king' if step == 1 else 'queen'} side of the king")
        else:
            rsq = 8 * back + FILE_NAMES.index(ch.lower())
            if pos.board[rsq] != rook:
                raise ValueError(f"castling right {ch!r} but no {side_name} rook on {square_name(rsq)}")
        if not chess960:
            if file_of(ksq) != 4 or file_of(rsq) not in (0, 7):
                raise ValueError(f"castling right {ch!r} needs the king on the e-file and the rook "
                                 "in the corner in standard chess (use Chess960 for other set-ups)")
        add_castling_right(pos, color, rsq)
    return 0

cdef int parse_board(Pos *pos, str field) except -1:
    rows = field.split("/")
    if len(rows) != 8:
        raise ValueError(f"board field has {len(rows)} ranks, expected 8")
    for r, row in enumerate(rows):
        rank = 7 - r
        f = 0
        previous_digit = False
        for ch in row:
            if ch in "12345678":
                if previous_digit:
                    raise ValueError(f"rank {rank + 1} ({row!r}) has two digits in a row")
                f += int(ch)
                previous_digit = True
            elif ch in "PNBRQKpnbrqk":
                if f >= 8:
                    raise ValueError(f"rank {rank + 1} ({row!r}) has more than 8 squares")
                put_piece(pos, PIECE_CHARS.index(ch), 8 * rank + f)
                f += 1
                previous_digit = False
            else:
                raise ValueError(f"rank {rank + 1} ({row!r}) has an invalid character {ch!r}")
        if f != 8:
            raise ValueError(f"rank {rank + 1} ({row!r}) has {f} squares, expected 8")
    return 0

cdef int validate_material(Pos *pos) except -1:
    for color, name in ((WHITE, "white"), (BLACK, "black")):
        kings = bb_count(pieces_of(pos, color, KING))
        if kings != 1:
            raise ValueError(f"{name} has {kings} kings, expected 1")
        if bb_count(pos.by_color[color]) > 16:
            raise ValueError(f"{name} has more than 16 pieces")
    if pos.by_type[PAWN] & (RANK_1 | RANK_8):
        raise ValueError("a pawn stands on the first or last rank")
    return 0

cdef int parse_ep(Pos *pos, str field) except -1:
    """Validate the en-passant field; store it only where a pawn can capture (Polyglot rule)."""
    cdef int sq, us = pos.side, them = pos.side ^ 1
    if field == "-":
        return 0
    sq = parse_square(field)
    if sq < 0:
        raise ValueError(f"en-passant field {field!r} is not a square")
    ep_rank = 5 if us == WHITE else 2
    push = -8 if us == WHITE else 8          # from the ep square to the pawn that moved
    if rank_of(sq) != ep_rank:
        raise ValueError(f"impossible en-passant square {field}: expected rank {ep_rank + 1} "
                         f"with {'white' if us == WHITE else 'black'} to move")
    if pos.board[sq] or pos.board[sq - push] or pos.board[sq + push] != make_piece(them, PAWN):
        raise ValueError(f"impossible en-passant square {field}: no pawn can have just "
                         "passed it with two-square move")
    set_ep_if_capturable(pos, &pos.st[0], sq, us)
    return 0

cdef int parse_counter(str text, str name, int minimum) except -2:
    if not text.isdigit():
        raise ValueError(f"{name} {text!r} is not a non-negative integer")
    value = int(text)
    if value > 100000:
        raise ValueError(f"{name} {text!r} is out of range")
    return max(value, minimum)

cdef int set_fen(Pos *target, object fen, bint chess960) except -1:
    """Parse and validate fen into target; raises ValueError and keeps target on error."""
    cdef Pos *pos = <Pos *>malloc(sizeof(Pos))
    if pos == NULL:
        raise MemoryError()
    try:
        clear_position(pos)
        if not isinstance(fen, str):
            raise ValueError("FEN must be a string")
        fields = fen.split()
        if not 4 <= len(fields) <= 6:
            raise ValueError(f"FEN has {len(fields)} fields, expected 6 "
                             "(or 4 without the move counters)")
        parse_board(pos, fields[0])
        if fields[1] not in ("w", "b"):
            raise ValueError(f"side to move {fields[1]!r} is not 'w' or 'b'")
        pos.side = WHITE if fields[1] == "w" else BLACK
        validate_material(pos)
        if sq_attacked(pos, king_sq(pos, pos.side ^ 1), pos.side, pos.by_type[0]):
            raise ValueError("the side not to move is in check")
        parse_castling(pos, fields[2], chess960)
        parse_ep(pos, fields[3])
        pos.st[0].halfmove = parse_counter(fields[4], "halfmove clock", 0) if len(fields) > 4 else 0
        pos.fullmove = parse_counter(fields[5], "fullmove number", 1) if len(fields) > 5 else 1
        pos.chess960 = chess960
        pos.st[0].plies_from_null = pos.st[0].halfmove
        pos.st[0].move = MOVE_NONE
        pos.st[0].checkers = attackers_to(pos, king_sq(pos, pos.side), pos.by_type[0]) \
            & pos.by_color[pos.side ^ 1]
        compute_keys(pos)
        pos.nnue = target.nnue          # the target keeps its accumulators, all stale now
        if pos.nnue != NULL:
            nnue_invalidate(pos.nnue, 0)
        memcpy(target, pos, sizeof(StateInfo) + <size_t>(<char *>&pos.st[0] - <char *>pos))
    finally:
        free(pos)
    return 0

cdef bint has_legal_ep(Pos *pos):
    cdef MoveList ml
    cdef int i
    ml.count = 0
    if pos.st[pos.sp].ep == NO_SQ:
        return False
    gen_legal(pos, &ml, GEN_NOISY)
    for i in range(ml.count):
        if move_kind(ml.moves[i]) == KIND_EP:
            return True
    return False

cdef str castling_field(Pos *pos, bint shredder):
    """KQkq in standard chess; X-FEN (or Shredder-FEN) letters in Chess960."""
    cdef int color, idx, rsq, ksq, f
    out = []
    for color in (WHITE, BLACK):
        ksq = king_sq(pos, color)
        for idx in (castle_index(color, 0), castle_index(color, 1)):
            if not (pos.st[pos.sp].castle & (1 << idx)):
                continue
            rsq = pos.castle_rook[idx]
            ch = FILE_NAMES[file_of(rsq)]
            if not shredder:
                # K/Q unless another rook stands further out on that side.
                outer = False
                f = file_of(rsq) + (1 if rsq > ksq else -1)
                while 0 <= f < 8:
                    if pos.board[8 * rank_of(rsq) + f] == make_piece(color, ROOK):
                        outer = True
                    f += 1 if rsq > ksq else -1
                if not outer:
                    ch = "k" if rsq > ksq else "q"
            out.append(ch.upper() if color == WHITE else ch)
    return "".join(out) or "-"

cdef str get_fen(Pos *pos, bint shredder):
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for f in range(8):
            pc = pos.board[8 * rank + f]
            if pc:
                if empty:
                    row += str(empty)
                    empty = 0
                row += PIECE_CHARS[pc]
            else:
                empty += 1
        if empty:
            row += str(empty)
        rows.append(row)
    ep = square_name(pos.st[pos.sp].ep) if has_legal_ep(pos) else "-"
    return "%s %s %s %s %d %d" % ("/".join(rows), "w" if pos.side == WHITE else "b",
                                  castling_field(pos, shredder), ep,
                                  pos.st[pos.sp].halfmove, pos.fullmove)

cdef str move_to_uci(const Pos *pos, Move m, bint chess960):
    """UCI text; castling as king-takes-rook in Chess960, else king to g/c file."""
    if m == MOVE_NONE:
        return "0000"
    cdef int frm = move_from(m), to = move_to(m)
    if move_kind(m) == KIND_CASTLE and not chess960:
        to = castle_king_to(castle_index(color_of(pos.board[frm]), 1 if to < frm else 0))
    s = square_name(frm) + square_name(to)
    if is_promotion(m):
        s += "nbrq"[promo_piece(m) - KNIGHT]
    return s

cdef Move parse_uci_move(Pos *pos, str text) except? 0xFFFF:
    """The legal move that `text` names, or MOVE_NONE. Castling is accepted both
    as king-takes-rook and, outside Chess960, as the king's two-square move."""
    cdef MoveList ml
    cdef int i
    cdef int origin = -1
    # Only moves from the square the text starts with are spelled out and
    # compared: making a Python string of every legal move cost ~3 us a move,
    # 1 ms of each `position` command at 350 plies (a 1 ms answer's floor).
    # A castling move starts on the king's square in both spellings.
    if len(text) >= 2 and 'a' <= text[0] <= 'h' and '1' <= text[1] <= '8':
        origin = (ord(text[0]) - ord('a')) + 8 * (ord(text[1]) - ord('1'))
    ml.count = 0
    gen_legal(pos, &ml, GEN_ALL)
    for i in range(ml.count):
        if origin >= 0 and move_from(ml.moves[i]) != origin:
            continue
        if move_to_uci(pos, ml.moves[i], pos.chess960) == text:
            return ml.moves[i]
        if move_kind(ml.moves[i]) == KIND_CASTLE and move_to_uci(pos, ml.moves[i], True) == text:
            return ml.moves[i]
    return MOVE_NONE
