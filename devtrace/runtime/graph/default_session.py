"""The default session stack (``Session.as_default()``), which ``Tensor.eval`` and
``Operation.run`` use."""

from __future__ import annotations

_DEFAULT_SESSIONS: list = []


def get_default_session():
    return _DEFAULT_SESSIONS[-1] if _DEFAULT_SESSIONS else None


def default_session(session, what: str):
    """The session ``Tensor.eval`` / ``Operation.run`` use, with TensorFlow's error when there is none."""
    session = session or get_default_session()
    if session is None:
        if what == "Tensor":
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use `with "
                             "sess.as_default()` or pass an explicit session to `eval(session=sess)`")
        raise ValueError("Cannot execute operation using `run()`: No default session is registered. Use `with "
                         "sess.as_default():` or pass an explicit session to `run(session=sess)`")
    return session


class _AsDefault:
    def __init__(self, session):
        self.session = session

    def __enter__(self):
        _DEFAULT_SESSIONS.append(self.session)
        return self.session

    def __exit__(self, *exc):
        _DEFAULT_SESSIONS.remove(self.session)
        return False
