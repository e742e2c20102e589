"""Samples: tf.image's ops (resizes, colors, adjustments, boxes, patches) and the image codecs
(Pillow: skipped when it is not installed). References are NumPy's where a line computes them,
TensorFlow 2.21's values otherwise."""

import importlib.util

import numpy as np

import devtrace as tf

from . import Sample
from .math import t

IMG = (np.arange(1 * 4 * 4 * 3, dtype=np.float32).reshape(1, 4, 4, 3) % 7) / 7
RGB = np.array([[[0.2, 0.4, 0.6], [0.9, 0.1, 0.1]]], np.float32)
HSV = np.array([[[0.5833333, 0.6666666, 0.6], [0.0, 0.8888889, 0.9]]], np.float32)  # TensorFlow's RGBToHSV of RGB
U8 = (np.arange(4 * 4 * 3).reshape(4, 4, 3) * 37 % 256).astype(np.uint8)
BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 10, 1, 11]], np.float32)
SCORES = np.array([0.9, 0.75, 0.95], np.float32)


IMAGE = [
    Sample("ResizeBilinear", lambda: tf.image.resize(t(IMG), [2, 2]),
           IMG.reshape(1, 2, 2, 2, 2, 3).mean(axis=(2, 4))),
    Sample("ResizeNearestNeighbor", lambda: tf.image.resize(t(IMG), [2, 2], method="nearest"), IMG[:, 1::2, 1::2]),
    Sample("ResizeBicubic", lambda: tf.image.resize(t(IMG), [4, 4], method="bicubic"), IMG, "CPU"),
    Sample("ResizeArea", lambda: tf.image.resize(t(IMG), [2, 2], method="area"),
           IMG.reshape(1, 2, 2, 2, 2, 3).mean(axis=(2, 4)), "CPU"),
    Sample("ScaleAndTranslate", lambda: tf.image.resize(t(IMG), [4, 4], method="lanczos3"), IMG, "CPU"),
    Sample("RGBToHSV", lambda: tf.image.rgb_to_hsv(t(RGB)), HSV),
    Sample("HSVToRGB", lambda: tf.image.hsv_to_rgb(t(HSV)), RGB),
    Sample("AdjustHue", lambda: tf.image.adjust_hue(t(RGB), 1.0), RGB),
    Sample("AdjustSaturation", lambda: tf.image.adjust_saturation(t(RGB), 0.0),
           np.repeat(RGB.max(axis=-1, keepdims=True), 3, axis=-1)),
    Sample("AdjustContrastv2", lambda: tf.image.adjust_contrast(t(IMG), 0.0),
           np.broadcast_to(IMG.mean(axis=(1, 2), keepdims=True), IMG.shape)),
    Sample("DrawBoundingBoxesV2", lambda: tf.image.draw_bounding_boxes(t(np.zeros((1, 3, 3, 1), np.float32)),
                                                                       [[[0, 0, 1, 1]]], [[1.0]]),
           np.array([[[1], [1], [1]], [[1], [0], [1]], [[1], [1], [1]]], np.float32)[None], "CPU"),
    Sample("CropAndResize", lambda: tf.image.crop_and_resize(t(IMG), [[0, 0, 1, 1]], [0], [4, 4]), IMG),
    # TensorFlow 2.21's output for these boxes and two classes (CPU only)
    Sample("CombinedNonMaxSuppression", lambda: tf.image.combined_non_max_suppression(
        t(np.array([[[[0, 0, 1, 1]], [[0, 0.1, 1, 1.1]], [[0, 2, 1, 3]]]], np.float32)),
        t(np.array([[[0.9, 0.1], [0.8, 0.7], [0.3, 0.6]]], np.float32)), 2, 3),
        [np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1], [0, 1, 1, 1]]], np.float32),
         np.array([[0.9, 0.7, 0.6]], np.float32), np.array([[0, 1, 1]], np.float32), np.array([3], np.int32)], "CPU"),
    Sample("NonMaxSuppressionV3", lambda: tf.image.non_max_suppression(t(BOXES), t(SCORES), 3, 0.5),
           np.array([2, 0], np.int32)),
    Sample("NonMaxSuppressionV5", lambda: tf.image.non_max_suppression_with_scores(t(BOXES), t(SCORES), 3, 0.5),
           [np.array([2, 0], np.int32), np.array([0.95, 0.9], np.float32)], "CPU"),
    Sample("NonMaxSuppressionWithOverlaps",
           lambda: tf.image.non_max_suppression_overlaps(t(np.eye(3, dtype=np.float32)), t(SCORES), 3, 0.5),
           np.array([2, 0, 1], np.int32), "CPU"),
    Sample("ExtractImagePatches", lambda: tf.image.extract_patches(t(IMG), [1, 1, 1, 1], [1, 2, 2, 1], [1, 1, 1, 1],
                                                                   "VALID"), IMG[:, ::2, ::2]),
    Sample("ExtractGlimpseV2", lambda: tf.image.extract_glimpse(t(IMG), [2, 2], [[1, 1]], centered=False,
                                                                normalized=False), IMG[:, 1:3, 1:3], "CPU"),
]


def _png():
    return tf.io.encode_png(t(U8))


def _jpeg():
    return tf.io.encode_jpeg(t(U8), quality=100)


def _decoded_u8(got):
    return got.shape == U8.shape and got.dtype == np.uint8


CODECS = [
    Sample("EncodePng", lambda: tf.io.decode_png(_png()), U8, "CPU"),
    Sample("DecodePng", lambda: tf.io.decode_png(_png()), U8, "CPU"),
    Sample("DecodeImage", lambda: tf.io.decode_image(_png()), U8, "CPU"),
    Sample("EncodeJpeg", lambda: tf.io.decode_jpeg(_jpeg()), _decoded_u8, "CPU"),
    Sample("DecodeJpeg", lambda: tf.io.decode_jpeg(_jpeg()), _decoded_u8, "CPU"),
    Sample("EncodeJpegVariableQuality", lambda: tf.image.adjust_jpeg_quality(t(U8), 90), _decoded_u8, "CPU"),
    Sample("ExtractJpegShape", lambda: tf.io.extract_jpeg_shape(_jpeg()), np.array([4, 4, 3], np.int32), "CPU"),
    Sample("DecodeBmp", lambda: tf.io.decode_bmp(_encoded("BMP")), U8, "CPU"),
    Sample("DecodeGif", lambda: tf.io.decode_gif(_encoded("GIF")), lambda got: got.shape == (1, 4, 4, 3), "CPU"),
    Sample("DecodeWebP", lambda: tf.io.decode_webp(_encoded("WEBP")), U8[None], "CPU"),
]


def _encoded(fmt):
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(U8).save(out, format=fmt, **({"lossless": True} if fmt == "WEBP" else {}))
    return out.getvalue()


SAMPLES = IMAGE + (CODECS if importlib.util.find_spec("PIL") is not None else [])
