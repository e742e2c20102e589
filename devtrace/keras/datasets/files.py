"""Keras's dataset cache (``keras.utils.get_file``): the file a dataset is kept under in
``$KERAS_HOME/datasets`` (``~/.keras/datasets``), the archive Keras extracts beside it, and — with
no cached file — a download as Keras makes it, so that offline the error is Keras's own
(``URL fetch failure on <origin>: None -- [Errno -2] Name or service not known``).

One difference, on purpose: a cached file is read whatever its hash (Keras would download a file
whose hash differs again). devtrace runs where there is no network, and small stand-in files in
Keras's formats are how programs are tried on it.
"""

from __future__ import annotations

import io
import os
import pickle
import sys
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile

import numpy as np

from ..home import keras_home


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None, cache_subdir="datasets",
             hash_algorithm="auto", extract=False, archive_format="auto", cache_dir=None, force_download=False):
    """The cached file's path (for ``extract``: the folder its archive is extracted to)."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    base = os.path.expanduser(cache_dir if cache_dir is not None else keras_home())
    if not os.access(base, os.W_OK):
        base = os.path.join("/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir(), ".keras")
    datadir = os.path.join(base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    given = os.fspath(fname) if fname is not None else None
    name = given or os.path.basename(urllib.parse.urlsplit(origin).path)
    if not name:
        raise ValueError(f"Can't parse the file name from the origin provided: '{origin}'."
                         "Please specify the `fname` argument.")
    if given and os.sep in name:
        raise ValueError("Paths are no longer accepted as the `fname` argument. To specify the file's parent "
                         f"directory, use the `cache_dir` argument. Received: fname={name}")
    target, extracted = _targets(datadir, name, bool(given), extract or untar)
    if force_download or not os.path.exists(target):
        if extracted is not None and not force_download and os.path.isdir(extracted) and os.listdir(extracted):
            return extracted  # extracted before, its archive since removed: what it holds is the data
        _download(origin, target)
    if extracted is None:
        return target
    _extract(target, extracted, "tar" if untar else archive_format)
    return extracted


def _targets(datadir, name, given, extract):
    """(the file downloaded, the folder it is extracted to or None), named as Keras names them."""
    if not extract:
        return os.path.join(datadir, name), None
    if given and "." in name:
        stem = name[:name.find(".")]
        return os.path.join(datadir, name), os.path.join(datadir, f"{stem}_extracted")
    return os.path.join(datadir, f"{name}_archive"), os.path.join(datadir, name)


def _download(origin, target):
    sys.stdout.write(f"Downloading data from {origin}\n")
    message = "URL fetch failure on {}: {} -- {}"
    try:
        try:
            urllib.request.urlretrieve(origin, target)
        except urllib.error.HTTPError as e:
            raise Exception(message.format(origin, e.code, e.msg)) from e
        except urllib.error.URLError as e:
            raise Exception(message.format(origin, e.errno, e.reason)) from e
    except (Exception, KeyboardInterrupt):
        if os.path.exists(target):
            os.remove(target)
        raise


def _extract(archive, path, archive_format):
    formats = ["tar", "zip"] if archive_format == "auto" else (
        [archive_format] if isinstance(archive_format, str) else list(archive_format or []))
    for kind in formats:
        if kind == "tar" and tarfile.is_tarfile(archive):
            with tarfile.open(archive) as f:
                try:
                    f.extractall(path, filter="data")
                except TypeError:  # a Python without extraction filters
                    f.extractall(path)
            return
        if kind == "zip" and zipfile.is_zipfile(archive):
            with zipfile.ZipFile(archive) as f:
                f.extractall(path)
            return


class _Arrays(pickle.Unpickler):
    """Keras reads its datasets' pickles allowing NumPy arrays and dtypes only."""

    _ALLOWED = {("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "_reconstruct"),
                ("numpy._core.multiarray", "_reconstruct")}

    def find_class(self, module, name):
        if (module, name) in self._ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"Refusing to deserialize `{module}.{name}` while loading a Keras dataset. "
                                     "The file may be corrupted or malicious.")


def load_npz(path) -> dict:
    """An ``.npz`` whose members may hold pickled object arrays (imdb's and reuters' sequences)."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            if member.endswith(".npy"):
                with archive.open(member) as raw:
                    buffer = io.BytesIO(raw.read())
                arrays[member[:-4]] = _npy(buffer)
    return arrays


def _npy(fp):
    try:
        return np.lib.format.read_array(fp, allow_pickle=False)
    except ValueError:
        fp.seek(0)
        version = np.lib.format.read_magic(fp)
        if version[0] == 1:
            np.lib.format.read_array_header_1_0(fp)
        elif version[0] in (2, 3):
            np.lib.format.read_array_header_2_0(fp)
        else:
            raise ValueError(f"Unsupported `.npy` file version: {version}.") from None
        return _Arrays(fp).load()


def load_batch(path, label_key="labels"):
    """One CIFAR batch file: ``(data as (n, 3, 32, 32) uint8, labels)``."""
    with open(path, "rb") as f:
        d = {k.decode("utf8"): v for k, v in _Arrays(f, encoding="bytes").load().items()}
    data = d["data"]
    return data.reshape(data.shape[0], 3, 32, 32), d[label_key]


def split(x, y, test_split, seed, limit=None):
    """boston/california housing: shuffled by ``seed``, the last ``test_split`` for testing."""
    if not 0 <= test_split < 1:
        raise ValueError(f"Invalid `test_split` argument: {test_split}. It must be between 0 and 1 "
                         "(exclusive of 1).")
    order = np.arange(len(x))
    np.random.RandomState(seed).shuffle(order)
    x, y = x[order], y[order]
    cut = int(len(x) * (1 - test_split))
    return (np.array(x[:cut]), np.array(y[:cut])), (np.array(x[cut:]), np.array(y[cut:]))


def sequences(xs, labels, maxlen, start_char, index_from):
    """imdb's and reuters' word indices: offset by ``index_from``, prefixed by ``start_char``, the
    sequences of ``maxlen`` or more dropped."""
    if start_char is not None:
        xs = [[start_char] + [w + index_from for w in x] for x in xs]
    elif index_from:
        xs = [[w + index_from for w in x] for x in xs]
    else:
        xs = [list(x) for x in xs]
    if maxlen:
        kept = [(x, y) for x, y in zip(xs, labels) if len(x) < maxlen]
        xs, labels = [x for x, _ in kept], [y for _, y in kept]
    return xs, labels


def vocabulary(xs, num_words, skip_top, oov_char):
    """Words outside ``[skip_top, num_words)`` made ``oov_char`` (dropped when it is None)."""
    num_words = num_words or max(max(x) for x in xs)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
    return [[w for w in x if skip_top <= w < num_words] for x in xs]
