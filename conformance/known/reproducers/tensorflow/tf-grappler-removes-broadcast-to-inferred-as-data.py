"""tf-grappler-removes-broadcast-to-inferred-as-data (conformance/known/tensorflow.yaml)

In a tf.function whose target_shape argument has its length in the input_signature (TensorSpec([n])) but not its
values, BroadcastTo's shape function gives each output dimension facing a data dimension above 1 that dimension. When
every data dimension is above 1 and the target is as long as the data, the inferred output shape is the data's, and
Grappler's arithmetic optimizer (RemoveRedundantReshapeOrBroadcastTo, tensorflow/core/grappler/optimizers/
arithmetic_optimizer.cc) removes the BroadcastTo as a no-op: data (3,) "broadcast" to [2] returns the data, where
the kernel (and the spec) refuse 3 against 2. With the arithmetic optimizer off, the same call is refused.

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
signature = [tf.TensorSpec([3], tf.float32), tf.TensorSpec([1], tf.int64)]
numpy_mode = tf.function(lambda d, s: tf.broadcast_to(d, s), input_signature=signature, autograph=False)
bidirectional = tf.function(
    lambda d, s: tf.broadcast_to(d, tf.broadcast_dynamic_shape(tf.shape(d, out_type=tf.int64), s)),
    input_signature=signature, autograph=False)
bug = False
for name, function in (("broadcast_to", numpy_mode), ("broadcast_dynamic_shape + broadcast_to", bidirectional)):
    try:
        out = function(tf.constant([1.0, 2.0, 3.0]), tf.constant([2], tf.int64))
        bug = True
        print(f"{name}: data (3,) to target_shape [2]: ACCEPTED, output {out.numpy().tolist()}; spec: rejected")
    except tf.errors.InvalidArgumentError as e:
        print(f"{name}: rejected: {str(e).splitlines()[0]}")
tf.config.optimizer.set_experimental_options({"arithmetic_optimization": False})
try:
    tf.function(lambda d, s: tf.broadcast_to(d, s), input_signature=signature, autograph=False)(
        tf.constant([1.0, 2.0, 3.0]), tf.constant([2], tf.int64))
    print("with Grappler's arithmetic optimizer off: accepted too")
except tf.errors.InvalidArgumentError as e:
    print(f"with Grappler's arithmetic optimizer off: rejected ({str(e).splitlines()[0]})")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
