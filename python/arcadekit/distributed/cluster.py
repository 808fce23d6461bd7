"""Connecting to a Ray cluster, or starting one on this machine."""

from __future__ import annotations

import contextlib
import logging
import socket
from typing import Any, Dict, Optional

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
        if num_cpus is not None and num_cpus < 1:
            raise ClusterError(f"num_cpus must be at least 1, found {num_cpus}")
        # "local" starts a cluster for this run even when this machine has
        # joined one (`ray start`), which `address=None` would attach to.
        kwargs: Dict[str, Any] = dict(address=address or "local", num_cpus=num_cpus, logging_level=logging.WARNING,
                                      include_dashboard=False, log_to_driver=False)
        if address is not None:
            del kwargs["num_cpus"], kwargs["include_dashboard"]
        if address is not None and address.startswith("ray://"):
            _check_client_installed()
        if address not in (None, "auto", "local"):
            _check_reachable(address)
        try:
            ray.init(**kwargs)
        except Exception as e:  # Ray raises ConnectionError, ValueError, RuntimeError...
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            where = f"a Ray cluster at {address!r}" if address else "a local Ray cluster"
            raise ClusterError(
                f"cannot connect to {where}: {first} "
                "(start one with `ray start --head`, then pass its address, or omit the address for a local cluster)"
            ) from None
    return int(ray.cluster_resources().get("CPU", 0))


@contextlib.contextmanager
def cancelling(pending, bar):
    """Cancels the tasks still in ``pending`` (a list or dict of object refs)
    when the block raises (Ctrl-C), and closes the progress ``bar``."""
    try:
        yield
    except BaseException:
        import ray

        for ref in list(pending):
            ray.cancel(ref)
        raise
    finally:
        bar.close()


def check_cpus(cpus: int, threads_per_task: int) -> None:
    """Refuses, in one line, tasks the cluster could never schedule (Ray
    would wait for them for ever, silently)."""
    if threads_per_task < 1:
        raise ValueError(f"threads_per_task must be at least 1, found {threads_per_task}")
    if cpus < threads_per_task:
        raise ClusterError(
            f"a task needs {threads_per_task} CPUs (threads per task) but the cluster has {cpus}: "
            "use fewer threads per task, or add nodes"
        )


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
        with socket.create_connection((host, int(port)), timeout=REACH_TIMEOUT) as conn:
            speaks = _speaks_http2(conn)
    except OSError as e:
        raise ClusterError(
            f"cannot reach a Ray cluster at {address!r}: {e.strerror or e} "
            "(is `ray start --head` running there, and is the port open?)"
        ) from None
    if not speaks:
        raise ClusterError(
            f"{address!r} answers, but not as a Ray cluster does (gRPC): is it the dashboard's port (8265), or "
            "the client port without ray://? The head's GCS port is usually 6379"
        )


#: The HTTP/2 client preface and an empty SETTINGS frame (RFC 9113, 3.4).
_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def _speaks_http2(conn: socket.socket) -> bool:
    """Whether the server on ``conn`` answers the HTTP/2 preface with a
    SETTINGS frame, as Ray's GCS and client servers (gRPC) do. Ray itself
    would retry a port that is open but is something else for minutes."""
    conn.settimeout(REACH_TIMEOUT)
    try:
        conn.sendall(_PREFACE)
        head = b""
        while len(head) < 9:
            chunk = conn.recv(9 - len(head))
            if not chunk:
                return False
            head += chunk
    except OSError:
        return False
    return head[3] == 0x04  # the frame type: SETTINGS


def _check_client_installed() -> None:
    try:
        import grpc  # noqa: F401  (Ray Client's transport)
    except ImportError:
        raise ClusterError(
            "ray:// (Ray Client) needs `pip install 'ray[client]'` on this machine; on a node of the cluster, "
            "use --address auto instead"
        ) from None
