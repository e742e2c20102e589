"""tf.random's samplers and tf.random.Generator: TensorFlow's values (more in the oracle programs
random_samplers, random_generator), where the ops run, and what devtrace refuses."""

import numpy as np
import pytest

import devtrace as tf
from devtrace.devices import simulated
from devtrace.devices.physical import CPUInfo, Machine
from devtrace.ops.math import libm
from devtrace.ops.random import philox, samplers
from devtrace.runtime.context import reset_context
from devtrace.trace import events as ev

FULL = "/job:localhost/replica:0/task:0/device:"


def machine(spec=None):
    gpus = tuple(simulated.parse_simulate(spec)) if spec else ()
    return reset_context(Machine(CPUInfo("cpu", 2, 1 << 34), gpus, gpus, "simulated" if gpus else "cpu"), env={})


def placed(ctx, op):
    return [(e.device, e.reason) for e in ctx.trace.events if isinstance(e, ev.OpPlaced) and e.op == op]


def test_samplers_without_a_gpu_kernel_fall_back_to_the_cpu():
    ctx = machine("1")
    tf.random.shuffle(tf.range(5), seed=1)
    tf.random.gamma([2], 2.0, seed=1)
    tf.random.poisson([2], 2.0, seed=1)
    tf.random.stateless_poisson([2], [1, 2], 2.0)
    tf.random.stateless_binomial([2], [1, 2], 5.0, 0.5)
    tf.random.experimental.stateless_shuffle(tf.range(4), [1, 2])
    for op in ("RandomShuffle", "RandomGamma", "RandomPoissonV2", "StatelessRandomPoisson", "StatelessRandomBinomial",
               "StatelessShuffle"):
        assert placed(ctx, op) == [(f"{FULL}CPU:0", "fallback:no-GPU-kernel")], op
    tf.random.categorical([[0.0, 1.0]], 3, seed=1)
    tf.random.stateless_gamma([2], [1, 2], 2.0)
    assert placed(ctx, "Multinomial") == [(f"{FULL}GPU:0", "default")]
    assert placed(ctx, "StatelessRandomGammaV3") == [(f"{FULL}GPU:0", "default")]


def test_generator_draws_run_tensorflows_ops_on_the_state_variables_device():
    ctx = machine("1")
    g = tf.random.Generator.from_seed(1234)
    assert g.normal([2]).numpy().tolist() == tf.random.Generator.from_seed(1234).normal([2]).numpy().tolist()
    assert placed(ctx, "RngReadAndSkip")[0] == (f"{FULL}GPU:0", "resource")
    assert [e.op for e in ctx.trace.events if isinstance(e, ev.OpPlaced)].count("StatelessRandomNormalV2") == 2
    assert g.state.numpy().tolist() == [1234 + 2 * 256, 0, 0]  # RngReadAndSkip moved the variable's buffer
    assert g.skip(3).numpy().tolist() == [1234 + 2 * 256, 0, 0] and int(g.state.numpy()[0]) == 1234 + 5 * 256


def test_generator_draws_inside_tf_function_move_the_state_each_call():
    """The traced RngReadAndSkip node reads and moves the state on every call (TF 2.21's values)."""
    machine()
    g = tf.random.Generator.from_seed(1)

    @tf.function
    def draw():
        return g.normal([2])

    first, second = draw(), draw()
    assert first.numpy().tolist() == [0.4384227395057678, -0.5343984365463257]
    assert second.numpy().tolist() == [1.6307176351547241, 0.007847783155739307]
    assert g.state.numpy().tolist() == [1 + 4 * 256, 0, 0]

    @tf.function
    def binomial():
        return g.binomial([2], 5.0, 0.5)

    with pytest.raises(NotImplementedError, match="Generator.binomial inside tf.function"):
        binomial()


def test_samples_of_each_parameter_fill_its_column():
    """Outputs are drawn parameter by parameter, laid out with the parameters last (shape + params)."""
    machine()
    for out in (tf.random.stateless_poisson([4, 2], [3, 4], lam=[1.0, 1000.0]),
                tf.random.stateless_gamma([4, 2], [3, 4], alpha=[0.01, 1000.0]),
                tf.random.stateless_binomial([4, 2], [3, 4], counts=[2.0, 2000.0], probs=0.5),
                tf.random.poisson([4], [1.0, 1000.0], seed=2)):
        values = out.numpy().astype(float)
        assert values.shape == (4, 2) and (values[:, 0] < 10).all() and (values[:, 1] > 800).all()


