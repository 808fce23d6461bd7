"""A progress bar across the cluster: tqdm when installed, else one
rewritten line on standard error."""

from __future__ import annotations

import sys
import time


class Bar:
    """Counts finished games (or evaluations) of ``total``; hidden when
    ``show`` is false."""

    def __init__(self, total: int, unit: str, show: bool = True, done: int = 0):
        self.total, self.unit, self.done = total, unit, done
        self._tqdm = None
        self._show = show
        self._last = 0.0
        self._start = time.monotonic()
        if not show:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            self._line()
        else:
            self._tqdm = tqdm(total=total, initial=done, unit=unit, unit_scale=True, file=sys.stderr)

    def update(self, n: int) -> None:
        self.done += n
        if self._tqdm is not None:
            self._tqdm.update(n)
        elif self._show and (time.monotonic() - self._last > 0.5 or self.done >= self.total):
            self._line()

    def _line(self) -> None:
        self._last = time.monotonic()
        pct = 100.0 * self.done / max(self.total, 1)
        sys.stderr.write(f"\r{self.done}/{self.total} {self.unit} ({pct:.0f}%)")
        sys.stderr.flush()

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif self._show:
            sys.stderr.write("\n")
            sys.stderr.flush()
