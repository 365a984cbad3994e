from privlab.mechanisms.staircase import Staircase


def test_staircase_constructs():
    s = Staircase(epsilon=1.0, sensitivity=1.0, d=0.5)
    assert s.m0 > 0
