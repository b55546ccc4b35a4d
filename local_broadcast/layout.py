"""How the kernel copies: a broadcast output as a short list of long contiguous copies. Only moves bytes.

Output and data axes are first collapsed: length-1 output axes dropped, adjacent axes of the same kind
merged, where an axis is *broadcast* (B: the data has length 1 there) or *copied* (C). Kinds then alternate:
scalar fill is [B n], outer-axis broadcast [B n, C m], inner-axis [C n, B m], NCHW bias [B N, C C, B HW].

numpy's copyto reaches the write-bandwidth limit when each of its innermost runs (one memmove, or one fill
of a value) is long, and pays a fixed cost per run. A tile copied over and over is fastest when it is small
(2 KiB: about 0.93 of the fill rate to memory, a 16 KiB one about 0.8) and when its source address is not
equal to its destinations' modulo 4 KiB: such a move stalls on false store-to-load dependencies (4K
aliasing), and copying a tile from the start of the output to the rows after it ran at half speed. So a
repeated tile is a multiple of PIECE bytes, copied from scratch that kernel.py places PIECE / 2 bytes from
the tile's destinations modulo PIECE. In short:

* long fills of one value ([C n, B m], NCHW bias) and memmoves of moderate runs are one np.copyto;
* behind a leading broadcast axis, a tile of whole blocks is written once, copied to scratch and copied
  from there over the rest of the axis;
* other runs behind a copied axis ([C a, B n, C m]) get a scratch source tiled along the run;
* blocks large enough to pay for a Python loop are built one by one, straight from the data.

The result is a Recipe, computed once per shape (cached) and replayed by kernel.py on the actual arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import gcd, prod
from typing import NamedTuple

# Buffers a step reads or writes: the output, the collapsed data, and a scratch array (Recipe.scratch).
OUT, SRC, TMP = 0, 1, 2
# A repeated tile is a multiple of this many bytes; shorter runs are made this long.
PIECE = 2 << 10
# A first tile of up to this size is written straight from the data in one copy.
FIRST_TILE = 16 << 10
# A block of this size is built anew from the data for every copy, rather than copied from scratch.
HOT = 1 << 20
# A Python-level loop over blocks this large costs about 1% of their copy.
LOOP = 256 << 10
# Runs numpy copies well straight from the data: fills of one value from FILL_RUN bytes, and memmoves of
# DIRECT_RUNS bytes (shorter ones pay numpy's cost per run; longer ones often alias, as their destinations
# fall on few offsets modulo 4 KiB: all of them from 4 KiB, and then at a quarter of the speed).
FILL_RUN = 1 << 10
DIRECT_RUNS = (128, 1 << 10)


class View(NamedTuple):
    """buffer[lo:hi].reshape(shape), then [..., columns[0]:columns[1]] when columns is set."""

    buffer: int
    lo: int
    hi: int
    shape: tuple[int, ...]
    columns: tuple[int, int] | None = None


def _view(buffer: int, lo: int, shape: tuple[int, ...], columns: tuple[int, int] | None = None) -> View:
    return View(buffer, lo, lo + prod(shape), shape, columns)


class Copy(NamedTuple):
    dst: View
    src: View  # broadcast to dst's shape: its length-1 axes repeat


@dataclass(frozen=True)
class Recipe:
    src_shape: tuple[int, ...]  # the data, collapsed: the output's collapsed shape with 1 on broadcast axes
    scratch: int  # elements of scratch the steps use; TMP views are relative to a start kernel.py picks
    parts: tuple[tuple[Copy, ...], ...]  # independent step lists, one per thread; () for one plain np.copyto


@dataclass
class _Builder:
    item: int  # bytes per element
    scratch: int = 0

    @property
    def piece(self) -> int:
        """Elements per PIECE, 0 when the element size does not divide it (tiles then go without scratch)."""
        return PIECE // self.item if PIECE % self.item == 0 else 0

    def region(self, out_lo: int, shape: tuple[int, ...], src_lo: int, src: tuple[int, ...]) -> list[Copy]:
        """Steps that fill OUT[out_lo:...] (shape) from SRC[src_lo:...] (src: shape, 1 on broadcast axes)."""
        size, run = prod(shape), shape[-1] * self.item if shape else 0
        direct = [Copy(_view(OUT, out_lo, shape), _view(SRC, src_lo, src))]
        if len(shape) <= 1 or size * self.item <= PIECE:
            return direct
        if src[-1] == 1 and run >= FILL_RUN:
            return direct  # long fills of one value each: nothing is read, numpy's fill loop is at the limit
        if src[-1] != 1 and DIRECT_RUNS[0] <= run <= DIRECT_RUNS[1]:
            return direct
        if src[0] == 1:
            return self.blocks(out_lo, shape, src_lo, src)
        if src[-1] == 1:
            return direct  # short fills behind a copied axis: nothing does better than numpy's loop
        block, src_block = size // shape[0], prod(src[1:])
        if block * self.item >= LOOP:
            return [step for i in range(shape[0])
                    for step in self.region(out_lo + i * block, shape[1:], src_lo + i * src_block, src[1:])]
        return self.widen(out_lo, shape, src_lo, src) or direct

    def blocks(self, out_lo: int, shape: tuple[int, ...], src_lo: int, src: tuple[int, ...]) -> list[Copy]:
        """Leading broadcast axis: `count` copies of one block."""
        count, rest, src_rest = shape[0], shape[1:], src[1:]
        block = prod(rest)
        block_bytes = block * self.item
        if block_bytes >= HOT:
            return [step for i in range(count) for step in self.region(out_lo + i * block, rest, src_lo, src_rest)]
        # A tile is the fewest blocks that make whole pieces; copied from scratch when it is repeated.
        per_tile = PIECE // gcd(block_bytes, PIECE) if self.piece else max(1, PIECE // block_bytes)
        if per_tile > count or per_tile * block_bytes > HOT:
            per_tile = 1
        if per_tile * block_bytes <= FIRST_TILE:
            steps = [Copy(_view(OUT, out_lo, (per_tile, *rest)), _view(SRC, src_lo, (1, *src_rest)))]
        else:
            steps = self.region(out_lo, rest, src_lo, src_rest)
            if per_tile > 1:
                steps.append(Copy(_view(OUT, out_lo + block, (per_tile - 1, block)), _view(OUT, out_lo, (block,))))
        width = per_tile * block
        tiles = count // per_tile
        if tiles > 1:
            steps += self.repeat_tile(out_lo, width, tiles - 1)
        left = (count - tiles * per_tile) * block
        if left:
            steps.append(Copy(_view(OUT, out_lo + tiles * width, (left,)), _view(OUT, out_lo, (left,))))
        return steps

    def repeat_tile(self, out_lo: int, width: int, copies: int) -> list[Copy]:
        """Copy OUT[out_lo:out_lo + width] to the `copies` tiles that follow it, through scratch."""
        if not self.piece or copies < 2:
            return [Copy(_view(OUT, out_lo + width, (copies, width)), _view(OUT, out_lo, (width,)))]
        scratch = _view(TMP, self.take(width, out_lo), (width,))
        return [Copy(scratch, _view(OUT, out_lo, (width,))), Copy(_view(OUT, out_lo + width, (copies, width)), scratch)]

    def widen(self, out_lo: int, shape: tuple[int, ...], src_lo: int, src: tuple[int, ...]) -> list[Copy] | None:
        """[C a, B n, C m] with short runs m: a scratch source tiled `reps` times along the run, so that runs
        are whole pieces. None when reps does not divide n or the scratch would cost over an eighth of the
        output."""
        if len(shape) != 3 or src[1] != 1 or not self.piece:
            return None
        a, n, m = shape
        reps = PIECE // gcd(m * self.item, PIECE)
        if n % reps or 8 * a * reps * m > prod(shape):
            return None
        lo = self.take(a * reps * m, out_lo)
        rows = (a, reps * m)
        steps = [Copy(_view(TMP, lo, rows, (0, m)), _view(SRC, src_lo, (a, m)))]
        done = 1
        while done < reps:  # doubling: a few copies of ever longer runs, rather than a * reps short ones
            step = min(done, reps - done)
            steps.append(Copy(_view(TMP, lo, rows, (done * m, (done + step) * m)), _view(TMP, lo, rows, (0, step * m))))
            done += step
        return [*steps, Copy(_view(OUT, out_lo, (a, n // reps, reps * m)), _view(TMP, lo, (a, 1, reps * m)))]

    def take(self, elements: int, out_lo: int) -> int:
        """Scratch for a source of copies to OUT[out_lo:...]: placed at the same offset modulo PIECE, so the
        one shift kernel.py applies to all of scratch sets every such pair PIECE / 2 apart."""
        lo = self.scratch + (out_lo - self.scratch) % self.piece
        self.scratch = lo + elements
        return lo


@lru_cache(maxsize=1024)
def collapsed(src_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(output, data) shapes with length-1 output axes dropped and adjacent axes of the same kind merged."""
    sizes: list[int] = []
    broadcast: list[bool] = []
    for s, o in zip(src_shape, out_shape, strict=True):
        if o == 1:
            continue
        b = s == 1
        if broadcast and broadcast[-1] == b:
            sizes[-1] *= o
        else:
            sizes.append(o)
            broadcast.append(b)
    return tuple(sizes), tuple(1 if b else s for s, b in zip(sizes, broadcast, strict=True))


