"""Python's default repr as TensorFlow's classes show it: ``<tensorflow.python.checkpoint.checkpoint.Checkpoint
object at 0x…>`` — what a notebook displays for a value without a repr of its own. A subclass keeps
Python's repr (``<__main__.MyModule object at 0x…>``), as with TensorFlow."""

from __future__ import annotations


def shown_as(cls, path: str) -> None:
    """Give ``cls`` the default repr of TensorFlow's (or Keras's) class at ``path``."""
    def __repr__(self):
        if type(self) is cls:
            return f"<{path} object at {id(self):#x}>"
        return object.__repr__(self)
    __repr__.tensorflow_default = True
    cls.__repr__ = __repr__


def has_default_repr(cls) -> bool:
    """``cls`` shows Python's repr, or one ``shown_as`` gave a class it inherits from."""
    return cls.__repr__ is object.__repr__ or getattr(cls.__repr__, "tensorflow_default", False)
