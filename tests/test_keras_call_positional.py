"""Keras 3 (as TensorFlow 2.21 ships it) given ``training`` positionally: ``model(x, True)``. Keras
binds positional arguments to ``call()``'s signature and then passes the ``training`` it resolved by
keyword, so a functional model (which takes Python values positionally) gets it twice — Python's
``TypeError`` — and every other layer or model refuses a Python value given positionally; ``None``
given positionally is no training value. Captured with ``/work/tfvenv/bin/python`` running these calls
(``import tensorflow as tf``) and printing ``repr`` of the error or the values."""

import pytest

import devtrace as tf

keras = tf.keras
X = tf.ones((2, 4))
REFUSED = ("Only input tensors may be passed as positional arguments. The following argument value should be passed "
           "as a keyword argument: {} (of type <class '{}'>)")


def _functional():
    inp = keras.Input((4,))
    return keras.Model(inp, keras.layers.Dropout(0.5, seed=1)(keras.layers.Dense(3, kernel_initializer="ones")(inp)))


def _sequential():
    return keras.Sequential([keras.layers.Dense(3, kernel_initializer="ones"), keras.layers.Dropout(0.5, seed=1)])


class _Subclassed(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(3, kernel_initializer="ones")

    def call(self, x, training=None):
        return self.dense(x)


@pytest.mark.parametrize("value", [True, False])
def test_a_functional_model_given_training_positionally_gets_it_twice(value):
    with pytest.raises(TypeError, match=r"^Functional\.call\(\) got multiple values for argument 'training'$"):
        _functional()(X, value)


@pytest.mark.parametrize("make", [_sequential, _Subclassed, lambda: keras.layers.Dropout(0.5)])
def test_other_models_and_layers_refuse_a_python_value_given_positionally(make):
    with pytest.raises(ValueError) as e:
        make()(X, True)
    assert str(e.value) == REFUSED.format("True", "bool")
    with pytest.raises(ValueError) as e:
        keras.layers.Dense(3)(X, "a")
    assert str(e.value) == REFUSED.format("a", "str")


def test_a_tensor_given_in_the_training_place_is_given_twice():
    with pytest.raises(TypeError, match=r"^Dense\.call\(\) got multiple values for argument 'training'$"):
        keras.layers.Dense(3)(X, X)


def test_none_given_positionally_is_inference_and_training_by_keyword_drops():
    assert _functional()(X, None).numpy().tolist() == [[4.0, 4.0, 4.0]] * 2
    assert _sequential()(X, None).numpy().tolist() == [[4.0, 4.0, 4.0]] * 2
    assert keras.layers.Dense(3, kernel_initializer="ones")(X, None).numpy().tolist() == [[4.0, 4.0, 4.0]] * 2
    assert _functional()(X, training=True).numpy().tolist() == [[8.0, 0.0, 8.0], [0.0, 0.0, 0.0]]
