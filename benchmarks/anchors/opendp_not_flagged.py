# Needs `pip install opendp` (not a privlab dependency). python benchmarks/anchors/opendp_not_flagged.py
"""OpenDP's Laplace (float, its own sampler; ignores our rng) audited by privlab at the law level
and with float bits: issue 15 asks that OpenDP is not flagged."""
import warnings
import numpy as np
import opendp.prelude as dp
from privlab.audit import audit_pair
from privlab.audit.usercode import vectorize

dp.enable_features("contrib")
meas = dp.m.make_laplace(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=1.0)

def sampler(x):
    return vectorize(lambda rng: meas(float(x)), label="opendp")

for bits in (False, True):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = audit_pair(sampler(0.0), sampler(1.0), samples=20_000, claimed_epsilon=1.0, rng=0,
                       float_bits=bits, seedable=False)
    print(f"float_bits={bits}: bound {r.epsilon_lower_bound:.4f}, verdict {r.verdict}, "
          f"structural {r.structural_leak}, event_class {r.to_dict().get('event_class')}")
