"""The preprocessing-layer cases both sides run (tests/keras_layers/capture_preprocessing.py under
Keras, tests/test_keras_preprocessing.py under devtrace): each a function of ``keras`` and ``np``
returning what is compared (arrays, or lists such as a vocabulary)."""

import numpy as np

IMG = (np.arange(2 * 6 * 8 * 3).reshape(2, 6, 8, 3) % 11).astype("float32")
TEXT = ["The cat sat on the mat.", "The dog ate my homework!", "a CAT, a dog; THE end", "cat"]


def _adapted(keras, layer, data):
    layer.adapt(data)
    return layer


CASES = {
    "rescaling": lambda keras: keras.layers.Rescaling(1 / 127.5, offset=-1)(np.arange(6, dtype="uint8").reshape(1, 6)),
    "resizing": lambda keras: keras.layers.Resizing(4, 5)(IMG),
    "resizing_nearest": lambda keras: keras.layers.Resizing(3, 4, interpolation="nearest")(IMG),
    "resizing_crop": lambda keras: keras.layers.Resizing(4, 4, crop_to_aspect_ratio=True)(IMG),
    "center_crop": lambda keras: keras.layers.CenterCrop(4, 5)(IMG),
    "center_crop_up": lambda keras: keras.layers.CenterCrop(8, 8)(IMG),
    "normalization_adapt": lambda keras: _adapted(keras, keras.layers.Normalization(),
                                                  np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]))(
        np.array([[3.0, 4.0], [0.0, 1.0]])),
    "normalization_axis_none": lambda keras: _adapted(keras, keras.layers.Normalization(axis=None),
                                                      np.arange(12.0).reshape(3, 4))(np.array([[0.0, 6.0]])),
    "normalization_given": lambda keras: keras.layers.Normalization(mean=[1.0, 2.0], variance=[4.0, 9.0])(
        np.array([[3.0, 8.0]])),
    "normalization_invert": lambda keras: keras.layers.Normalization(mean=2.0, variance=4.0, invert=True)(
        np.array([[1.0, -1.0]])),
    "normalization_batches": lambda keras: _adapted(keras, keras.layers.Normalization(),
                                                    [np.arange(6.0).reshape(3, 2), np.arange(4.0).reshape(2, 2) * 3])(
        np.array([[1.0, 1.0]])),
    "category_one_hot": lambda keras: keras.layers.CategoryEncoding(4, output_mode="one_hot")([3, 2, 0, 1]),
    "category_count": lambda keras: keras.layers.CategoryEncoding(4, output_mode="count")([[0, 1, 1], [2, 2, 3]]),
    "discretization": lambda keras: keras.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])(
        np.array([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])),
    "hashing": lambda keras: keras.layers.Hashing(num_bins=5)(np.array([["A"], ["B"], ["C"], ["D"], ["E"]])),
    "hashing_mask": lambda keras: keras.layers.Hashing(num_bins=4, mask_value="")(np.array(["A", "", "C", "D"])),
    "hashing_int": lambda keras: keras.layers.Hashing(num_bins=7)(np.array([[3, 40], [-1, 7]])),
    "string_lookup": lambda keras: keras.layers.StringLookup(vocabulary=["a", "b", "c", "d"])(
        np.array([["a", "c", "d"], ["d", "z", "b"]])),
    "string_lookup_adapt_vocab": lambda keras: _adapted(keras, keras.layers.StringLookup(),
                                                        np.array([["b", "a", "c"], ["b", "c", "d"]])).get_vocabulary(),
    "string_lookup_mask": lambda keras: keras.layers.StringLookup(vocabulary=["a", "b"], mask_token="")(
        np.array(["a", "", "b", "q"])),
    "string_lookup_invert": lambda keras: keras.layers.StringLookup(vocabulary=["a", "b", "c"], invert=True)(
        np.array([[1, 3, 0]])),
    "string_lookup_multi_hot": lambda keras: keras.layers.StringLookup(vocabulary=["a", "b", "c"],
                                                                       output_mode="multi_hot")(
        np.array([["a", "c"], ["z", "z"]])),
    "string_lookup_count": lambda keras: keras.layers.StringLookup(vocabulary=["a", "b"], output_mode="count")(
        np.array([["a", "a", "x"], ["b", "x", "x"]])),
    "integer_lookup": lambda keras: keras.layers.IntegerLookup(vocabulary=[12, 36, 1138, 42])(
        np.array([[12, 1138, 42], [42, 1000, 36]])),
    "integer_lookup_adapt_vocab": lambda keras: [int(v) for v in _adapted(
        keras, keras.layers.IntegerLookup(), np.array([[5, 3, 5], [7, 3, 5]])).get_vocabulary()],
    "text_vocab": lambda keras: _adapted(keras, keras.layers.TextVectorization(), TEXT).get_vocabulary(),
    "text_int": lambda keras: _adapted(keras, keras.layers.TextVectorization(max_tokens=8), TEXT)(
        ["the cat ate the end", "zebra"]),
    "text_sequence_length": lambda keras: _adapted(keras, keras.layers.TextVectorization(output_sequence_length=4),
                                                   TEXT)(["the cat sat on the mat again", "dog"]),
    "text_multi_hot": lambda keras: _adapted(keras, keras.layers.TextVectorization(output_mode="multi_hot"), TEXT)(
        ["the cat", "unknown words here"]),
    "text_count": lambda keras: _adapted(keras, keras.layers.TextVectorization(output_mode="count", max_tokens=6),
                                         TEXT)(["the the cat dog", "a"]),
    "text_tf_idf": lambda keras: _adapted(keras, keras.layers.TextVectorization(output_mode="tf_idf"), TEXT)(
        ["the cat the", "dog"]),
    "text_lower_only": lambda keras: _adapted(keras, keras.layers.TextVectorization(standardize="lower"), TEXT)(
        ["the cat.", "a dog;"]),
    "text_vocab_given": lambda keras: keras.layers.TextVectorization(vocabulary=["x", "y"],
                                                                     output_sequence_length=3)(["y x w", "x"]),
}

