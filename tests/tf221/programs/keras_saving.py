# tf.keras saving: model.save(".keras") / load_model (Sequential, functional, subclassed with
# custom_objects, a registered custom layer), the file's entries and metadata, the compile config and
# optimizer state restored, to_json / model_from_json, get_config / from_config round trips,
# save_weights / load_weights, Keras's errors (bad extensions, a missing file, an unregistered class,
# a shape mismatch on load). The weights file inside differs (Keras's HDF5, devtrace's .npz): not printed.
import json
import os
import tempfile
import zipfile

import keras
import numpy as np
import tensorflow as tf

print(keras.layers.Dense is tf.keras.layers.Dense)
d = tempfile.mkdtemp()
x = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
y = x.sum(axis=1, keepdims=True)


def sequential():
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu", kernel_initializer="ones"),
                          keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    return m


m = sequential()
m.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
path = os.path.join(d, "m.keras")
m.save(path)
with zipfile.ZipFile(path) as z:
    names = z.namelist()
    print(names[:2], len(names), {i.filename: i.compress_type for i in z.infolist()}["config.json"])
    meta = json.loads(z.read("metadata.json"))
    config = json.loads(z.read("config.json"))
print(sorted(meta), meta["keras_version"])
print(config["class_name"], config["config"]["name"], [e["class_name"] for e in config["config"]["layers"]])
print(config["config"]["layers"][0]["config"])
dense = config["config"]["layers"][1]
print(dense["module"], dense["registered_name"], dense["build_config"], dense["config"]["units"],
      dense["config"]["activation"], dense["config"]["trainable"], dense["config"]["dtype"]["config"])
print(sorted(config["compile_config"])[:4], config["compile_config"]["loss"], config["compile_config"]["metrics"],
      config["compile_config"]["optimizer"]["class_name"],
      round(config["compile_config"]["optimizer"]["config"]["learning_rate"], 6))
m2 = keras.models.load_model(path)
print(type(m2).__name__, [layer.name for layer in m2.layers], m2.optimizer.__class__.__name__,
      int(m2.optimizer.iterations.numpy()), round(float(m2.optimizer.learning_rate.numpy()), 6))
print("same predictions", np.allclose(m.predict(x, verbose=0), m2.predict(x, verbose=0)))
print("same evaluate", np.allclose(m.evaluate(x, y, verbose=0), m2.evaluate(x, y, verbose=0)))
m.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
m2.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
print("training resumes alike", all(np.allclose(a, b, atol=1e-6) for a, b in zip(m.get_weights(), m2.get_weights())))
m3 = keras.models.load_model(path, compile=False)
print("compile=False", getattr(m3, "optimizer", None))

# functional, through JSON
i = keras.Input((3,), name="features")
h = keras.layers.Dense(5, activation="tanh", name="hidden")(i)
o1 = keras.layers.Dense(1, name="out1")(h)
o2 = keras.layers.Add(name="sum")([h, keras.layers.Dense(5, name="skip")(i)])
f = keras.Model(i, [o1, o2], name="two_heads")
f2 = keras.models.model_from_json(f.to_json())
print(type(f2).__name__, f2.name, [layer.name for layer in f2.layers])
wpath = os.path.join(d, "f.weights.h5")
f.save_weights(wpath)
f2.load_weights(wpath)
print("functional weights", all(np.allclose(a, b) for a, b in zip(f(x), f2(x))))
cfg = f.get_config()
print(sorted(cfg), cfg["input_layers"], cfg["output_layers"])
print([(e["name"], len(e["inbound_nodes"])) for e in cfg["layers"]])
print(cfg["layers"][4]["inbound_nodes"][0]["args"][0][0]["config"]["keras_history"])
f3 = keras.Model.from_config(cfg)
print(type(f3).__name__, f3.name, [tuple(t.shape) for t in f3.outputs])

