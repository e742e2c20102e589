"""``keras.preprocessing`` (Keras 3's legacy namespace): the dataset builders and helpers that live in
``keras.utils`` too, and ``image.ImageDataGenerator`` — its configuration as Keras keeps it; its
augmenting iterators (``flow`` …) are not implemented and say so."""

from __future__ import annotations

import warnings

from ..util.namespace import Namespace, missing
from . import config
from .dataset_utils import image_dataset_from_directory, text_dataset_from_directory, timeseries_dataset_from_array
from .image_utils import array_to_img, img_to_array, load_img, save_img
from .utils import pad_sequences


def _not_yet(name):
    def method(self, *args, **kwargs):
        raise AttributeError(f"devtrace does not implement keras.preprocessing.image.ImageDataGenerator.{name} yet")
    method.__name__ = name
    return method


class ImageDataGenerator:
    """Keras's deprecated image augmenter: the settings, checked and derived as Keras does."""

    def __init__(self, featurewise_center=False, samplewise_center=False, featurewise_std_normalization=False,
                 samplewise_std_normalization=False, zca_whitening=False, zca_epsilon=1e-6, rotation_range=0,
                 width_shift_range=0.0, height_shift_range=0.0, brightness_range=None, shear_range=0.0,
                 zoom_range=0.0, channel_shift_range=0.0, fill_mode="nearest", cval=0.0, horizontal_flip=False,
                 vertical_flip=False, rescale=None, preprocessing_function=None, data_format=None,
                 validation_split=0.0, interpolation_order=1, dtype=None):
        data_format = config.image_data_format() if data_format is None else data_format
        if data_format not in ("channels_last", "channels_first"):
            raise ValueError('`data_format` should be `"channels_last"` (channel after row and column) or '
                             f'`"channels_first"` (channel before row and column). Received: {data_format}')
        if validation_split and not 0 < validation_split < 1:
            raise ValueError(f"`validation_split` must be strictly between 0 and 1.  Received: {validation_split}")
        if isinstance(zoom_range, (float, int)):
            zoom_range = [1 - zoom_range, 1 + zoom_range]
        elif len(zoom_range) == 2 and all(isinstance(v, (float, int)) for v in zoom_range):
            zoom_range = [zoom_range[0], zoom_range[1]]
        else:
            raise ValueError("`zoom_range` should be a float or a tuple or list of two floats. "
                             f"Received: {zoom_range}")
        if brightness_range is not None and (not isinstance(brightness_range, (tuple, list))
                                             or len(brightness_range) != 2):
            raise ValueError(f"`brightness_range should be tuple or list of two floats. Received: {brightness_range}")
        self.featurewise_center, self.samplewise_center = featurewise_center, samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening, self.zca_epsilon = zca_whitening, zca_epsilon
        self.rotation_range, self.width_shift_range, self.height_shift_range = (rotation_range, width_shift_range,
                                                                                height_shift_range)
        self.shear_range, self.zoom_range, self.channel_shift_range = shear_range, zoom_range, channel_shift_range
        self.fill_mode, self.cval = fill_mode, cval
        self.horizontal_flip, self.vertical_flip = horizontal_flip, vertical_flip
        self.rescale, self.preprocessing_function = rescale, preprocessing_function
        self.dtype = config.floatx() if dtype is None else dtype
        self.interpolation_order = interpolation_order
        self.data_format = data_format
        self.channel_axis, self.row_axis, self.col_axis = (1, 2, 3) if data_format == "channels_first" else (3, 1, 2)
        self._validation_split = validation_split
        self.mean = self.std = self.zca_whitening_matrix = None
        self.brightness_range = brightness_range
        # what the settings override, with Keras's warnings
        if zca_whitening and not featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which overrides setting of "
                          "`featurewise_center`.")
        if zca_whitening and featurewise_std_normalization:
            self.featurewise_std_normalization = False
            warnings.warn("This ImageDataGenerator specifies `zca_whitening` which overrides setting of"
                          "`featurewise_std_normalization`.")
        if featurewise_std_normalization and not featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, which overrides "
                          "setting of `featurewise_center`.")
        if samplewise_std_normalization and not samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, which overrides "
                          "setting of `samplewise_center`.")

    flow = _not_yet("flow")
    flow_from_directory = _not_yet("flow_from_directory")
    flow_from_dataframe = _not_yet("flow_from_dataframe")
    standardize = _not_yet("standardize")
    get_random_transform = _not_yet("get_random_transform")
    apply_transform = _not_yet("apply_transform")
    random_transform = _not_yet("random_transform")
    fit = _not_yet("fit")


image = Namespace(_prefix="keras.preprocessing.image", ImageDataGenerator=ImageDataGenerator,
                  array_to_img=array_to_img, img_to_array=img_to_array, load_img=load_img, save_img=save_img)
sequence = Namespace(_prefix="keras.preprocessing.sequence", pad_sequences=pad_sequences)
text = Namespace(_prefix="keras.preprocessing.text")

__getattr__ = missing("keras.preprocessing")

__all__ = ["image", "image_dataset_from_directory", "sequence", "text", "text_dataset_from_directory",
           "timeseries_dataset_from_array"]


def __dir__():
    return __all__
