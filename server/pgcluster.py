"""A temporary PostgreSQL cluster for the server's tests and its load benchmark (not part of the server).

:class:`Cluster` runs Debian's PostgreSQL 15 (``initdb`` and ``postgres`` from ``/usr/lib/postgresql/15/bin``, or
``$STPETE_PG_BIN``) in a temporary directory: the data directory, and the Unix socket as the only way in (no TCP
port, so clusters of parallel tests never collide). PostgreSQL refuses to run as root; under root (CI, the tests'
usual case) the cluster runs as the unprivileged user ``nobody`` (or ``$STPETE_PG_USER``), which owns the temporary
directory; otherwise as the current user. Every connection is trusted (the socket's directory is the cluster's
only door). The postmaster is the caller's child and receives SIGQUIT (immediate shutdown, its backends with it)
when the caller's thread ends, also when the caller is killed with SIGKILL (prctl PR_SET_PDEATHSIG, set after the
change of user, which clears it): no cluster outlives its test. :meth:`Cluster.stop` ends it and removes the
directory.

    cluster = Cluster()                       # raises Unavailable if PostgreSQL is not installed
    url = cluster.create_database("t1")      # postgresql://postgres@/t1?host=/tmp/stpete-pg-.../
    ...
    cluster.stop()

Installs nothing: CI's .ci/run installs the packages (postgresql, python3-psycopg).
"""
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse

PG_BIN = os.environ.get("STPETE_PG_BIN", "/usr/lib/postgresql/15/bin")


class Unavailable(Exception):
    """PostgreSQL (its server programs) or psycopg is not installed: the caller skips."""


def _die_with_parent(sig=signal.SIGQUIT):
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(1, int(sig))  # PR_SET_PDEATHSIG


class Cluster:
    """A running temporary cluster. ``fsync``: PostgreSQL's fsync setting (on by default, as in production: the
    benchmark keeps it; tests may turn it off, as only the server process is killed in them, never the
    machine). ``settings``: more ``-c name=value`` settings."""

    def __init__(self, fsync=True, settings=None, bin_dir=PG_BIN):
        initdb, postgres = os.path.join(bin_dir, "initdb"), os.path.join(bin_dir, "postgres")
        if not (os.access(initdb, os.X_OK) and os.access(postgres, os.X_OK)):
            raise Unavailable(f"PostgreSQL's server programs are not in {bin_dir} (Debian: postgresql-15)")
        try:
            import psycopg  # noqa: F401  the server's PostgreSQL client (Debian: python3-psycopg)
        except ImportError:
            raise Unavailable("psycopg is not installed for this interpreter (Debian: python3-psycopg)")
        self.dir = tempfile.mkdtemp(prefix="stpete-pg-")
        self.data = os.path.join(self.dir, "data")
        self.proc = None
        self.log_path = os.path.join(self.dir, "postgres.log")
        child = {}
        if os.geteuid() == 0:
            account = pwd.getpwnam(os.environ.get("STPETE_PG_USER", "nobody"))
            os.chown(self.dir, account.pw_uid, account.pw_gid)
            child = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
        os.chmod(self.dir, 0o700)  # root reaches the socket anyway; nobody else can
        # PostgreSQL's programs without the sanitizers meson preloads into the tests' interpreter (CI's ASan pass)
        child["env"] = {k: v for k, v in os.environ.items()
                        if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
        try:
            subprocess.run([initdb, "-D", self.data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
                            "--locale=C", "--no-sync"], check=True, capture_output=True, text=True, cwd=self.dir,
                           **child)
            args = [postgres, "-D", self.data, "-k", self.dir, "-c", "listen_addresses=", "-p", "5432",
                    "-c", f"fsync={'on' if fsync else 'off'}", "-c", "max_connections=200"]
            for name, value in (settings or {}).items():
                args += ["-c", f"{name}={value}"]
            with open(self.log_path, "w") as log:
                if "user" in child:
                    os.chown(self.log_path, child["user"], child["group"])
                self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=self.dir,
                                             preexec_fn=_die_with_parent, **child)
            self._wait_ready()
        except BaseException:
            self.stop()
            raise

    def url(self, dbname="postgres"):
        """The libpq URI of database ``dbname`` (what python3 -m stpete_server --db takes)."""
        return f"postgresql://postgres@/{dbname}?host={urllib.parse.quote(self.dir, safe='/')}"

    def _wait_ready(self, timeout=60.0):
        import psycopg
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"postgres ended ({self.proc.returncode}): {self.log()}")
            try:
                psycopg.connect(self.url(), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"postgres did not accept connections within {timeout} s: {self.log()}")
                time.sleep(0.05)

    def create_database(self, name):
        """A new, empty database ``name``; returns its URI."""
        import psycopg
        with psycopg.connect(self.url(), autocommit=True) as con:
            con.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def log(self):
        try:
            with open(self.log_path) as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def pids(self):
        """The postmaster's pid and its children's (backends, background workers): for the benchmark's CPU and
        memory figures."""
        from procinfo import children
        if self.proc is None or self.proc.poll() is not None:
            return []
        return [self.proc.pid, *children(self.proc.pid)]

    def stop(self):
        """Fast shutdown (SIGINT: open sessions rolled back), SIGKILL after 30 s; the directory removed."""
        from procinfo import stop
        if self.proc is not None:
            stop(self.proc, signal.SIGINT, 30)
        shutil.rmtree(self.dir, ignore_errors=True)
