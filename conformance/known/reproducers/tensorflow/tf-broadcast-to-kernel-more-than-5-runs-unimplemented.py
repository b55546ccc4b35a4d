"""tf-broadcast-to-kernel-more-than-5-runs-unimplemented (conformance/known/tensorflow.yaml)

TensorFlow's BroadcastTo CPU kernel merges the output's dimensions with BCast (fewer_dims_optimization: dimensions of
1 dropped, adjacent ones that alike stretch a data dimension of 1 or keep the data's merged) and has Eigen kernels for
up to 5 merged dimensions (tensorflow/core/kernels/broadcast_to_op.h, functor::BroadcastTo); more is "not supported
yet": data (1, 2, 1, 4, 1, 6, 1, 8, 1, 10) to (1, 2, 3, 4, 5, 6, 7, 8, 9, 10) (9 alternating runs) is refused, while
the same output from data (1, 2, 3, 4, 5, 1, 1, 1, 1, 1) (2 runs) is computed. The spec's broadcast has no rank limit.

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
target = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
print("2 runs:", tf.broadcast_to(tf.zeros([1, 2, 3, 4, 5, 1, 1, 1, 1, 1]), target).shape)
try:
    out = tf.broadcast_to(tf.zeros([1, 2, 1, 4, 1, 6, 1, 8, 1, 10]), target)
    print("9 runs: accepted", out.shape)
    sys.exit(1)
except tf.errors.UnimplementedError as e:
    print(f"9 runs: REFUSED: {str(e).splitlines()[0]}; spec: shape {tuple(target)}")
    sys.exit(0)
