"""Finished shards as JSON lines, so an interrupted run resumes: the first
line describes the run (kind, spec, shard size), each later line is one
shard as the Rust side returned it. Lines are appended and fsynced as shards
finish; a line cut short by a kill is ignored on resume."""

from __future__ import annotations

import json
import os
from typing import Callable, Dict, List, Optional, Tuple


class StoreError(ValueError):
    """The store belongs to another run or cannot be read (one line)."""


def stored_header(path: Optional[str]) -> Optional[dict]:
    """The run header of the store at ``path``, or None when there is no
    store there or its first line is not a header (opening it says why)."""
    if path is None or not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            header = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    return header if isinstance(header, dict) else None


class ShardStore:
    """Appends finished shards to ``path`` (None: keep them in memory only).
    ``check(line)`` reads a stored shard as the run would, returning its
    ``(start, end)`` or raising ``ValueError``, so a bad line is named on
    loading rather than after the missing shards have been played."""

    def __init__(self, path: Optional[str], header: dict, check: Callable[[str], Tuple[int, int]]):
        self.path = path
        self.shards: Dict[int, str] = {}
        self._file = None
        if path is None:
            return
        try:
            if os.path.exists(path) and os.path.getsize(path) > 0:
                self._load(path, header, check)
                self._file = open(path, "a", encoding="utf-8")
            else:
                self._file = open(path, "w", encoding="utf-8")
                self._write(json.dumps(header, sort_keys=True))
        except OSError as e:
            raise StoreError(f"{path}: cannot use it as a store: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise StoreError(f"{path} is not a text file of JSON lines (a store); use another --store") from None

    def _load(self, path: str, header: dict, check) -> None:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        try:
            found = json.loads(lines[0])
        except ValueError:
            found = None
        if not isinstance(found, dict):
            raise StoreError(f"{path}: line 1 is not a run header; remove the file to start afresh")
        if found != header:
            raise StoreError(
                f"{path} holds another run ({_describe(found)}), not this one ({_describe(header)}); "
                "give the options as when it was made, or use another --store"
            )
        # The text after the last newline, if any, was cut short by a kill.
        for number, line in enumerate(lines[1:-1], start=2):
            if not line:
                continue
            try:
                start, _ = check(line)
            except ValueError as e:
                raise StoreError(f"{path}: line {number} is not a shard of this run ({e}); "
                                 "remove the file to start afresh") from None
            self.shards[start] = line
        if lines[-1]:
            with open(path, "r+b") as f:
                f.truncate(len(("\n".join(lines[:-1]) + "\n").encode("utf-8")))

    def add(self, start: int, shard: str) -> None:
        self.shards[start] = shard
        self._write(shard)

    def _write(self, line: str) -> None:
        """Appends ``line`` to the file, synced (nothing for a store in memory)."""
        f = self._file
        if f is None:
            return
        f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())

    def done(self) -> List[str]:
        return [self.shards[k] for k in sorted(self.shards)]

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def _describe(header: dict) -> str:
    version = f", arcadekit {header['version']}" if "version" in header else ""
    return f"{header.get('kind')} {header.get('spec')} in shards of {header.get('shard_size')}{version}"
