"""Finished shards as JSON lines, so an interrupted run resumes: the first
line describes the run (kind, spec, shard size), each later line is one
shard as the Rust side returned it. Lines are appended and fsynced as shards
finish; a line cut short by a kill is ignored on resume."""

from __future__ import annotations

import json
import os
from typing import Dict, List, Optional


class StoreError(ValueError):
    """The store belongs to another run or cannot be read (one line)."""


class ShardStore:
    """Appends finished shards to ``path`` (None: keep them in memory only)."""

    def __init__(self, path: Optional[str], header: dict):
        self.path = path
        self.shards: Dict[int, str] = {}
        self._file = None
        if path is None:
            return
        if os.path.exists(path) and os.path.getsize(path) > 0:
            self._load(path, header)
        else:
            self._file = open(path, "w", encoding="utf-8")
            self._write(json.dumps(header, sort_keys=True))
            return
        self._file = open(path, "a", encoding="utf-8")

    def _load(self, path: str, header: dict) -> None:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        try:
            found = json.loads(lines[0])
        except ValueError:
            raise StoreError(f"{path}: line 1 is not a run header; remove the file to start afresh") from None
        if found != header:
            raise StoreError(
                f"{path} holds another run ({_describe(found)}), not this one ({_describe(header)}); "
                "use another --store or delete it"
            )
        # The text after the last newline, if any, was cut short by a kill.
        for number, line in enumerate(lines[1:-1], start=2):
            if not line:
                continue
            try:
                shard = json.loads(line)
                start, end = int(shard["start"]), int(shard["end"])
            except (ValueError, KeyError, TypeError):
                raise StoreError(f"{path}: line {number} is not a shard; remove the file to start afresh") from None
            if shard.get("kind") != header["kind"] or end - start <= 0:
                raise StoreError(f"{path}: line {number} is not a shard of this run")
            self.shards[start] = line
        if lines[-1]:
            with open(path, "r+b") as f:
                f.truncate(len(("\n".join(lines[:-1]) + "\n").encode("utf-8")))

    def add(self, start: int, shard: str) -> None:
        self.shards[start] = shard
        if self._file is not None:
            self._write(shard)

    def _write(self, line: str) -> None:
        self._file.write(line + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def done(self) -> List[str]:
        return [self.shards[k] for k in sorted(self.shards)]

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def _describe(header: dict) -> str:
    return f"{header.get('kind')} {header.get('spec')} in shards of {header.get('shard_size')}"
