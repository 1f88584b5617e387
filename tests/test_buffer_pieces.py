"""The replay's buffer pieces (sim/collectives/buffer_pieces.py): locating a round's ranges by the
equal-length guess gives the pieces a binary search gives, and writes keep the later time."""
import numpy as np
import pytest

from sim.collectives.buffer_pieces import Pieces
from sim.collectives.schedule import even_bounds


def _by_search(bounds, start):
    return np.searchsorted(bounds, start)


@pytest.mark.parametrize("length, pieces", [(2**20, 1024), (1_000_003, 999), (70, 70), (5000, 64)])
def test_located_pieces_are_the_binary_searchs(length, pieces):
    cuts = even_bounds(0, length, pieces)
    p = Pieces(4, length)
    p.locate(cuts[:-1], cuts[1:])                      # cut the buffer at every boundary
    rng = np.random.default_rng(0)
    k = rng.integers(0, pieces, 4000)
    lo, hi = p.locate(cuts[k], cuts[k + 1])
    assert hi is None
    assert (lo == _by_search(p.bounds, cuts[k])).all() and (lo == k).all()


def test_uneven_pieces_fall_back_to_the_search():
    """Pieces of very different lengths: the guess misses, the search still finds them."""
    cuts = np.unique(np.concatenate([np.arange(0, 100), np.arange(100, 10**6, 9973), [10**6]]))
    p = Pieces(2, 10**6)
    p.locate(cuts[:-1], cuts[1:])
    k = np.arange(cuts.size - 1)[::-1]
    lo, hi = p.locate(cuts[k], cuts[k + 1])
    assert hi is None and (lo == k).all()


def test_two_writes_to_one_piece_keep_the_later():
    p = Pieces(2, 100)
    p.locate(np.array([0, 50]), np.array([50, 100]))
    lo = np.array([1, 1, 0])
    p.write(np.array([0, 0, 1]), lo, None, np.array([3.0, 2.0, 1.0]))
    p.write(np.array([0]), np.array([1]), None, np.array([2.5]))       # earlier: kept at 3
    assert p.ready.tolist() == [[0.0, 3.0], [1.0, 0.0]]
