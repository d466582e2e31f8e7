"""A throw-away PostgreSQL cluster: initdb in a temporary folder, a server on a free
loopback port (its unix socket in that folder too), removed when done.

`make test` runs the suite on one (``python -m devtools.pgcluster -- pytest ...``) so a fresh
machine needs Debian's ``postgresql`` package and nothing running; `make load` starts one
of its own so its fault step can stop *that* server, never the machine's.

    with private_cluster() as cluster:
        cluster.url                      # postgres://postgres@127.0.0.1:PORT/selector
        cluster.stop(); cluster.start()  # an outage of this server only

As root (a container, CI) initdb and postgres refuse to run: they run as the ``postgres``
user when it exists, else ``nobody``; the folder is theirs. For tests the server trades
durability for speed (fsync off: nothing in it outlives the run); ``durable=True`` (the
benchmarks and the load test, whose figures must be a production server's) keeps
PostgreSQL's defaults. A run that was killed (SIGKILL)
leaves its folder behind; the next run stops that server and removes the folder, and
only folders whose owning process is gone.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from devtools.ports import free_port

PREFIX = "selector-pgcluster-"
SUPERUSER = "postgres"
DEFAULT_DATABASE = "selector"
# Room for the suite's concurrent tests, parallel test workers and the load test's pools.
SERVER_SETTINGS = {"max_connections": "200"}
# Speed over durability, for tests. (synchronous_commit stays on: the wizard's own writes
# turn it off per transaction, and a test checks that nothing else does.)
FAST_SETTINGS = {"fsync": "off", "full_page_writes": "off"}


class ClusterError(RuntimeError):
    pass


def bindir() -> Path:
    """The newest installed server's programs (Debian keeps them off PATH, in
    /usr/lib/postgresql/N/bin), or initdb's folder on PATH."""
    root = Path("/usr/lib/postgresql")
    versions = sorted((p for p in root.glob("*/bin") if (p / "initdb").exists()),
                      key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    if versions:
        return versions[-1]
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    raise ClusterError("PostgreSQL's server programs (initdb, postgres) are not installed: "
                       "`make install-dev` installs Debian's postgresql package")


def _server_user() -> pwd.struct_passwd | None:
    """Who runs initdb and postgres: ourselves, or an unprivileged user when we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise ClusterError("running as root and neither a 'postgres' nor a 'nobody' user exists")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Cluster:
    """One private server. ``start()``/``stop()`` may be called again (an outage); the
    folder goes with ``remove()``."""

    def __init__(self, directory: Path, *, port: int | None = None,
                 database: str = DEFAULT_DATABASE, durable: bool = False):
        self.directory = directory
        self.durable = durable
        self.data = directory / "data"
        self.log = directory / "postgres.log"
        self.port = port or free_port()
        self.database = database
        self.bin = bindir()
        self.user = _server_user()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return self.url_for(self.database)

    def url_for(self, database: str) -> str:
        return f"postgres://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    @property
    def _uid(self) -> int | None:
        return self.user.pw_uid if self.user else None

    @property
    def _gid(self) -> int | None:
        return self.user.pw_gid if self.user else None

    def init(self) -> None:
        (self.directory / "owner").write_text(str(os.getpid()))
        if self.user:
            os.chown(self.directory, self.user.pw_uid, self.user.pw_gid)
        done = subprocess.run(
            [str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER,
             "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8",
             *([] if self.durable else ["--no-sync"])],
            capture_output=True, text=True, cwd=self.directory, user=self._uid, group=self._gid)
        if done.returncode:
            raise ClusterError(f"initdb failed:\n{done.stdout}{done.stderr}")

    def start(self, *, timeout: float = 60) -> None:
        """Start the server on this cluster's port; wait until it accepts connections."""
        settings = {**SERVER_SETTINGS, **({} if self.durable else FAST_SETTINGS),
                    "listen_addresses": "127.0.0.1",
                    "port": str(self.port), "unix_socket_directories": str(self.directory)}
        command = [str(self.bin / "postgres"), "-D", str(self.data)]
        for key, value in settings.items():
            command += ["-c", f"{key}={value}"]
        with self.log.open("ab") as log:
            if self.user:
                os.chown(self.log, self.user.pw_uid, self.user.pw_gid)
            # A session of its own: a Ctrl-C meant for the tests does not reach it, so the
            # tests can finish (drop their databases) before we stop it.
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, cwd=self.directory,
                                            start_new_session=True, user=self._uid,
                                            group=self._gid)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ClusterError(f"postgres exited ({self.process.returncode}):\n"
                                   + self.log.read_text(errors="replace")[-2000:])
            ready = subprocess.run([str(self.bin / "pg_isready"), "-q", "-h", "127.0.0.1",
                                    "-p", str(self.port), "-U", SUPERUSER, "-d", "postgres"])
            if ready.returncode == 0:
                return
            time.sleep(0.1)
        self.stop()
        raise ClusterError(f"postgres did not accept connections within {timeout:.0f} s")

    def stop(self, *, timeout: float = 30) -> None:
        """Fast shutdown (rolls back open transactions, closes connections); immediate
        shutdown if that hangs."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGKILL):
            process.send_signal(sig)
            try:
                process.wait(timeout=timeout if sig == signal.SIGINT else 5)
                return
            except subprocess.TimeoutExpired:
                continue

    def createdb(self, name: str) -> None:
        subprocess.run([str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                        "-U", SUPERUSER, name], check=True, capture_output=True)

    def psql(self, sql: str, *, database: str | None = None) -> str:
        """One statement through psql; its unaligned, tuples-only output."""
        return subprocess.run(
            [str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER,
             "-d", database or self.database, "-v", "ON_ERROR_STOP=1", "-tAc", sql],
            check=True, capture_output=True, text=True).stdout.strip()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


def remove_abandoned(parent: Path | None = None) -> None:
    """Stop and remove clusters whose owning process died without cleaning up (SIGKILL,
    a power cut). A folder whose owner still runs, or that names no owner, is left alone."""
    for directory in Path(parent or tempfile.gettempdir()).glob(PREFIX + "*"):
        try:
            owner = int((directory / "owner").read_text())
        except (OSError, ValueError):
            continue
        if _alive(owner):
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            postmaster = int((directory / "data" / "postmaster.pid").read_text().split()[0])
            cmdline = Path(f"/proc/{postmaster}/cmdline").read_bytes()
            if str(directory / "data").encode() in cmdline:  # that server, not a reused pid
                os.kill(postmaster, signal.SIGQUIT)
                for _ in range(50):
                    if not _alive(postmaster):
                        break
                    time.sleep(0.1)
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def private_cluster(*, database: str = DEFAULT_DATABASE,
                    durable: bool = False) -> Iterator[Cluster]:
    """A started cluster with ``database`` created; stopped and removed on leaving, also
    on an exception or Ctrl-C."""
    remove_abandoned()
    # As root the server user must reach the folder: under /tmp, not a private TMPDIR.
    parent = "/tmp" if os.geteuid() == 0 else None  # noqa: S108
    cluster = Cluster(Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent)), database=database,
                      durable=durable)
    try:
        cluster.init()
        for attempt in range(5):
            try:
                cluster.start()
                break
            except ClusterError:
                # Another process took the free port between our look and postgres' bind.
                if attempt == 4 or "in use" not in cluster.log.read_text(errors="replace"):
                    raise
                cluster.port = free_port()
        cluster.createdb(database)
        yield cluster
    finally:
        cluster.remove()


def _terminate_on_signals(child: subprocess.Popen[bytes]) -> None:
    """SIGTERM/SIGHUP to us: pass it on to the child, whose exit ends the wait below. A
    terminal's Ctrl-C reaches the child by itself (same process group): we wait for it."""
    def forward(signum: int, _frame: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(signum)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, forward)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m devtools.pgcluster",
        description="Run COMMAND with DATABASE_URL naming a private, throw-away PostgreSQL "
                    "cluster; the cluster is removed when COMMAND ends.")
    parser.add_argument("--database", default=DEFAULT_DATABASE,
                        help="database created in the cluster, named by DATABASE_URL")
    parser.add_argument("--durable", action="store_true",
                        help="keep PostgreSQL's durability defaults (fsync on): for figures")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="the command, after --, e.g. -- pytest -q")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")
    try:
        with private_cluster(database=args.database, durable=args.durable) as cluster:
            env = {**os.environ, "DATABASE_URL": cluster.url}
            env.pop("TEST_DATABASE_NAME", None)  # the cluster is ours: Django's default name
            print(f"private PostgreSQL on 127.0.0.1:{cluster.port} ({cluster.directory})",
                  file=sys.stderr, flush=True)
            child = subprocess.Popen(command, env=env)
            _terminate_on_signals(child)
            code = child.wait()
            return 128 - code if code < 0 else code  # killed by a signal: as a shell says
    except ClusterError as exc:
        print(f"devtools.pgcluster: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
