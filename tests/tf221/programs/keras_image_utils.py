# keras.utils's image helpers (array_to_img, img_to_array, save_img, load_img with color modes,
# target_size, keep_aspect_ratio) and the custom-object registry / is_keras_tensor under keras.utils.
import os
import tempfile

import numpy as np
import keras

rgb = (np.arange(4 * 6 * 3).reshape(4, 6, 3) * 3).astype("float32")
img = keras.utils.array_to_img(rgb)
print("array_to_img", img.mode, img.size, keras.utils.img_to_array(img)[0, :2].tolist())
print("unscaled", keras.utils.img_to_array(keras.utils.array_to_img(rgb, scale=False))[3, 5].tolist())
gray = keras.utils.array_to_img(np.arange(12, dtype="float32").reshape(3, 4, 1))
print("gray", gray.mode, keras.utils.img_to_array(gray).shape, keras.utils.img_to_array(gray).dtype)
print("channels_first", keras.utils.img_to_array(img, data_format="channels_first").shape)
path = os.path.join(tempfile.mkdtemp(), "x.png")
keras.utils.save_img(path, rgb)
loaded = keras.utils.load_img(path)
print("load", loaded.mode, loaded.size, keras.utils.img_to_array(loaded)[1, 1].tolist())
print("grayscale", keras.utils.load_img(path, color_mode="grayscale").mode)
small = keras.utils.load_img(path, target_size=(2, 3))
print("target_size", small.size, keras.utils.img_to_array(small)[1].tolist())
print("aspect", keras.utils.load_img(path, target_size=(4, 4), keep_aspect_ratio=True).size)
try:
    keras.utils.array_to_img(np.zeros((2, 2)))
except ValueError as e:
    print("ValueError", e)


@keras.utils.register_keras_serializable(package="kio")
class Scale(keras.layers.Layer):
    def call(self, x):
        return x * 2


print("registered", keras.utils.get_registered_name(Scale), "kio>Scale" in keras.utils.get_custom_objects())
print("is_keras_tensor", keras.utils.is_keras_tensor(keras.Input((2,))), keras.utils.is_keras_tensor(np.ones(2)))
