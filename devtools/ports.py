"""Free loopback ports for the private servers the tests and harnesses start."""

import contextlib
import socket


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports nobody listens on now (the sockets are held until all are
    chosen, so the kernel cannot hand out one twice). A server started on one moments later
    may still find it taken: callers retry with another."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(count)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in sockets]


def free_port() -> int:
    return free_ports(1)[0]
