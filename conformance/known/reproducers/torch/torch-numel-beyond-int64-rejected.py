"""torch-numel-beyond-int64-rejected (conformance/known/torch.yaml)

torch refuses a tensor whose element count exceeds INT64_MAX, even a broadcast view that allocates nothing and a
tensor of the meta device (c10/core/TensorImpl.h safe_compute_numel: "numel: integer multiplication overflow"):
data (1,) broadcast to [2**62, 2] is refused. The spec puts no bound on the output's size: the output shape is
(2**62, 2).

Exit 0: the bug shows; 1: the runtime does what the spec says; 2: cannot run here.
"""

import sys

try:
    import torch
except ImportError as e:
    print(f"cannot run: {e}")
    sys.exit(2)

print("torch", torch.__version__)
refused = []
for device in ("cpu", "meta"):
    data = torch.ones(1, device=device)
    try:
        out = torch.broadcast_to(data, (2**62, 2))
        print(f"torch.broadcast_to(data (1,) on {device}, (2**62, 2)): shape {tuple(out.shape)}, as the spec says")
    except RuntimeError as e:
        refused.append(device)
        print(f"torch.broadcast_to(data (1,) on {device}, (2**62, 2)): REFUSED: {e}; spec: shape (2**62, 2)")
sys.exit(0 if refused else 1)
