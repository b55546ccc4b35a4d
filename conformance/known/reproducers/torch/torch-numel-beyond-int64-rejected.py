"""torch-numel-beyond-int64-rejected (conformance/known/torch.yaml)

torch refuses a shape whose dimensions, multiplied left to right as uint64, overflow or end beyond INT64_MAX, even
for a broadcast view that allocates nothing and on the meta device (c10/core/TensorImpl.h safe_compute_numel:
"numel: integer multiplication overflow"): data (1,) broadcast to [2**62, 2] is refused. A tensor of no element
whose dimensions overflow before the 0, (2**62, 2, 2, 0), cannot even be made ("Storage size calculation
overflowed"). The spec puts no bound on the sizes: the output shape is (2**62, 2), and data (2**62, 2, 2, 0) is data
like any other.

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
try:
    torch.empty((2**62, 2, 2, 0), device="meta")
    print("torch.empty((2**62, 2, 2, 0), device='meta'): made, as the spec allows")
except RuntimeError as e:
    refused.append("data")
    print(f"torch.empty((2**62, 2, 2, 0), device='meta'), no element: REFUSED: {e}")
sys.exit(0 if refused else 1)
