"""Frames for ``render_mode="rgb_array"``, drawn with NumPy from the engines' state."""

from __future__ import annotations

from typing import Optional

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


def flappy_frame(bird_y: int, pipes) -> np.ndarray:
    """The 288×512 screen: sky, pipes (``(left x, gap top y)`` pairs), bird
    (its top edge at ``bird_y``) and ground."""
    from . import _arcadekit as ak

    sw, sh = ak.FLAPPY_SCREEN
    bird_x, bird_w, bird_h, pipe_w, gap, ground = ak.FLAPPY_GEOMETRY
    frame = np.empty((sh, sw, 3), np.uint8)
    frame[:] = _SKY
    frame[ground:] = _GROUND
    for x, top in pipes:
        x0, x1 = max(x, 0), min(x + pipe_w, sw)
        if x0 < x1:
            frame[:top, x0:x1] = _PIPE
            frame[top + gap : ground, x0:x1] = _PIPE
    y0, y1 = max(bird_y, 0), min(bird_y + bird_h, ground)
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


# The longest side of a Minesweeper frame: large boards get smaller cells
# (a 1000×1000 board at 16 pixels a cell would be a 768 MB frame).
_MINES_FRAME_SIDE = 2048


def _mines_cells(cell: int) -> np.ndarray:
    """The 10 cell pictures, ``(10, cell, cell, 3)``: 0–8 revealed (a dot
    sized by the number, in its classic colour), 9 hidden."""
    pictures = np.full((10, cell, cell, 3), 192, np.uint8)
    pictures[9] = 120
    c = cell // 2
    for v in range(1, 9):
        r = max(1, min(c, 2 + v * (cell // 2 - 3) // 8))
        pictures[v, c - r : c + r, c - r : c + r] = _NUMBER_COLOURS[v]
    return pictures


def mines_frame(grid: np.ndarray, cell: Optional[int] = None) -> np.ndarray:
    """The revealed grid (−1 hidden, 0–8): hidden cells dark, numbers in their
    classic colours (a filled dot sized by the number). ``cell`` pixels a
    square: 16, or fewer (down to 1) so the frame fits 2048 pixels a side."""
    h, w = grid.shape
    if cell is None:
        cell = max(1, min(16, _MINES_FRAME_SIDE // max(h, w)))
    index = np.where(grid < 0, 9, np.clip(grid, 0, 8)).astype(np.intp)
    frame = _mines_cells(cell)[index].transpose(0, 2, 1, 3, 4).reshape(h * cell, w * cell, 3)
    if cell >= 6:  # grid lines, where they leave room for the cells
        frame[::cell, :, :] = 96
        frame[:, ::cell, :] = 96
    return frame


# The battle's players, as the web arena draws them: seat 0 (A) blue, seat 1 (B) red.
_PLAYER_COLOURS = np.array([[0x15, 0x65, 0xC0], [0xC6, 0x28, 0x28]], np.uint8)


def battle_frame(grid: np.ndarray) -> np.ndarray:
    """A battle board as seat 0 sees it (−2 its captured mines, −3 the
    other's): a Minesweeper frame whose captured mines fill with their
    player's colour."""
    h, w = grid.shape
    frame = mines_frame(np.where(grid < -1, 0, grid))
    cell = frame.shape[0] // h
    for seat, code in enumerate((-2, -3)):
        mine = np.repeat(np.repeat(grid == code, cell, axis=0), cell, axis=1)
        frame[mine] = _PLAYER_COLOURS[seat]
    return frame


_TILE_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _tile_symbol(kind: int) -> str:
    return _TILE_SYMBOLS[kind - 1] if 1 <= kind <= len(_TILE_SYMBOLS) else "#"


def tiles_text(geometry: np.ndarray, kind: np.ndarray, covered: np.ndarray, tray: np.ndarray, status: str) -> str:
    """A top view of the board, half a tile per character: each tile still
    on the board drawn bottom layer first with its type's letter (``.`` when
    something covers it), then the tray and the status."""
    unit = max(1, int(geometry[:, 3:].min()) // 2)
    x0, y0 = geometry[:, 1].min(), geometry[:, 2].min()
    cols = int((geometry[:, 1] + geometry[:, 3]).max() - x0) // unit
    rows = int((geometry[:, 2] + geometry[:, 4]).max() - y0) // unit
    grid = [[" "] * cols for _ in range(rows)]
    for i in np.argsort(geometry[:, 0], kind="stable"):
        if kind[i] == 0:
            continue
        _, x, y, w, h = (int(v) for v in geometry[i])
        c = _tile_symbol(int(kind[i])) if covered[i] == 0 else "."
        for r in range((y - y0) // unit, (y - y0 + h) // unit):
            for q in range((x - x0) // unit, (x - x0 + w) // unit):
                grid[r][q] = c
    tray_text = " ".join(_tile_symbol(int(k)) for k in tray if k) or "(empty)"
    lines = ["".join(row).rstrip() for row in grid]
    return "\n".join(lines + [f"tray: {tray_text}", f"status: {status}"]) + "\n"


def _kind_colour(kind: int) -> np.ndarray:
    """A distinct colour per type (golden-angle hues)."""
    import colorsys

    r, g, b = colorsys.hsv_to_rgb((kind * 0.618034) % 1.0, 0.65, 0.95)
    return np.array([r * 255, g * 255, b * 255], np.uint8)


def tiles_frame(geometry: np.ndarray, kind: np.ndarray, covered: np.ndarray, tray: np.ndarray, scale: int = 4) -> np.ndarray:
    """The board seen from above (tiles bottom layer first, covered ones
    darkened) above a row for the tray."""
    x0, y0 = geometry[:, 1].min(), geometry[:, 2].min()
    width = int((geometry[:, 1] + geometry[:, 3]).max() - x0) * scale
    height = int((geometry[:, 2] + geometry[:, 4]).max() - y0) * scale
    slot = int(geometry[:, 3].max()) * scale
    frame = np.full((height + slot + 8, max(width, slot * len(tray)), 3), 40, np.uint8)
    for i in np.argsort(geometry[:, 0], kind="stable"):
        if kind[i] == 0:
            continue
        _, x, y, w, h = (int(v) for v in geometry[i])
        px, py = (x - x0) * scale, (y - y0) * scale
        colour = _kind_colour(int(kind[i]))
        if covered[i]:
            colour = colour // 3
        frame[py : py + h * scale, px : px + w * scale] = 20
        frame[py + 1 : py + h * scale - 1, px + 1 : px + w * scale - 1] = colour
    top = height + 8
    for s, k in enumerate(tray):
        box = frame[top : top + slot, s * slot : (s + 1) * slot]
        box[:] = 70
        if k:
            box[2:-2, 2:-2] = _kind_colour(int(k))
    return frame


def jumpin_frame(planes: np.ndarray, cell: int = 32) -> np.ndarray:
    """The 5×5 board: grass, then holes, mushrooms, foxes and rabbits as
    squares in their colours."""
    frame = np.full((5 * cell, 5 * cell, 3), (96, 168, 72), np.uint8)
    colours = [
        (2, (60, 40, 20), cell // 2 - 2),  # holes
        (1, (200, 60, 50), cell // 2 - 4),  # mushrooms
        (3, (230, 120, 30), cell // 2 - 2),  # horizontal foxes
        (4, (230, 120, 30), cell // 2 - 2),  # vertical foxes
        (0, (245, 245, 245), cell // 4),  # rabbits
    ]
    for plane, colour, r in colours:
        for y, x in zip(*np.nonzero(planes[plane])):
            c = (y * cell + cell // 2, x * cell + cell // 2)
            frame[c[0] - r : c[0] + r, c[1] - r : c[1] + r] = colour
    frame[::cell, :, :] = 60
    frame[:, ::cell, :] = 60
    return frame
