"""tf-xla-no-string-type (conformance/known/tensorflow.yaml)

tf.broadcast_to takes string tensors eagerly and in a tf.function, but under jit_compile=True XLA has no string
type: compiling the function fails ("Detected unsupported operations ... _Arg"): the XLA_CPU_JIT device registers
its kernels for the types of kCpuAllTypes (tensorflow/compiler/tf2xla/xla_op_registry.h), numbers and booleans only,
as the kernel list TensorFlow prints for BroadcastTo shows. The spec's broadcast takes any element type.

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
data = tf.constant(["a", "", "é"])
print("eager:", tf.broadcast_to(data, [2, 3]).numpy().tolist())
try:
    out = tf.function(lambda d: tf.broadcast_to(d, [2, 3]), jit_compile=True, autograph=False)(data)
    print("jit_compile: accepted", out.numpy().tolist())
    sys.exit(1)
except (tf.errors.InvalidArgumentError, tf.errors.UnimplementedError) as e:
    print(f"jit_compile: REFUSED: {type(e).__name__}: {str(e).splitlines()[0][:200]}; spec: shape (2, 3)")
    sys.exit(0)
