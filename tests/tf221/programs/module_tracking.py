# tf.Module: names, name scopes, variable and submodule tracking order; tf.name_scope variable names (issue 11, item 3).
import tensorflow as tf
class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([in_features, out_features]), name='w')
        self.b = tf.Variable(tf.zeros([out_features]), name='b')
    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y) if False else y
class SequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)
        self.extra = [tf.Variable(1.0, trainable=False, name="count")]
    @tf.Module.with_name_scope
    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)
m = SequentialModule(name="the_model")
print(m.name, m.name_scope.name)
print(m(tf.constant([[2.0, 2.0, 2.0]])))
print([v.name for v in m.variables])
print([v.name for v in m.trainable_variables])
print([v.name for v in m.non_trainable_variables])
print([s.name for s in m.submodules])
print(Dense(1, 1).name, tf.Module().name)
class MyModel2(tf.Module): pass
print(MyModel2().name)
with tf.name_scope("outer"):
    v = tf.Variable(2.0, name="v")
    print(v.name)
    with tf.name_scope("inner"):
        print(tf.Variable(1.0).name)
try:
    tf.Module(name="bad name")
except Exception as e:
    print(type(e).__name__, e)
