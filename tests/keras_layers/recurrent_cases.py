"""The recurrent-layer cases both sides run (Keras in capture_recurrent.py, devtrace in
tests/test_keras_recurrent.py): the layer's source text, the input shape, and the mask or initial
state given; inputs and weights are NumPy RandomState draws, the same on both sides."""

import numpy as np

CASES = [
    {"id": "simple_rnn", "layer": "keras.layers.SimpleRNN(4)", "shape": (2, 5, 3)},
    {"id": "simple_rnn_seq_back", "layer": "keras.layers.SimpleRNN(4, return_sequences=True, go_backwards=True)",
     "shape": (2, 5, 3)},
    {"id": "simple_rnn_state", "layer": "keras.layers.SimpleRNN(4, return_state=True, activation='relu')",
     "shape": (2, 5, 3)},
    {"id": "lstm", "layer": "keras.layers.LSTM(3)", "shape": (2, 4, 5)},
    {"id": "lstm_seq_state", "layer": "keras.layers.LSTM(3, return_sequences=True, return_state=True)",
     "shape": (2, 4, 5)},
    {"id": "lstm_back", "layer": "keras.layers.LSTM(3, go_backwards=True, return_sequences=True)", "shape": (2, 4, 5)},
    {"id": "lstm_mask", "layer": "keras.layers.LSTM(3, return_sequences=True, return_state=True)", "shape": (2, 4, 5),
     "mask": [[True, True, False, True], [True, False, False, False]]},
    {"id": "lstm_initial", "layer": "keras.layers.LSTM(3, return_state=True)", "shape": (2, 4, 5),
     "initial_state": [3, 3]},
    {"id": "gru", "layer": "keras.layers.GRU(3, return_sequences=True)", "shape": (2, 4, 5)},
    {"id": "gru_reset_before", "layer": "keras.layers.GRU(3, reset_after=False, return_state=True)",
     "shape": (2, 4, 5)},
    {"id": "gru_mask", "layer": "keras.layers.GRU(3, return_sequences=True)", "shape": (2, 4, 5),
     "mask": [[True, False, True, True], [False, True, True, True]]},
    {"id": "rnn_cell", "layer": "keras.layers.RNN(keras.layers.SimpleRNNCell(3), return_sequences=True)",
     "shape": (2, 4, 2)},
    {"id": "rnn_stacked", "layer": "keras.layers.RNN([keras.layers.LSTMCell(3), keras.layers.GRUCell(2)], "
     "return_state=True)", "shape": (2, 4, 2)},
    {"id": "bidi_lstm", "layer": "keras.layers.Bidirectional(keras.layers.LSTM(3, return_sequences=True))",
     "shape": (2, 4, 5)},
    {"id": "bidi_gru_sum", "layer": "keras.layers.Bidirectional(keras.layers.GRU(2), merge_mode='sum')",
     "shape": (2, 4, 5)},
    {"id": "bidi_state", "layer": "keras.layers.Bidirectional(keras.layers.SimpleRNN(2, return_state=True), "
     "merge_mode='ave')", "shape": (2, 4, 5)},
    {"id": "time_distributed", "layer": "keras.layers.TimeDistributed(keras.layers.Dense(2, activation='tanh'))",
     "shape": (2, 4, 5)},
]


def inputs_for(case):
    return np.random.RandomState(0).standard_normal(case["shape"]).astype("float32")


def weights_for(case, shapes):
    rng = np.random.RandomState(1)
    return [(rng.standard_normal(s) * 0.5).astype("float32") for s in shapes]
