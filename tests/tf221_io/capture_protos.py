"""Capture TensorFlow 2.21's protocol-buffer messages and proto ops for tests/test_io_protos.py:
``cd tests/tf221_io && /work/tfvenv/bin/python capture_protos.py`` writes ``tf_protos.json``."""

import json


def messages(tf):
    """name → message, built from ``tf``'s classes (TensorFlow's here, devtrace's in the test)."""
    feature = tf.train.Feature
    example = tf.train.Example(features=tf.train.Features(feature={
        "b": feature(bytes_list=tf.train.BytesList(value=[b"ab", b"\x00\xff"])),
        "f": feature(float_list=tf.train.FloatList(value=[0.1, -2.5, 1e30])),
        "i": feature(int64_list=tf.train.Int64List(value=[0, -1, 2**40])),
        "e": feature()}))
    sequence = tf.train.SequenceExample(
        context=tf.train.Features(feature={"len": feature(int64_list=tf.train.Int64List(value=[2]))}),
        feature_lists=tf.train.FeatureLists(feature_list={"tok": tf.train.FeatureList(feature=[
            feature(bytes_list=tf.train.BytesList(value=[b"a"])),
            feature(bytes_list=tf.train.BytesList(value=[b"b", b"c"]))])}))
    summary = tf.compat.v1.Summary(value=[
        tf.compat.v1.Summary.Value(tag="loss", simple_value=0.25),
        tf.compat.v1.Summary.Value(tag="img", node_name="n", image=tf.compat.v1.Summary.Image(
            height=2, width=3, colorspace=1, encoded_image_string=b"\x89PNG")),
        tf.compat.v1.Summary.Value(tag="h", histo=tf.compat.v1.HistogramProto(
            min=-1.0, max=2.0, num=3, sum=1.5, sum_squares=5.25, bucket_limit=[0.0, 2.0], bucket=[1.0, 2.0])),
        tf.compat.v1.Summary.Value(tag="a", audio=tf.compat.v1.Summary.Audio(
            sample_rate=16000.0, num_channels=1, length_frames=4, content_type="audio/wav")),
        tf.compat.v1.Summary.Value(tag="m", metadata=tf.compat.v1.SummaryMetadata(
            display_name="d", plugin_data=tf.compat.v1.SummaryMetadata.PluginData(plugin_name="scalars")))])
    return {"example": example, "sequence_example": sequence, "summary": summary}


def graph(tf):
    """A small TF1 graph for ``tf.io.write_graph``: a scalar and a vector constant, AddV2 and Mul."""
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.5, name="a")
        v = tf.constant([1, 2, 3], name="v")
        tf.add(a, a, name="b")
        tf.multiply(v, v, name="m")
    return g


def main():
    import tempfile

    import tensorflow as tf
    from google.protobuf import json_format

    out = {"bytes": {}, "text": {}, "json": {}}
    for name, message in messages(tf).items():
        out["bytes"][name] = message.SerializeToString(deterministic=True).hex()
        out["text"][name] = str(message) if name == "summary" else None  # maps: upb prints them unordered
        out["json"][name] = json_format.MessageToJson(message, sort_keys=True)
    values = [v.SerializeToString() for v in messages(tf)["summary"].value]
    sizes, (tag, simple, image, histo) = tf.io.decode_proto(
        values, "tensorflow.Summary.Value", ["tag", "simple_value", "image", "histo"],
        [tf.string, tf.float64, tf.string, tf.string])
    out["decode_proto"] = {"sizes": sizes.numpy().tolist(), "tag": [[v.hex() for v in r] for r in tag.numpy().tolist()],
                           "simple_value": simple.numpy().tolist(),
                           "image": [[v.hex() for v in r] for r in image.numpy().tolist()],
                           "histo": [[v.hex() for v in r] for r in histo.numpy().tolist()]}
    lists = [tf.train.FloatList(value=[1.5, -2.0]).SerializeToString(), b""]
    sizes, (floats,) = tf.io.decode_proto(lists, "tensorflow.FloatList", ["value"], [tf.float32])
    out["decode_proto_repeated"] = {"sizes": sizes.numpy().tolist(), "value": floats.numpy().tolist()}
    encoded = tf.io.encode_proto(tf.constant([[2, 1], [0, 1]]), [
        tf.constant([[1.0, 2.0], [0.0, 0.0]], tf.float64), tf.constant([[3.0], [0.0]], tf.float64)],
        ["bucket", "min"], "tensorflow.HistogramProto")
    out["encode_proto"] = [v.hex() for v in encoded.numpy().tolist()]
    js = json_format.MessageToJson(messages(tf)["example"])
    out["decode_json_example"] = {"json": js, "bytes": tf.io.decode_json_example(js).numpy().hex()}
    logdir = tempfile.mkdtemp()
    out["write_graph"] = {"text": open(tf.io.write_graph(graph(tf), logdir, "g.pbtxt")).read(),
                          "bytes": open(tf.io.write_graph(graph(tf), logdir, "g.pb", as_text=False), "rb").read().hex()}
    with open("tf_protos.json", "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
