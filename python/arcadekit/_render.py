"""Frames for ``render_mode="rgb_array"``, drawn with NumPy from the engines' state."""

from __future__ import annotations

import numpy as np

_SKY = np.array([112, 197, 206], np.uint8)
_PIPE = np.array([83, 150, 44], np.uint8)
_BIRD = np.array([240, 200, 40], np.uint8)
_GROUND = np.array([222, 216, 149], np.uint8)


def tetris_frame(board: np.ndarray, cell: int = 16) -> np.ndarray:
    """The field (1 = filled, top row first) as an RGB image, ``cell`` pixels a square."""
    h, w = board.shape
    frame = np.full((h * cell, w * cell, 3), 24, np.uint8)
    filled = np.kron(board.astype(bool), np.ones((cell, cell), bool))
    frame[filled] = (90, 160, 230)
    frame[::cell, :, :] = 48  # grid lines
    frame[:, ::cell, :] = 48
    return frame


def flappy_frame(core) -> np.ndarray:
    """The 288×512 screen: sky, pipes, bird and ground."""
    from . import _arcadekit as ak

    sw, sh = ak.FLAPPY_SCREEN
    bird_x, bird_w, bird_h, pipe_w, gap, ground = ak.FLAPPY_GEOMETRY
    frame = np.empty((sh, sw, 3), np.uint8)
    frame[:] = _SKY
    frame[ground:] = _GROUND
    for x, top in core.pipes_on_screen():
        x0, x1 = max(x, 0), min(x + pipe_w, sw)
        if x0 < x1:
            frame[:top, x0:x1] = _PIPE
            frame[top + gap : ground, x0:x1] = _PIPE
    y0, y1 = max(core.bird_y, 0), min(core.bird_y + bird_h, ground)
    if y0 < y1:
        frame[y0:y1, bird_x : bird_x + bird_w] = _BIRD
    return frame


_NUMBER_COLOURS = np.array(
    [
        [192, 192, 192],
        [0, 0, 255],
        [0, 128, 0],
        [255, 0, 0],
        [0, 0, 128],
        [128, 0, 0],
        [0, 128, 128],
        [0, 0, 0],
        [128, 128, 128],
    ],
    np.uint8,
)


def mines_frame(grid: np.ndarray, cell: int = 16) -> np.ndarray:
    """The revealed grid (−1 hidden, 0–8): hidden cells dark, numbers in their
    classic colours (a filled dot sized by the number)."""
    h, w = grid.shape
    frame = np.full((h * cell, w * cell, 3), 192, np.uint8)
    for y in range(h):
        for x in range(w):
            v = int(grid[y, x])
            block = frame[y * cell : (y + 1) * cell, x * cell : (x + 1) * cell]
            if v < 0:
                block[:] = 120
            elif v > 0:
                r = 2 + v * (cell // 2 - 3) // 8
                c = cell // 2
                block[c - r : c + r, c - r : c + r] = _NUMBER_COLOURS[v]
    frame[::cell, :, :] = 96
    frame[:, ::cell, :] = 96
    return frame