def test_categorical_never_draws_a_class_of_minus_infinite_logit():
    machine()
    out = tf.random.stateless_categorical([[0.0, float("-inf"), 0.0]], 200, [5, 6]).numpy()
    assert set(out.reshape(-1).tolist()) == {0, 2}


def test_uniform_words_into_bfloat16_keep_7_mantissa_bits():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    key, counter = philox.key_counter(1, 2)
    values = philox.uniform(key, counter, 3, ml_dtypes.bfloat16)
    assert values.astype(np.float32).tolist() == [0.34375, 0.8828125, 0.484375]  # TensorFlow 2.21's


def test_eager_variables_are_unhashable_graph_variables_are_not():
    machine()
    v = tf.Variable(1.0)
    with pytest.raises(TypeError, match=r"Variable is unhashable. Instead, use variable.ref\(\) as the key."):
        hash(v)
    assert {v.ref(): 1}[v.ref()] == 1 and v.ref().deref() is v
    with tf.compat.v1.Graph().as_default():
        graph_variable = tf.compat.v1.Variable(1.0)
        assert {graph_variable: 1}[graph_variable] == 1


def test_assignments_return_the_variable_unread():
    machine()
    v = tf.Variable(1.0, name="v")
    unread = v.assign(2.0)
    v.assign_add(3.0)
    assert type(unread).__name__ == "_UnreadVariable" and unread.name == "UnreadVariable"
    assert float(unread.numpy()) == 5.0 and float(unread.assign_sub(1.0).numpy()) == 4.0 and float(v.numpy()) == 4.0


def test_categorical_rows_run_in_tensorflows_shards():
    """Eigen's blocks for TensorFlow's cost estimate: a shard starting at row s reads its stream
    from block s * (num_samples + 3) // 4 (TensorFlow 2.21's row sums, 2 worker threads)."""
    assert samplers.shards(8, 15999, 2) == [(0, 8)]  # too cheap to split
    assert samplers.shards(14, 15999, 2) == [(0, 4), (4, 8), (8, 12), (12, 14)]
    assert samplers.shards(50, 15999, 2) == [(0, 7), (7, 14), (14, 21), (21, 28), (28, 35), (35, 42), (42, 49), (49, 50)]
    key, counter = philox.key_counter(5, 6)
    out = samplers.multinomial(key, counter, np.log(np.array([[0.1, 0.2, 0.7]] * 14, np.float32)), 200, threads=2)
    assert out.sum(axis=1).tolist() == [310, 305, 327, 318, 325, 318, 307, 326, 310, 320, 325, 302, 324, 298]


def test_float32_math_rounds_as_the_c_library():
    """logf is off by up to ~0.8 ulp near 1: TensorFlow's normals carry its rounding, not the exact one."""
    u = np.array([0.9796319, 0.98527503], np.float32)
    if libm._C.get("logf") is None:
        pytest.skip("no C math library")
    assert libm.f32("log", u).tolist() == [np.float32(-0.020578388), np.float32(-0.014834459)]
    assert np.log(u.astype(np.float64)).astype(np.float32).tolist() != libm.f32("log", u).tolist()


def test_compat_v1_random_has_tensorflow_1s_names():
    machine()
    v1 = tf.compat.v1
    assert v1.random.uniform is tf.random.uniform and v1.random.set_random_seed is tf.random.set_seed
    assert v1.random.multinomial([[0.0, 0.0]], 3, seed=1).shape == (1, 3)
    assert v1.random.poisson([4.0, 40.0], [3], seed=5).shape == (3, 2)  # TensorFlow 1 takes the rate first
    with pytest.raises(AttributeError, match="^module 'tensorflow._api.v2.compat.v1.random' has no attribute 'nope'$"):
        v1.random.nope  # TensorFlow 2.21's words: it has no such name either


