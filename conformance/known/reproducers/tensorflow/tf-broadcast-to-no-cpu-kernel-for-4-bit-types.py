"""tf-broadcast-to-no-cpu-kernel-for-4-bit-types (conformance/known/tensorflow.yaml)

TensorFlow has int4 and uint4 tensors (tf.constant takes ml_dtypes' int4/uint4 arrays), but BroadcastTo has no CPU
kernel for them: the kernels are registered with TF_CALL_ALL_TYPES and the float8 types, which leave the 4-bit types
out (the error lists the registered kernels). tf.broadcast_to of int4 data (3,) to (2, 3) is refused, eagerly and in
a tf.function. The spec's broadcast takes any element type.

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
try:
    import ml_dtypes
    import numpy as np
    import tensorflow as tf
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("tensorflow", tf.__version__)
bug = False
for name in ("int4", "uint4"):
    data = tf.constant(np.array([1, 2, 3], getattr(ml_dtypes, name)))
    for how, call in (("eager", lambda d: tf.broadcast_to(d, [2, 3])),
                      ("tf.function", tf.function(lambda d: tf.broadcast_to(d, [2, 3]), autograph=False))):
        try:
            out = call(data)
            print(f"{name}, {how}: tf.broadcast_to(data (3,), [2, 3]) gives {out.shape}")
        except (tf.errors.NotFoundError, tf.errors.InvalidArgumentError) as e:
            bug = True
            print(f"{name}, {how}: REFUSED: {type(e).__name__}: {str(e).splitlines()[0]}; spec: shape (2, 3)")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
