"""tf.nn.nce_loss and tf.nn.sampled_softmax_loss (issue 28), against tensorflow-cpu 2.21's values for the
same calls (a probe run in the oracle venv: the inputs below, its printed outputs pasted): given samples,
accidental hits removed or not, two true classes, weights in two shards, TensorFlow's own sampler for a
seed (its draws are TensorFlow's), and the gradients of the weights, biases and inputs."""

from __future__ import annotations

import numpy as np
import pytest

import devtrace as tf
from devtrace.runtime.context import reset_context

_rng = np.random.RandomState(0)
W_NP = _rng.randn(10, 4).astype(np.float32)
B_NP = _rng.randn(10).astype(np.float32)
X_NP = _rng.randn(3, 4).astype(np.float32)
NCE = [7.674891471862793, 6.258467674255371, 3.416820526123047]
SOFTMAX = [6.362947940826416, 2.1352972984313965, 1.1164014339447021]


@pytest.fixture
def t():
    reset_context()
    W, b, x = tf.constant(W_NP), tf.constant(B_NP), tf.constant(X_NP)
    y = tf.constant([[1], [4], [7]], tf.int64)
    sv = (tf.constant([0, 2, 5, 9], tf.int64), tf.constant([[0.3], [0.2], [0.1]]), tf.constant([0.1, 0.2, 0.3, 0.4]))
    return W, b, x, y, sv


def _close(got, want):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want, np.float32), rtol=2e-6, atol=1e-6)


def test_values_with_given_samples(t):
    W, b, x, y, sv = t
    _close(tf.nn.nce_loss(W, b, y, x, 4, 10, sampled_values=sv), NCE)
    _close(tf.nn.nce_loss(W, b, y, x, 4, 10, sampled_values=sv, remove_accidental_hits=True), NCE)
    _close(tf.nn.sampled_softmax_loss(W, b, y, x, 4, 10, sampled_values=sv), SOFTMAX)
    _close(tf.nn.sampled_softmax_loss(W, b, y, x, 4, 10, sampled_values=sv, remove_accidental_hits=False), SOFTMAX)
    _close(tf.nn.nce_loss([W[:5], W[5:]], [b[:5], b[5:]], y, x, 4, 10, sampled_values=sv), NCE)
    y2 = tf.constant([[1, 2], [4, 5], [7, 0]], tf.int64)
    sv2 = (sv[0], tf.constant([[0.3, 0.1], [0.2, 0.1], [0.1, 0.5]]), sv[2])
    _close(tf.nn.sampled_softmax_loss(W, b, y2, x, 4, 10, num_true=2, sampled_values=sv2),
           [5.552253723144531, 1.7345876693725586, 3.3095107078552246])


def test_tensorflows_sampler_for_a_seed_and_an_accidental_hit(t):
    W, b, x, y, _ = t
    tf.random.set_seed(5)
    _close(tf.nn.sampled_softmax_loss(W, b, y, x, 3, 10, seed=2),  # samples 0, 6, 1: class 1 is a hit
           [1.3529831171035767, 0.8867351412773132, 0.30263790488243103])
    _close(tf.nn.nce_loss(W, b, y, x, 3, 10),  # the op seed after the sampler's and compute_accidental_hits'
           [5.351404666900635, 5.196334362030029, 2.9553749561309814])


def test_gradients(t):
    W, b, x, y, sv = t
    wv, bv = tf.Variable(W), tf.Variable(b)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.sampled_softmax_loss(wv, bv, y, x, 4, 10, sampled_values=sv))
    gw, gb = tape.gradient(loss, [wv, bv])
    _close(tf.convert_to_tensor(gw), [
        [-0.02658309, 0.19569676, 0.017758898, 0.13496034], [0.8939225, -0.3862354, 0.50992435, 1.1785965],
        [-0.031234605, 0.029071279, -0.021861779, 0.010125824], [0, 0, 0, 0],
        [0.024850825, -0.37769902, -0.058654256, -0.26671687], [-1.1978685, 0.23526391, -0.8387115, -1.2722033],
        [0, 0, 0, 0], [0.42660952, 0.2439594, 0.45225924, 0.24181531], [0, 0, 0, 0],
        [-0.0896968, 0.059943043, -0.060714975, -0.026577812]])
    _close(tf.convert_to_tensor(gb), [0.4934208393096924, -0.9982756972312927, 0.13982947170734406, 0.0,
                                      -0.8817905783653259, 1.6374670267105103, 0.0, -0.672544002532959, 0.0,
                                      0.2818930149078369])
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.nn.nce_loss(W, b, y, x, 4, 10, sampled_values=sv))
    _close(tape.gradient(loss, x), [
        [-3.3834877014160156, 2.4096920490264893, -0.23262780904769897, -0.4654940962791443],
        [0.09851652383804321, 2.0484085083007812, 1.198132872581482, 2.433469295501709],
        [-1.652945876121521, 1.0172327756881714, 0.7603092193603516, 0.009402275085449219]])


def test_compute_accidental_hits_is_tensorflows_named_tuple(t):
    _, _, _, y, _ = t
    hits = tf.nn.compute_accidental_hits(y, tf.constant([0, 6, 1], tf.int64), 1)
    assert type(hits).__name__ == "ComputeAccidentalHits" and hits.ids.numpy().tolist() == [2]
    assert hits.indices.numpy().tolist() == [0] and hits.weights.numpy()[0] == np.finfo(np.float32).min
