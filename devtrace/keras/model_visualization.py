"""``keras.utils.plot_model`` / ``model_to_dot``: Keras draws a model with pydot and Graphviz, and
without them stops as Keras does — an ``ImportError`` naming what to install, or, in a notebook, the
same line printed and nothing drawn — so a program behaves as it does under TensorFlow on the same
machine. With both installed, devtrace says in one line that it does not draw models yet."""

from __future__ import annotations

import sys

_PYDOT = "You must install pydot (`pip install pydot`) for `plot_model` to work."
_GRAPHVIZ = ("You must install graphviz (see instructions at https://graphviz.gitlab.io/download/) for "
             "`plot_model` to work.")


def _pydot():
    try:
        import pydot
    except ImportError:
        try:
            import pydot_ng as pydot
        except ImportError:
            return None
    return pydot


def _graphviz_works(pydot) -> bool:
    try:
        pydot.Dot.create(pydot.Dot())  # Keras's check: Graphviz's `dot` runs
        return True
    except Exception:  # OSError, pydot.PydotException: no usable `dot`
        return False


def _missing(message):
    if "IPython.core.magics.namespace" in sys.modules:  # a notebook: Keras prints and goes on
        print(message)
        return None
    raise ImportError(message)


def _built(model):
    if not getattr(model, "built", True):
        raise ValueError("This model has not yet been built. Build the model first by calling `build()` or by "
                         "calling the model on a batch of data.")


def _not_drawn(what):
    return NotImplementedError(f"devtrace does not implement keras.utils.{what} yet (pydot and Graphviz are "
                               f"installed: Keras would draw the model)")


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False, show_layer_names=False,
               rankdir="TB", expand_nested=False, dpi=200, show_layer_activations=False, show_trainable=False,
               **kwargs):
    _built(model)
    pydot = _pydot()
    if pydot is None:
        return _missing(_PYDOT)
    if not _graphviz_works(pydot):
        return _missing(_GRAPHVIZ)
    raise _not_drawn("plot_model")


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True, rankdir="TB",
                 expand_nested=False, dpi=200, subgraph=False, show_layer_activations=False, show_trainable=False,
                 **kwargs):
    _built(model)
    if _pydot() is None:
        raise ImportError("You must install pydot (`pip install pydot`) for model_to_dot to work.")
    raise _not_drawn("model_to_dot")
