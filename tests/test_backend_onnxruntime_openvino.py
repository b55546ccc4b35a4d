"""The onnxruntime-openvino backend: the traits its known differences name (these need no package)."""

from __future__ import annotations

import pytest

from tests import builders


@pytest.mark.parametrize(("data_shape", "holds"), [
    ((2, 2), True),  # 4 strings: 128 bytes of std::string, beyond ONNX Runtime's 127-byte inline limit
    ((3,), False),  # 96 bytes: kept inline
    ((), False),
    ((2, 0), False),
    ((16, 1, 1), True),
    ((None, 4), False),  # a dimension unknown until run time: cannot tell
])
def test_the_trait_of_string_initializers_onnx_runtime_moves_out_of_line(data_shape, holds):
    from conformance.ops.broadcast import traits

    case = builders.case("bidirectional", data_shape, (1,))
    assert traits.holds("data_of_4_or_more_elements", case.params) is holds
