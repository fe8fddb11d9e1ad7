"""Processes of this machine as Linux's /proc shows them, for the server's tests and its load benchmark (not part of
the server). /proc rather than ps: under CI's sanitizer pass LD_PRELOAD holds ASan's runtime, which ps would load
too."""
import os
import subprocess


def children(parent):
    """Pids of the processes whose parent is ``parent`` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == parent:
                        found.append(int(entry))
            except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                pass
    return found


def stop(proc, sig, seconds):
    """Send ``sig`` to the running subprocess.Popen ``proc``, wait up to ``seconds`` for it to end, then SIGKILL it;
    returns when it has ended (at once if it already had)."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