# layers' configs round trip
for layer in [keras.layers.Dense(3, activation="sigmoid", use_bias=False, name="d"),
              keras.layers.Dropout(0.25, name="drop"), keras.layers.Flatten(name="flat"),
              keras.layers.Conv2D(2, 3, padding="same", name="conv"), keras.layers.MaxPooling2D(name="pool"),
              keras.layers.Reshape((2, 3), name="reshape"), keras.layers.BatchNormalization(name="bn")]:
    c = layer.get_config()
    again = type(layer).from_config(c)
    print(type(again).__name__, again.name, {k: c[k] for k in ("units", "rate", "filters", "padding", "target_shape",
                                                                "momentum") if k in c})


# a registered custom layer
@keras.saving.register_keras_serializable(package="probe")
class Scale(keras.layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones")

    def call(self, inputs):
        return inputs * self.w * self.factor

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


print(keras.saving.get_registered_name(Scale), keras.saving.get_registered_object("probe>Scale") is Scale)
s = keras.Sequential([keras.Input((3,)), Scale(3.0, name="scale")])
s.layers[0].w.assign([1.0, 2.0, 3.0])
spath = os.path.join(d, "s.keras")
s.save(spath)
s2 = keras.models.load_model(spath)
print(type(s2.layers[0]).__name__, s2.layers[0].factor, s2.layers[0].w.numpy())
ser = keras.saving.serialize_keras_object(Scale(1.5, name="sc"))
print(ser["class_name"], ser["registered_name"], ser["module"], ser["config"]["factor"])
print(type(keras.saving.deserialize_keras_object(ser)).__name__)


# an unregistered custom layer: Keras's error, then custom_objects
class Plain(keras.layers.Layer):
    def call(self, inputs):
        return inputs


p = keras.Sequential([keras.Input((3,)), Plain(name="plain")])
ppath = os.path.join(d, "p.keras")
p.save(ppath)
try:
    keras.models.load_model(ppath)
except TypeError as e:
    text = str(e)
    print(type(e).__name__, text.splitlines()[0])
    print(text[text.index("Exception encountered:"):].split(" Full object config")[0])
print(type(keras.models.load_model(ppath, custom_objects={"Plain": Plain}).layers[0]).__name__)
with keras.saving.custom_object_scope({"Plain": Plain}):
    print("scope", type(keras.models.load_model(ppath).layers[0]).__name__)


# a subclassed model
class Net(keras.Model):
    def __init__(self, hidden=4, **kwargs):
        super().__init__(**kwargs)
        self.hidden = hidden
        self.a = keras.layers.Dense(hidden, kernel_initializer="ones")
        self.b = keras.layers.Dense(1, kernel_initializer="ones")

    def call(self, inputs):
        return self.b(self.a(inputs))

    def get_config(self):
        return {"hidden": self.hidden, "name": self.name}


n = Net(6, name="net")
n(x)
n.a.kernel.assign(np.arange(18, dtype="float32").reshape(3, 6) / 10)
npath = os.path.join(d, "n.keras")
n.save(npath)
n2 = keras.models.load_model(npath, custom_objects={"Net": Net})
print(type(n2).__name__, n2.hidden, n2.name, np.allclose(n(x), n2(x)))

# errors
for bad in ["m.h6", "m"]:
    try:
        m.save(os.path.join(d, bad))
    except ValueError as e:
        print(type(e).__name__, str(e).replace(d, "<d>"))
for bad in ["nope.keras", "m.h6"]:
    try:
        keras.models.load_model(os.path.join(d, bad))
    except ValueError as e:
        print(type(e).__name__, str(e).replace(d, "<d>"))
for bad in ["w.h5", "w.npz"]:
    try:
        m.save_weights(os.path.join(d, bad))
    except ValueError as e:
        print(type(e).__name__, str(e).replace(d, "<d>"))
other = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="small"), keras.layers.Dense(1, name="big")])
m.save_weights(os.path.join(d, "m.weights.h5"))
try:
    other.load_weights(os.path.join(d, "m.weights.h5"))
except ValueError as e:
    print(type(e).__name__, str(e).splitlines()[0])
    print(str(e).split("Target variable")[0].splitlines()[2])
    print(str(e).splitlines()[-1])
