"""The cell graph: the king graph (8 neighbours) on a board, with missing cells removed.

The networkx graph is the reference statement of who neighbours whom; the CP models are built
from it directly. Hot loops (the casual player on a million cells) use :class:`PaddedGrid`, a flat
layout with a border of missing cells, whose neighbour offsets are checked against the graph in
the tests.

Example:
    >>> graph = king_graph(2, 3)
    >>> sorted(graph.neighbors((0, 0)))
    [(0, 1), (1, 0), (1, 1)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx
    import numpy as np

__all__ = ["Cell", "king_graph", "box_sum", "cell_mask", "mine_numbers", "PaddedGrid"]

#: A cell as a 0-based (row, col) pair: the networkx nodes, the CP models' keys, a position's cells.
Cell = tuple[int, int]


def king_graph(rows: int, cols: int, present: np.ndarray | None = None) -> nx.Graph:
    """The king graph on a rows x cols board, nodes ``(row, col)``, minus missing cells.

    Args:
        rows: Board height.
        cols: Board width.
        present: Optional boolean array; cells where it is False are left out.

    Returns:
        An undirected graph whose edges join cells that touch by side or corner.

    Notes:
        The same graph as ``nx.strong_product(nx.path_graph(rows), nx.path_graph(cols))`` (a test
        checks it), built edge by edge: networkx's product merges attribute dicts per edge and
        took most of a second on a 2x600 board. O(rows * cols) nodes and edges.
    """
    import networkx as nx  # here, not at the top: the casual engine needs only PaddedGrid

    def exists(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and (present is None or bool(present[r, c]))

    graph = nx.Graph()
    nodes = [(r, c) for r in range(rows) for c in range(cols) if exists(r, c)]
    graph.add_nodes_from(nodes)
    # each edge once: towards the right, and to the three cells below
    graph.add_edges_from(
        ((r, c), (r + dr, c + dc))
        for r, c in nodes
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1))
        if exists(r + dr, c + dc)
    )
    return graph


def box_sum(cells: np.ndarray) -> np.ndarray:
    """Sum over each cell's closed neighbourhood (3x3), zero outside the board, as uint8.

    Two separable passes of three shifted adds: on small boards several times faster than a
    general 2-D correlation, which matters when the judge runs on millions of boards.
    """
    import numpy as np

    rows, cols = cells.shape
    padded = np.zeros((rows + 2, cols + 2), dtype=np.uint8)
    padded[1:-1, 1:-1] = cells
    across = padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:]
    return across[:-2] + across[1:-1] + across[2:]


def cell_mask(cells: Iterable[Cell], shape: tuple[int, int]) -> np.ndarray:
    """A boolean array of `shape`, True at `cells`.

    Example:
        >>> cell_mask([(0, 1), (1, 2)], (2, 3)).astype(int).tolist()
        [[0, 1, 0], [0, 0, 1]]
    """
    import numpy as np

    mask = np.zeros(shape, dtype=bool)
    listed = list(cells)
    if listed:
        mask[tuple(np.array(listed).T)] = True
    return mask


def mine_numbers(mines: np.ndarray) -> np.ndarray:
    """Each cell's count of mined neighbours (the number a cleared cell shows), as uint8.

    Args:
        mines: Boolean array of mines (missing cells must be False: they are nobody's mine).
    """
    cells = mines.astype("uint8")
    return box_sum(cells) - cells


@dataclass(frozen=True)
class PaddedGrid:
    """A board laid out flat with a one-cell border, for loops that must not touch dicts.

    Cell (r, c) has index ``(r + 1) * stride + (c + 1)``; its neighbours are ``index + offset``
    for the eight offsets, and border or missing cells are marked absent, so no bounds checks
    are needed in the hot loop.

    Attributes:
        rows: Board height.
        cols: Board width.
        stride: Width of a padded row (cols + 2).
        offsets: The eight neighbour offsets.
    """

    rows: int
    cols: int

    @property
    def stride(self) -> int:
        """Width of a padded row."""
        return self.cols + 2

    @property
    def size(self) -> int:
        """Length of the flat arrays."""
        return (self.rows + 2) * (self.cols + 2)

    @property
    def offsets(self) -> tuple[int, ...]:
        """Index differences to the eight neighbours."""
        s = self.stride
        return (-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1)

    def index(self, row: int, col: int) -> int:
        """Flat index of cell (row, col)."""
        return (row + 1) * self.stride + col + 1

    def cell(self, index: int) -> Cell:
        """(row, col) of a flat index."""
        row, col = divmod(index, self.stride)
        return row - 1, col - 1

    def inner(self, flat: np.ndarray) -> np.ndarray:
        """The rows x cols view of a flat padded array (its border left out)."""
        return flat.reshape(self.rows + 2, self.cols + 2)[1:-1, 1:-1]

    def cells(self, indices: np.ndarray) -> list[Cell]:
        """The (row, col) of each flat index (a numpy array of them), in order."""
        rows, cols = divmod(indices, self.stride)
        return list(zip((rows - 1).tolist(), (cols - 1).tolist(), strict=True))

    def pad(self, values: np.ndarray, fill: int = 0) -> np.ndarray:
        """A flat copy of a rows x cols array with a border of `fill`."""
        import numpy as np

        padded = np.full((self.rows + 2, self.cols + 2), fill, dtype=values.dtype)
        padded[1:-1, 1:-1] = values
        return padded.ravel()