@lru_cache(maxsize=256)
def recipe(src_shape: tuple[int, ...], out_shape: tuple[int, ...], itemsize: int, parts: int) -> Recipe:
    """The steps that broadcast data lined up as src_shape (same rank as out_shape) into out_shape,
    split into at most `parts` independent lists of about equal output size."""
    shape, src = collapsed(src_shape, out_shape)
    builder = _Builder(itemsize)
    lists = [[step for region in part for step in builder.region(*region)] for part in _split(shape, src, parts)]
    if len(lists) == 1 and len(lists[0]) == 1 and lists[0][0].src.buffer == SRC and lists[0][0].dst.lo == 0:
        return Recipe(src, 0, ())  # one copy of all the data to all the output: np.copyto as it is
    return Recipe(src, builder.scratch, tuple(tuple(steps) for steps in lists if steps))


Region = tuple[int, tuple[int, ...], int, tuple[int, ...]]  # out_lo, shape, src_lo, src shape


def _split(shape: tuple[int, ...], src: tuple[int, ...], parts: int, out_lo: int = 0,
           src_lo: int = 0) -> list[list[Region]]:
    """The region as `parts` lists of contiguous sub-regions along its first axis. A first axis too short to
    split evenly is split block by block along the next one."""
    whole: Region = (out_lo, shape, src_lo, src)
    if parts == 1 or not shape or shape[0] < 2:
        return [[whole]]
    count, block = shape[0], prod(shape[1:])
    src_block = 0 if src[0] == 1 else prod(src[1:])
    if count % parts == 0 or count >= 8 * parts:
        bounds = [count * i // parts for i in range(parts + 1)]
        return [[(out_lo + lo * block, (hi - lo, *shape[1:]), src_lo + lo * src_block,
                  src if src[0] == 1 else (hi - lo, *src[1:]))]
                for lo, hi in zip(bounds, bounds[1:], strict=False) if hi > lo]
    if len(shape) == 1:
        return [[whole]]
    lists: list[list[Region]] = [[] for _ in range(parts)]
    for i in range(count):
        for j, part in enumerate(_split(shape[1:], src[1:], parts, out_lo + i * block, src_lo + i * src_block)):
            lists[j] += part
    return [part for part in lists if part]
