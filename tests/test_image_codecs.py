"""tf.io/tf.image's PNG and JPEG codecs (Pillow, the optional ``image`` extra) against TensorFlow
2.21's bytes and values (tests/tf221_image/codecs.json)."""

import base64
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import devtrace as tf

pytest.importorskip("PIL")
with open(os.path.join(os.path.dirname(__file__), "tf221_image", "codecs.json"), encoding="utf-8") as f:
    CAPTURE = json.load(f)
CASES = CAPTURE["cases"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['image']}-q{c['quality']}")
def test_encode_jpeg_writes_tensorflows_bytes(case):
    image = np.array(CAPTURE[case["image"]], np.uint8)
    assert tf.io.encode_jpeg(image, quality=case["quality"]).numpy() == base64.b64decode(case["jpeg"])


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['image']}-q{c['quality']}")
def test_decode_jpeg_values(case):
    data = base64.b64decode(case["jpeg"])
    accurate = tf.io.decode_jpeg(data, dct_method="INTEGER_ACCURATE").numpy()
    np.testing.assert_array_equal(accurate, case["decoded"]["accurate"])
    np.testing.assert_array_equal(tf.io.decode_jpeg(data, fancy_upscaling=False).numpy(), case["decoded"]["no_fancy"])
    default = tf.io.decode_jpeg(data).numpy().astype(int)
    if case["image"] == "small":  # one chroma sample: TensorFlow's default decoder exactly
        np.testing.assert_array_equal(default, case["decoded"]["default"])
    else:  # TensorFlow's default (the fast IDCT, then fancy upsampling) has no Pillow equivalent:
        # devtrace decodes as INTEGER_ACCURATE does
        np.testing.assert_array_equal(default, accurate)


def test_png_round_trip_and_is_jpeg():
    image = np.array(CAPTURE["big"], np.uint8)
    png = tf.io.encode_png(image)
    assert png.dtype == tf.string and png.shape == ()
    np.testing.assert_array_equal(tf.io.decode_png(png).numpy(), image)
    np.testing.assert_array_equal(tf.image.decode_image(png, channels=1).numpy().shape, (32, 32, 1))
    assert not bool(tf.io.is_jpeg(png)) and bool(tf.io.is_jpeg(tf.io.encode_jpeg(image)))
    sixteen = (np.arange(12, dtype=np.uint16) * 5000).reshape(3, 4, 1)
    np.testing.assert_array_equal(tf.io.decode_png(tf.io.encode_png(sixteen), dtype=tf.uint16).numpy(), sixteen)


def test_undecodable_bytes_fail_as_tensorflow_fails():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"__wrapped__DecodePng_device_/job:localhost/replica:0/task:0/device:CPU:0\}\} Unknown "
                             r"image file format\. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required\. \[Op:DecodePng\]"):
        tf.io.decode_png(b"not an image")


def test_without_pillow_a_codec_fails_in_one_line_saying_how_to_install_it():
    code = ("import sys; sys.modules['PIL'] = None\nimport devtrace as tf\n"
            "try:\n    tf.io.encode_png(tf.zeros([2, 2, 1], tf.uint8))\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout == "devtrace's image codecs need Pillow, which is not installed: pip install 'devtrace[image]'\n"


def test_bmp_gif_webp_decode_to_tensorflows_shapes():
    from PIL import Image
    import io

    image = (np.arange(5 * 4 * 3).reshape(5, 4, 3) * 9 % 256).astype(np.uint8)
    encoded = {}
    for fmt in ("BMP", "GIF", "WEBP"):
        out = io.BytesIO()
        Image.fromarray(image).save(out, format=fmt, **({"lossless": True} if fmt == "WEBP" else {}))
        encoded[fmt] = out.getvalue()
    # TensorFlow 2.21: decode_bmp (5, 4, 3); decode_gif and decode_webp a frame axis, (1, 5, 4, 3)
    np.testing.assert_array_equal(tf.io.decode_bmp(encoded["BMP"]).numpy(), image)
    assert tf.io.decode_gif(encoded["GIF"]).shape.as_list() == [1, 5, 4, 3]
    np.testing.assert_array_equal(tf.io.decode_webp(encoded["WEBP"]).numpy(), image[None])
    jpeg = tf.io.encode_jpeg(image)
    assert tf.io.extract_jpeg_shape(jpeg).numpy().tolist() == [5, 4, 3]
    window = tf.io.decode_and_crop_jpeg(jpeg, [1, 1, 2, 2], dct_method="INTEGER_ACCURATE")
    np.testing.assert_array_equal(window.numpy(), tf.io.decode_jpeg(jpeg, dct_method="INTEGER_ACCURATE")[1:3, 1:3])
