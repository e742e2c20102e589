"""tf.image: resize values against TensorFlow 2.21's (tests/tf221_image/), and its ops placed and
logged as TensorFlow places and logs them."""

import json
import os

import numpy as np
import pytest

import devtrace as tf
from conftest import devtrace

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "tf221_image", "resize.json"), encoding="utf-8") as f:
    CAPTURE = json.load(f)
FULL = "/job:localhost/replica:0/task:0/device:"


def _case_id(case):
    return f"{case['method']}-{'aa' if case['antialias'] else 'plain'}-{case['size'][0]}x{case['size'][1]}" + (
        "-uint8" if case.get("uint8") else "")


@pytest.mark.parametrize("case", CAPTURE["cases"], ids=_case_id)
def test_resize_values_match_tensorflow(case):
    source = np.array(CAPTURE["uint8"], np.uint8) if case.get("uint8") else np.array(CAPTURE["image"], np.float32)
    out = tf.image.resize(source, case["size"], method=case["method"], antialias=case["antialias"])
    assert out.dtype.name == case["dtype"]
    np.testing.assert_allclose(out.numpy(), np.array(case["out"]), rtol=0, atol=1e-4)


def test_resize_keeps_a_single_image_unbatched_and_preserves_aspect_ratio():
    image = np.zeros((5, 5, 1), np.float32)
    assert tf.image.resize(image, [3, 5]).shape.as_list() == [3, 5, 1]
    assert tf.image.resize(image[None], [10, 20], preserve_aspect_ratio=True).shape.as_list() == [1, 10, 10, 1]
    with pytest.raises(ValueError, match="Resize method is not implemented: cubic"):
        tf.image.resize(image, [2, 2], method="cubic")


def test_image_ops_log_as_tensorflow_logs_them(tmp_path):
    # TensorFlow 2.21 (CPU) logs exactly these lines for this program (tf.debugging.set_log_device_placement)
    program = tmp_path / "image.py"
    program.write_text(
        "import numpy as np\nimport tensorflow as tf\n"
        "x = tf.constant(np.ones((1, 4, 4, 1), np.float32))\n"
        "a = tf.image.resize(x, [2, 2])\n"
        "b = tf.image.resize(x, [2, 2], method='area')\n"
        "c = tf.image.flip_left_right(x)\n"
        "d = tf.image.adjust_contrast(x, 2.)\n")
    r = devtrace("run", str(program), "--log-placement")
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stderr.splitlines() if line.startswith("Executing op")]
    ops = ["_EagerConst", "_EagerConst", "ResizeBilinear", "_EagerConst", "ResizeArea", "_EagerConst", "ReverseV2",
           "_EagerConst", "AdjustContrastv2", "Identity"]
    assert lines == [f"Executing op {op} in device {FULL}CPU:0" for op in ops]


def test_an_op_without_a_gpu_kernel_runs_on_the_cpu_beside_a_gpu(tmp_path):
    program = tmp_path / "image.py"
    program.write_text(
        "import numpy as np\nimport tensorflow as tf\n"
        "x = tf.constant(np.ones((1, 4, 4, 1), np.float32))\n"
        "a = tf.image.resize(x, [2, 2])\n"
        "b = tf.image.resize(x, [2, 2], method='area')\n")
    r = devtrace("run", str(program), "--log-placement", "--simulate", "1")
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stderr.splitlines() if line.startswith("Executing op Resize")]
    assert lines == [f"Executing op ResizeBilinear in device {FULL}GPU:0",
                     f"Executing op ResizeArea in device {FULL}CPU:0"]


def test_color_conversions_round_trip_and_match_tensorflow_values():
    rgb = np.array([[[0.2, 0.4, 0.6], [0.9, 0.1, 0.1], [0.5, 0.5, 0.5]]], np.float32)
    hsv = tf.image.rgb_to_hsv(rgb)
    # TensorFlow 2.21: tf.image.rgb_to_hsv of this image
    np.testing.assert_allclose(hsv.numpy(), [[[0.5833333, 0.6666666, 0.6], [0.0, 0.8888889, 0.9], [0.0, 0.0, 0.5]]],
                               atol=1e-6)
    np.testing.assert_allclose(tf.image.hsv_to_rgb(hsv).numpy(), rgb, atol=1e-6)
    np.testing.assert_allclose(tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(rgb)).numpy(), rgb, atol=1e-5)


