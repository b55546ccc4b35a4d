"""tf-xla-cpu-bf16-broadcast-flushes-subnormals (conformance/known/tensorflow.yaml)

Under tf.function(jit_compile=True), XLA's CPU backend returns a bfloat16 subnormal as a zero of its sign and a
signalling NaN quieted in some broadcasts (a scalar kept in a register as f32 and stored back with vcvtneps2bf16, on
a CPU with AVX512-BF16), where a broadcast only copies: the spec keeps every bit. Eagerly (TensorFlow's own kernel)
every bit is kept. Which shapes lose them is LLVM's choice of loop; these lose them on an AVX512-BF16 CPU.

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
xla = tf.function(lambda d, s: tf.broadcast_to(d, s), jit_compile=True, autograph=False)
bug = False
for bits, what in ((0x0001, "smallest subnormal"), (0x7F81, "signalling NaN")):
    for data_shape, target in (((3, 1), (3, 3)), ((), (2, 3, 4)), ((3, 1), (2, 3, 4)), ((3,), (3, 3))):
        data = np.full(data_shape, bits, np.uint16).view(ml_dtypes.bfloat16)
        got = xla(tf.constant(data), tf.constant(target, tf.int64)).numpy().view(np.uint16)
        eager = tf.broadcast_to(tf.constant(data), target).numpy().view(np.uint16)
        lost = sorted({hex(int(b)) for b in got.ravel() if b != bits})
        bug |= bool(lost)
        print(f"bf16 {what} {data_shape} to {target}: jit_compile {'CHANGED to ' + ', '.join(lost) if lost else 'kept'}"
              f"; eager {'kept' if (eager == bits).all() else 'changed'}; spec: {hex(bits)} everywhere")
print("the bug shows" if bug else "the bug does not show")
sys.exit(0 if bug else 1)
