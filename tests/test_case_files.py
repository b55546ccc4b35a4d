import conformance

def test_x():
    assert conformance
