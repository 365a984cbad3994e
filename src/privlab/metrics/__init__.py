"""Disclosure-risk and utility measures of anonymised releases (thesis §6.4.2, ch.3 §3.4;
irm §4.2; vldb14 §5).

* utility (:mod:`~privlab.metrics.utility`): :func:`sse`, :func:`relative_error` (with the
  irm sanity bound), :func:`js_divergence` (per-attribute histograms), :func:`delta_mean`,
  :func:`delta_variance`, :func:`correlation_differences` (Tables 3.10–3.11);
* risk (:mod:`~privlab.metrics.risk`): :func:`record_linkage` (RL, nearest-record linkage
  with ties shared), :func:`check_k_anonymity`, :func:`check_l_diversity` on releases.
"""

from privlab.metrics.risk import check_k_anonymity, check_l_diversity, record_linkage
from privlab.metrics.utility import (
    correlation_differences,
    delta_mean,
    delta_variance,
    js_divergence,
    relative_error,
    sse,
    utility_summary,
)

__all__ = ["check_k_anonymity", "check_l_diversity", "correlation_differences", "delta_mean",
           "delta_variance", "js_divergence", "record_linkage", "relative_error", "sse",
           "utility_summary"]