def test_a_constant_made_while_tracing_is_not_cached_for_eager_use():
    """A stateless op traced in a tf.function converts its algorithm (1) in the graph: eager
    ops after it must not get that symbolic constant from the scalar cache."""
    machine()

    @tf.function
    def traced():
        return tf.random.stateless_normal([2], [1, 2])

    traced()
    g = tf.random.Generator.from_seed(1)
    assert g.normal([2]).numpy().tolist() == [0.4384227395057678, -0.5343984365463257]


def test_a_learned_sampler_learns_until_set_seed_clears_the_kernels():
    """TensorFlow 2.21: the kernel's unigram counts grow with the true classes it saw; set_seed
    clears the kernel cache, so the counts start again."""
    machine()
    true = tf.constant([[1, 2], [3, 4]], tf.int64)

    def expected():
        return tf.random.learned_unigram_candidate_sampler(true, 2, 4, False, 6, seed=2).sampled_expected_count

    first, second = expected().numpy().tolist(), expected().numpy().tolist()
    tf.random.set_seed(None)
    assert first == [np.float32(2 / 3)] * 4 and second == [np.float32(0.4), np.float32(0.8), np.float32(0.8),
                                                           np.float32(0.4)]
    assert expected().numpy().tolist() == first


def test_graph_nodes_with_the_same_seeds_are_kernels_of_their_own():
    """TensorFlow 2.21: two seeded nodes of a function draw the same values, and each goes on
    from its own previous draw at the next call; the eager kernel shares one stream."""
    machine()

    @tf.function
    def pair():
        return tf.random.normal([2], seed=1), tf.random.normal([2], seed=1)

    first, second = pair(), pair()
    assert first[0].numpy().tolist() == first[1].numpy().tolist() == [np.float32(-0.8113182), np.float32(1.4845988)]
    assert second[0].numpy().tolist() == second[1].numpy().tolist() == [np.float32(1.3587774),
                                                                         np.float32(0.5417413)]
    eager = [tf.random.normal([2], seed=1).numpy().tolist() for _ in range(2)]
    assert eager == [first[0].numpy().tolist(), second[0].numpy().tolist()]


def test_the_c_librarys_math_in_the_native_loop_equals_the_per_value_calls(monkeypatch):
    """``libm``'s elementwise loop in ``_fastpath.c`` (what makes a million normals take a second, not
    twenty) gives the C library's values bit for bit, as the per-value ctypes calls do."""
    from devtrace.ops.math import libm

    if libm._native() is None:
        pytest.skip("the C module is not in use here")
    rng = np.random.default_rng(0)
    x32 = rng.uniform(1e-7, 7.0, 20000).astype(np.float32)
    x64 = rng.uniform(1e-7, 7.0, 20000)
    native = {name: (libm.f32(name, x32), libm.f64(name, x64)) for name in ("log", "sin", "cos")}
    monkeypatch.setattr(libm, "_native", lambda: None)
    for name, (f32, f64) in native.items():
        assert libm.f32(name, x32).tobytes() == f32.tobytes()
        assert libm.f64(name, x64).tobytes() == f64.tobytes()


@pytest.mark.skipif(philox._native() is None, reason="the C module is not built (pure Python)")
def test_the_c_philox_and_box_muller_equal_the_numpy_ones_bit_for_bit(monkeypatch):
    idx = np.arange(3, 50_003, dtype=np.uint64)
    cases = [(0x1234567890ABCDEF, (2**64 - 7, 5)), (2**64 - 1, (2**63, 2**64 - 1)), (0, (0, 0))]
    native = [philox.blocks_at(key, ctr, idx) for key, ctr in cases]
    words = philox.stream(0xC0FFEE, (11, 0), 100_000)
    words[:8] = 0  # u1 below 1e-7: clamped
    words[8:16] = 0xFFFFFFFF
    normals = philox.box_muller(words, np.float32)
    monkeypatch.setattr(philox, "_native", lambda name="": None)
    for (key, ctr), got in zip(cases, native):
        assert np.array_equal(got, philox.blocks_at(key, ctr, idx))
    assert np.array_equal(normals.view(np.uint32), philox.box_muller(words, np.float32).view(np.uint32))
