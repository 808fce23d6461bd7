"""Connecting to a Ray cluster, or starting one on this machine."""

from __future__ import annotations

import logging
import socket
from typing import Optional

#: Seconds to wait for a cluster's head to answer before giving up (Ray
#: itself keeps retrying an unreachable address for minutes).
REACH_TIMEOUT = 5.0


class ClusterError(RuntimeError):
    """The cluster could not be reached or started (a one-line message)."""


def connect(address: Optional[str] = None, num_cpus: Optional[int] = None) -> int:
    """Connects to the Ray cluster at ``address`` (``"auto"``, ``"HOST:PORT"``
    or ``"ray://HOST:10001"``), or starts a local one with ``num_cpus`` CPUs
    when ``address`` is None. Reuses a connection already made. Returns the
    cluster's CPU count; raises :class:`ClusterError` with one line when the
    address is wrong or nothing listens there."""
    import ray

    if not ray.is_initialized():
        if address is not None and num_cpus is not None:
            raise ClusterError("num_cpus applies to a local cluster only; a cluster's nodes set their own (ray start --num-cpus)")
        kwargs = dict(address=address, num_cpus=num_cpus, logging_level=logging.WARNING,
                      include_dashboard=False, log_to_driver=False)
        if address is not None:
            del kwargs["num_cpus"], kwargs["include_dashboard"]
        if address not in (None, "auto", "local"):
            _check_reachable(address)
        try:
            ray.init(**kwargs)
        except Exception as e:  # Ray raises ConnectionError, ValueError, RuntimeError...
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ClusterError(
                f"cannot connect to a Ray cluster at {address!r}: {first} "
                "(start one with `ray start --head`, then pass its address, or omit the address for a local cluster)"
            ) from None
    return int(ray.cluster_resources().get("CPU", 0))


def _check_reachable(address: str) -> None:
    """Fails fast, in one line, when nothing listens at ``address``."""
    hostport = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = hostport.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterError(
            f"bad cluster address {address!r}: expected HOST:PORT (the `ray start --head` node and its GCS port, "
            "usually 6379), ray://HOST:10001, or auto"
        )
    try:
        with socket.create_connection((host, int(port)), timeout=REACH_TIMEOUT):
            pass
    except OSError as e:
        raise ClusterError(
            f"cannot reach a Ray cluster at {address!r}: {e.strerror or e} "
            "(is `ray start --head` running there, and is the port open?)"
        ) from None
