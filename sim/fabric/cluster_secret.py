"""The secret that tasks started by hand share, so that only they can join their fabric.

``python -m sim launch`` makes a fresh secret per launch and hands it to its tasks. Tasks started
by hand (``TF_CONFIG=... python main.py &``) have no launcher, so they read one secret from, in
order: ``SIM_CLUSTER_SECRET`` (the secret itself), ``SIM_CLUSTER_SECRET_FILE`` (a file holding
it), else the user's own file ``~/.config/sim/cluster-secret``, generated on first use with 32
random bytes and permissions 0600 (its folder 0700): the default needs nothing from the user. A
file that another user owns, or that the group or others may read, is refused with the
``chown`` / ``chmod`` that fixes it (as ssh refuses such a key): anyone who can read the secret
can join the cluster. A secret the user sets must have at least MIN_LENGTH characters: a short
one ("1234", a name) is guessed online (the door also slows down wrong answers, door.py).
"""
from __future__ import annotations

import hashlib
import os
import secrets
import stat

from sim.i18n import t

ENV_SECRET = "SIM_CLUSTER_SECRET"
ENV_SECRET_FILE = "SIM_CLUSTER_SECRET_FILE"
MIN_LENGTH = 16       # characters: 16 random ones are beyond any online guessing


def default_path() -> str:
    return os.path.join(os.path.expanduser("~"), ".config", "sim", "cluster-secret")


def read() -> bytes:
    """The cluster's secret, as the 32 bytes the fabric's handshake uses."""
    text = os.environ.get(ENV_SECRET)
    if text:
        _strong(text.encode("utf-8"), ENV_SECRET)
        return _key(text.encode("utf-8"))
    path = os.environ.get(ENV_SECRET_FILE) or default_path()
    if not os.environ.get(ENV_SECRET_FILE):
        _make(path)
    raw = _read_private(path)
    _strong(raw, path)
    return _key(raw)


def _strong(raw: bytes, where) -> None:
    """A ValueError when the user's secret is too short to resist guessing."""
    if len(raw.strip()) < MIN_LENGTH:
        raise ValueError(t("fabric.secret_weak", where=where, n=len(raw.strip()),
                           most=MIN_LENGTH, env=ENV_SECRET))


def _key(raw: bytes) -> bytes:
    return hashlib.sha256(b"sim cluster secret\0" + raw.strip()).digest()


def _read_private(path) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ValueError(t("fabric.secret_missing", path=path, env=ENV_SECRET_FILE)) from None
    except OSError as e:
        raise ValueError(t("fabric.secret_unreadable", path=path, error=e.strerror or e)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(t("fabric.secret_unreadable", path=path, error="not a regular file"))
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise ValueError(t("fabric.secret_not_yours", path=path, uid=info.st_uid,
                               me=os.getuid()))
        if info.st_mode & 0o077:
            raise ValueError(t("fabric.secret_exposed", path=path, mode=oct(info.st_mode & 0o777)))
        raw = os.read(fd, 4096)
    finally:
        os.close(fd)
    if not raw.strip():
        raise ValueError(t("fabric.secret_unreadable", path=path, error="empty"))
    return raw


def _make(path) -> None:
    """Create the user's secret file once, whole (several tasks may start at the same moment)."""
    if os.path.lexists(path):
        return
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    temporary = f"{path}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, secrets.token_hex(32).encode("ascii") + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(temporary, path)         # fails if another task made it first: theirs stays
    except FileExistsError:
        pass
    finally:
        os.unlink(temporary)
