"""The expectation of a context: the reference's output composed with what the context does (run/contexts.py)."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from conformance.data import DTYPES, special_values
from conformance.run.contexts import compose, quieted


@pytest.mark.parametrize(("dtype", "signalling", "quiet"), [
    ("f16", 0x7C01, 0x7E01), ("f16", 0xFD00, 0xFF00), ("bf16", 0x7F81, 0x7FC1), ("f32", 0xFFA00000, 0xFFE00000),
    ("f64", 0x7FF0000000000001, 0x7FF8000000000001), ("f8e5m2", 0x7D, 0x7F)])
def test_an_add_makes_a_signalling_nan_quiet_and_keeps_its_payload(dtype, signalling, quiet):
    unsigned = f"u{DTYPES[dtype].itemsize}"
    values = np.array([signalling], unsigned).view(DTYPES[dtype])
    assert quieted(values).view(unsigned).tolist() == [quiet]
    assert compose({"context": "Add"}, values).view(unsigned).tolist() == [quiet]
    assert compose({"context": "Transpose"}, values).view(unsigned).tolist() == [signalling]  # undone by the adapter


@pytest.mark.parametrize("dtype", ["f8e4m3", "f16", "bf16", "f32", "f64", "i64", "u8", "bool"])
def test_every_other_value_stays_as_it_is(dtype):
    values = special_values(DTYPES[dtype])
    unsigned = f"u{values.dtype.itemsize}" if values.dtype != np.bool_ else "u1"
    before, after = values.view(unsigned), quieted(values).view(unsigned)
    if dtype in ("f16", "bf16", "f32", "f64"):
        nmant = int(ml_dtypes.finfo(values.dtype).nmant)
        changed = before != after
        assert changed.sum() == 4  # the four signalling NaNs, and nothing else
        assert np.all(after[changed] == before[changed] | (1 << (nmant - 1)))
    else:
        assert np.array_equal(before, after)


def test_a_scalar_stays_a_scalar():
    assert quieted(np.array(np.float32(1.0))).shape == ()