SMALL = (np.arange(2 * 5 * 6 * 2).reshape(2, 5, 6, 2) * 7 % 23).astype("float32")


def _twice(layer):
    """Two calls of a seeded augmentation: the generator steps between them."""
    return [layer(SMALL), layer(SMALL)]


CASES.update({
    "random_flip": lambda keras: _twice(keras.layers.RandomFlip(seed=3)),
    "random_flip_horizontal": lambda keras: _twice(keras.layers.RandomFlip("horizontal", seed=11)),
    "random_rotation": lambda keras: _twice(keras.layers.RandomRotation(0.2, seed=5)),
    "random_rotation_constant_nearest": lambda keras: _twice(
        keras.layers.RandomRotation((-0.3, 0.1), fill_mode="constant", interpolation="nearest", fill_value=1.0,
                                    seed=8)),
    "random_zoom": lambda keras: _twice(keras.layers.RandomZoom(0.5, 0.2, seed=2)),
    "random_zoom_wrap": lambda keras: _twice(keras.layers.RandomZoom((-0.4, -0.1), fill_mode="wrap", seed=6)),
    "random_translation": lambda keras: _twice(keras.layers.RandomTranslation(0.2, 0.3, seed=4)),
    "random_translation_nearest_fill": lambda keras: _twice(
        keras.layers.RandomTranslation((-0.3, 0.3), 0.1, fill_mode="nearest", seed=9)),
    "random_contrast": lambda keras: _twice(keras.layers.RandomContrast(0.5, seed=1)),
    "random_brightness": lambda keras: _twice(keras.layers.RandomBrightness(0.3, value_range=(0, 20), seed=7)),
    "augment_in_model_call": lambda keras: keras.Sequential([keras.layers.RandomFlip(seed=12)])(SMALL),
    "augment_in_predict": lambda keras: keras.Sequential([keras.layers.RandomRotation(0.3, seed=12)]).predict(
        SMALL, verbose=0),
})

CASES.update({
    "random_crop": lambda keras: _twice(keras.layers.RandomCrop(3, 4, seed=2)),
    "random_crop_inference": lambda keras: keras.layers.RandomCrop(3, 4, seed=2)(SMALL, training=False),
    "group_normalization": lambda keras: keras.layers.GroupNormalization(groups=2)(
        np.arange(24.0).reshape(2, 3, 4)),
    "group_normalization_images": lambda keras: keras.layers.GroupNormalization(groups=1, epsilon=0.1)(SMALL),
})

_T = np.array([[1.0, 0.2, -1.0, 0.1, 0.9, 0.5, 0.0, 0.0], [0.8, 0.0, 1.0, 0.0, 1.2, -0.5, 0.0, 0.0]], "float32")

CASES.update({  # keras.ops.image
    "ops_rgb_to_grayscale": lambda keras: keras.ops.image.rgb_to_grayscale(IMG[..., :3] / 11.0),
    "ops_rgb_to_hsv": lambda keras: keras.ops.image.rgb_to_hsv(IMG / 11.0),
    "ops_hsv_to_rgb": lambda keras: keras.ops.image.hsv_to_rgb(IMG / 11.0),
    "ops_affine_transform": lambda keras: keras.ops.image.affine_transform(IMG, _T),
    "ops_affine_transform_reflect_nearest": lambda keras: keras.ops.image.affine_transform(
        IMG, _T, interpolation="nearest", fill_mode="reflect"),
    "ops_extract_patches": lambda keras: keras.ops.image.extract_patches(IMG, 2),
    "ops_extract_patches_strided": lambda keras: keras.ops.image.extract_patches(IMG, (3, 2), strides=(1, 3)),
    "ops_pad_images": lambda keras: keras.ops.image.pad_images(IMG, 1, 2, target_height=9, target_width=11),
    "ops_crop_images": lambda keras: keras.ops.image.crop_images(IMG, top_cropping=1, left_cropping=2,
                                                                 target_height=3, target_width=4),
})
