"""tf-xla-4-bit-data-read-as-packed (conformance/known/tensorflow.yaml)

TensorFlow holds an int4 or uint4 tensor one element a byte (the value in the low nibble, as ml_dtypes does), XLA
packs two elements a byte; under tf.function(jit_compile=True) the bytes cross unconverted. XLA reads int4 data
[3, -4, 5] as [3, 0, -4] (two nibbles of each byte), and its packed output fills only the first half of TensorFlow's
output buffer, read back one element a byte; the second half is memory never written. Even tf.identity does it; so
tf.broadcast_to of data (3,) to (2, 3) comes back wrong. The spec's output is the data repeated.

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
for name, values in (("int4", [3, -4, 5]), ("uint4", [3, 12, 5])):
    data = np.array(values, getattr(ml_dtypes, name))
    expected = np.broadcast_to(data, (2, 3))
    for what, function in (("tf.identity", lambda d: tf.identity(d)),
                           ("tf.broadcast_to", lambda d: tf.broadcast_to(d, [2, 3]))):
        out = tf.function(function, jit_compile=True, autograph=False)(tf.constant(data)).numpy()
        want = data if what == "tf.identity" else expected
        wrong = out.tobytes() != want.tobytes()
        bug |= wrong
        print(f"{name}, jit_compile, {what}: bytes {out.view(np.uint8).ravel().tolist()}"
              f"{'' if not wrong else ', WRONG'}; spec: {want.view(np.uint8).ravel().tolist()}")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