with open(os.path.join(HERE, "tf221_image", "ops.json"), encoding="utf-8") as f:
    OPS = json.load(f)


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_crop_and_resize_matches_tensorflow(method):
    out = tf.image.crop_and_resize(np.array(OPS["image"], np.float32), np.array(OPS["boxes"], np.float32),
                                   [0, 1, 1, 0], [4, 5], method=method, extrapolation_value=-1.0)
    np.testing.assert_allclose(out.numpy(), OPS["crops"][method], rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("threshold", ["0.0", "0.5", "1.0"])
def test_non_max_suppression_matches_tensorflow(threshold):
    out = tf.image.non_max_suppression(np.array(OPS["nms_boxes"], np.float32), np.array(OPS["nms_scores"], np.float32),
                                       5, float(threshold))
    assert out.dtype == tf.int32 and out.numpy().tolist() == OPS["nms"][threshold]


@pytest.mark.parametrize("case", OPS["patches"], ids=lambda c: c["args"][-1])
def test_extract_patches_matches_tensorflow(case):
    out = tf.image.extract_patches(np.array(OPS["image"], np.float32), *case["args"])
    np.testing.assert_array_equal(out.numpy(), case["out"])


def test_sobel_edges_match_tensorflow():
    out = tf.image.sobel_edges(tf.constant(np.array(OPS["image"], np.float32)))
    assert out.shape.as_list() == [2, 6, 7, 3, 2]
    np.testing.assert_allclose(out.numpy(), OPS["sobel"], rtol=1e-5, atol=1e-3)


# TensorFlow 2.21: tf.image.extract_glimpse(np.arange(36.).reshape(1, 6, 6, 1), size, offsets, centered,
# normalized, noise='zero')[0, ..., 0]
GLIMPSES = [
    ([[1, 1]], False, False, (2, 3), [[7, 8, 9], [13, 14, 15]]),
    ([[1.6, 2.7]], False, False, (2, 2), [[8, 9], [14, 15]]),
    ([[0, 0]], True, False, (2, 3), [[21, 22, 23], [27, 28, 29]]),
    ([[1, 1]], True, False, (2, 2), [[28, 29], [34, 35]]),
    ([[0.5, 0.5]], False, True, (2, 3), [[21, 22, 23], [27, 28, 29]]),
    ([[0.1, 0.2]], True, True, (2, 2), [[14, 15], [20, 21]]),
    ([[0.5, -0.5]], True, True, (3, 3), [[18, 19, 20], [24, 25, 26], [30, 31, 32]]),
    ([[-1, 2]], False, False, (2, 3), [[0, 0, 0], [2, 3, 4]]),
]


@pytest.mark.parametrize("offsets,centered,normalized,size,want", GLIMPSES)
def test_extract_glimpse_matches_tensorflow(offsets, centered, normalized, size, want):
    image = np.arange(36, dtype=np.float32).reshape(1, 6, 6, 1)
    out = tf.image.extract_glimpse(image, size=size, offsets=offsets, centered=centered, normalized=normalized,
                                   noise="zero")
    assert out.numpy()[0, ..., 0].tolist() == want


def test_ssim_and_multiscale_ssim_match_tensorflow():
    rng = np.random.RandomState(0)
    a = rng.uniform(0, 1, (2, 32, 32, 3)).astype(np.float32)
    b = np.clip(a + rng.normal(0, 0.1, a.shape), 0, 1).astype(np.float32)
    # TensorFlow 2.21's values for these images
    np.testing.assert_allclose(tf.image.ssim(a, b, 1.0).numpy(), [0.9513027667999268, 0.9411290287971497], rtol=1e-5)
    u, v = (a * 255).astype(np.uint8), (b * 255).astype(np.uint8)
    np.testing.assert_allclose(tf.image.ssim(u, v, 255, filter_size=7).numpy(), [0.9499947428703308, 0.9430941939353943],
                               rtol=1e-5)
    big_a = a[:1].repeat(6, 1).repeat(6, 2)[:, :180, :180, :1]
    big_b = b[:1].repeat(6, 1).repeat(6, 2)[:, :180, :180, :1]
    np.testing.assert_allclose(tf.image.ssim_multiscale(big_a, big_b, 1.0).numpy(), [0.9431090950965881], rtol=1e-5)


def test_non_max_suppression_variants_match_tensorflow():
    boxes = np.array(OPS["nms_boxes"], np.float32)
    scores = np.array(OPS["nms_scores"], np.float32)
    # TensorFlow 2.21's results
    indices, kept_scores = tf.image.non_max_suppression_with_scores(boxes, scores, 5, 0.5)
    assert indices.numpy().tolist() == [3, 0, 5]
    np.testing.assert_array_equal(kept_scores.numpy(), scores[[3, 0, 5]])
    indices, count = tf.image.non_max_suppression_padded(boxes, scores, 5, 0.5, pad_to_max_output_size=True)
    assert indices.numpy().tolist() == [3, 0, 5, 0, 0] and int(count) == 3
    overlaps = np.array([[1, 0.6, 0.1], [0.6, 1, 0.2], [0.1, 0.2, 1]], np.float32)
    assert tf.image.non_max_suppression_overlaps(overlaps, [0.5, 0.9, 0.7], 3, 0.5).numpy().tolist() == [1, 2]
    with pytest.raises(NotImplementedError, match="soft_nms_sigma"):
        tf.image.non_max_suppression_with_scores(boxes, scores, 5, soft_nms_sigma=0.5)


def test_image_ops_inside_a_function_build_tensorflows_nodes_and_values():
    x = tf.constant(np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3) / 96)

    @tf.function
    def f(x):
        return (tf.image.resize(x, [3, 5]), tf.image.flip_left_right(x), tf.image.adjust_contrast(x, 2.0),
                tf.image.rgb_to_hsv(x), tf.image.resize(x, [2, 2], method="area"))

    got = f(x)
    want = (tf.image.resize(x, [3, 5]), tf.image.flip_left_right(x), tf.image.adjust_contrast(x, 2.0),
            tf.image.rgb_to_hsv(x), tf.image.resize(x, [2, 2], method="area"))
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    types = [node.type for node in f.get_concrete_function(x).graph.get_operations()]
    assert [n for n in types if n not in ("Placeholder", "Const", "Identity")] == [
        "ResizeBilinear", "ReverseV2", "AdjustContrastv2", "RGBToHSV", "ResizeArea"]
