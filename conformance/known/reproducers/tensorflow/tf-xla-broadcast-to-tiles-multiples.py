"""tf-xla-broadcast-to-tiles-multiples (conformance/known/tensorflow.yaml)

Under tf.function(jit_compile=True), BroadcastTo is XLA's BroadcastTo helper (tensorflow/compiler/xla/client/lib/
broadcast.cc), which takes an output dimension O for an input dimension I whenever I != 0 and O % I == 0, and tiles
the data O / I times: data [1, 2] broadcast to [6] gives [1, 2, 1, 2, 1, 2], and data (3,) to [0] gives an empty
output. The spec (numpy rule) requires each data dimension to be 1 or equal to the target's: both are rejected, as
TensorFlow's own kernel rejects them eagerly.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
try:
    import tensorflow as tf
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("tensorflow", tf.__version__)
xla = tf.function(lambda d, s: tf.broadcast_to(d, s), jit_compile=True, autograph=False,
                  input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int64)])
bug = False
for data, target in (([1.0, 2.0], [6]), ([1.0, 2.0, 3.0], [0])):
    try:
        out = xla(tf.constant(data), tf.constant(target, tf.int64))
        bug = True
        print(f"jit_compile: data {data} to {target}: ACCEPTED, output {out.numpy().tolist()}; spec: rejected")
    except tf.errors.InvalidArgumentError as e:
        print(f"jit_compile: data {data} to {target}: rejected: {str(e).splitlines()[0]}")
    try:
        tf.broadcast_to(tf.constant(data), tf.constant(target, tf.int64))
        print("  eager: accepted")
    except tf.errors.InvalidArgumentError as e:
        print(f"  eager: rejected: {str(e).splitlines()[0]}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
