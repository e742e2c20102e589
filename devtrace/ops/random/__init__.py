"""Random numbers as TensorFlow draws them: Philox, the samplers, the stateful/stateless/
``tf.random`` ops, candidate sampling, and their gradients and graph forms."""
