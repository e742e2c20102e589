"""``tf.io.gfile``'s errors, as TensorFlow 2.21 raises them (probed with /work/tfvenv: class and
message of each call below on a missing path); the happy paths are its docstring examples
(tests/tf221_doctests)."""

import pytest

import devtrace as tf


@pytest.mark.parametrize("call,error,message", [
    (lambda g, d: g.GFile(f"{d}/none").read(), "NotFoundError", "{d}/none; No such file or directory"),
    (lambda g, d: g.copy(f"{d}/none", f"{d}/z"), "NotFoundError", "{d}/none; No such file or directory"),
    (lambda g, d: g.remove(f"{d}/none"), "NotFoundError", "{d}/none; No such file or directory"),
    (lambda g, d: g.listdir(f"{d}/none"), "NotFoundError", "Could not find directory {d}/none"),
    (lambda g, d: g.stat(f"{d}/none"), "NotFoundError", "{d}/none; No such file or directory"),
    (lambda g, d: g.rmtree(f"{d}/none"), "NotFoundError", "{d}/none not found"),
    (lambda g, d: g.rename(f"{d}/none", f"{d}/q"), "NotFoundError", "{d}/none; No such file or directory"),
    (lambda g, d: g.copy(f"{d}/a", f"{d}/a"), "AlreadyExistsError", "file already exists"),
])
def test_errors_are_tensorflows(tmp_path, call, error, message):
    (tmp_path / "a").write_text("x")
    with pytest.raises(getattr(tf.errors, error)) as raised:
        call(tf.io.gfile, tmp_path)
    assert str(raised.value) == message.format(d=tmp_path)


def test_files_read_as_tensorflows(tmp_path):
    (tmp_path / "a").write_text("x")
    g = tf.io.gfile
    assert g.mkdir(str(tmp_path)) is None  # an existing directory: nothing happens
    st = g.stat(str(tmp_path / "a"))
    assert (st.length, st.is_directory, st.mtime_nsec > 0) == (1, False, True)
    assert g.GFile(str(tmp_path / "a")).read() == "x" and g.GFile(str(tmp_path / "a"), "rb").read() == b"x"
    assert g.GFile(str(tmp_path / "a")).size() == 1
    assert g.get_registered_schemes() == ["ram", "file", "", "gs"]
    with pytest.raises(tf.errors.UnimplementedError, match="devtrace does not implement the ram:// file system of tf.io.gfile yet"):
        g.exists("ram://x")
