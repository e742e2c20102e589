"""Prints devtrace/generated/keras_layer_configs.py's table: run under /work/tfvenv (TF 2.21, Keras 3.15)."""
import keras, inspect, pprint, sys
names = sorted(n for n in dir(keras.layers) if n[0].isupper())
TRY = [(), (2,), (2, 3), (2, 2, 3)]
skip = {"Layer", "InputLayer", "Input", "RNN", "Bidirectional", "TimeDistributed", "Wrapper", "Lambda", "TFSMLayer", "JaxLayer", "FlaxLayer", "TorchModuleWrapper", "InputSpec"}
out = {}
for n in names:
    if n in skip: continue
    cls = getattr(keras.layers, n)
    if not inspect.isclass(cls): continue
    for args in TRY:
        try:
            l = cls(*args)
            c = l.get_config()
        except Exception:
            continue
        c.pop("name", None); c.pop("dtype", None)
        out[n] = (args, c)
        break
print("# keras.layers.X(*args).get_config() in Keras 3.15 (TF 2.21), name and dtype left out: {class: (args, config)}")
print("CONFIGS = ", end="")
pprint.pprint(out, width=118, sort_dicts=False)
