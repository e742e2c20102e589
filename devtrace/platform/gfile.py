"""``tf.io.gfile``: TensorFlow's file API over the local file system (paths plain or
``file://``). Its errors are TensorFlow's (``NotFoundError``, ``AlreadyExistsError`` …) with
TensorFlow's messages; another file system (``gs://``, ``ram://``) says devtrace lacks it.

No op runs here: TensorFlow's gfile calls its C++ file systems directly, outside the graph and
the placement log.
"""

from __future__ import annotations

import glob as _glob
import os
import posixpath
import shutil
from dataclasses import dataclass

from .. import errors
from ..util.namespace import Namespace

_SCHEMES = ("ram", "file", "", "gs")  # TensorFlow 2.21's registered file systems


def _local(path) -> str:
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode()
    scheme, sep, rest = path.partition("://")
    if not sep:
        return path
    if scheme == "file":
        return rest
    raise errors.UnimplementedError(f"devtrace does not implement the {scheme}:// file system of tf.io.gfile yet")


def _not_found(path) -> errors.NotFoundError:
    return errors.NotFoundError(None, None, f"{path}; No such file or directory")


class GFile:
    """A file, opened at its first use (as TensorFlow's: a missing file fails at the first read)."""

    def __init__(self, name, mode="r"):
        self.name, self.mode = os.fspath(name), mode
        self._path = _local(name)
        self._file = None

    def _f(self):
        if self._file is None:
            if "r" in self.mode and not os.path.isfile(self._path):
                raise _not_found(self._path)
            mode = self.mode if "b" in self.mode else self.mode + "b"
            self._file = open(self._path, mode)  # noqa: SIM115 (closed by close() / the context manager)
        return self._file

    def _text(self, data: bytes):
        return data if "b" in self.mode else data.decode()

    def read(self, n=-1):
        return self._text(self._f().read(-1 if n is None else n))

    def readline(self):
        return self._text(self._f().readline())

    def readlines(self):
        return [self._text(line) for line in self._f().readlines()]

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def write(self, data):
        self._f().write(data.encode() if isinstance(data, str) else bytes(data))

    def seek(self, offset=None, whence=0, position=None):
        self._f().seek(position if offset is None else offset, whence)

    def tell(self):
        return self._f().tell()

    def size(self):
        return stat(self.name).length

    def seekable(self):
        return True

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@dataclass
class FileStatistics:
    length: int
    mtime_nsec: int
    is_directory: bool


def exists(path) -> bool:
    return os.path.exists(_local(path))


def isdir(path) -> bool:
    return os.path.isdir(_local(path))


def stat(path) -> FileStatistics:
    local = _local(path)
    try:
        st = os.stat(local)
    except FileNotFoundError:
        raise _not_found(local) from None
    return FileStatistics(length=st.st_size, mtime_nsec=st.st_mtime_ns, is_directory=os.path.isdir(local))


def listdir(path) -> list:
    local = _local(path)
    if not os.path.isdir(local):
        raise errors.NotFoundError(None, None, f"Could not find directory {local}")
    return os.listdir(local)


def glob(pattern) -> list:
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else list(pattern)
    return [match for p in patterns for match in sorted(_glob.glob(_local(p)))]


def mkdir(path) -> None:
    local = _local(path)
    if os.path.isdir(local):
        return
    try:
        os.mkdir(local)
    except FileNotFoundError:
        raise _not_found(local) from None


def makedirs(path) -> None:
    os.makedirs(_local(path), exist_ok=True)


def remove(path) -> None:
    local = _local(path)
    try:
        os.remove(local)
    except FileNotFoundError:
        raise _not_found(local) from None


def rmtree(path) -> None:
    local = _local(path)
    if not os.path.exists(local):
        raise errors.NotFoundError(None, None, f"{local} not found")
    shutil.rmtree(local)


def _check_target(src, dst, overwrite):
    if not os.path.exists(src):
        raise _not_found(src)
    if os.path.exists(dst) and not overwrite:
        raise errors.AlreadyExistsError(None, None, "file already exists")


def copy(src, dst, overwrite=False) -> None:
    src, dst = _local(src), _local(dst)
    _check_target(src, dst, overwrite)
    shutil.copyfile(src, dst)


def rename(src, dst, overwrite=False) -> None:
    src, dst = _local(src), _local(dst)
    _check_target(src, dst, overwrite)
    os.replace(src, dst)


def walk(top, topdown=True, onerror=None):
    """``(directory, subdirectories, files)`` below ``top``, as ``os.walk``."""
    yield from os.walk(_local(top), topdown=topdown, onerror=onerror)


def join(path, *paths) -> str:
    """``os.path.join`` that keeps a URL's ``scheme://`` in front."""
    scheme, sep, rest = os.fspath(path).partition("://")
    if sep:
        return scheme + sep + posixpath.join(rest, *paths)
    return os.path.join(path, *paths)


def get_registered_schemes() -> list:
    return list(_SCHEMES)


namespace = Namespace(_prefix="io.gfile", GFile=GFile, copy=copy, exists=exists,
                      get_registered_schemes=get_registered_schemes, glob=glob, isdir=isdir, join=join,
                      listdir=listdir, makedirs=makedirs, mkdir=mkdir, remove=remove, rename=rename,
                      rmtree=rmtree, stat=stat, walk=walk)
