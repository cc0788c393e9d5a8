"""Sweep metrics and statistics (python/hopsim/sweeps): metric values from result documents,
Jain's index, Student-t quantiles and CDF against printed tables, summaries of replications,
and the progress lines. No simulation runs here.
"""

from __future__ import annotations

import io
import math

import pytest

from hopsim.sweeps import (
    Summary,
    metric_value,
    student_t_cdf,
    student_t_quantile,
    summarize_values,
)
from hopsim.sweeps.progress import SweepProgress
from hopsim.sweeps.stats import means_differ

# ----------------------------------------------------------------------- metrics


def _flow(**fields) -> dict:
    return fields


RESULT = {
    "flows": [
        _flow(goodput_kbps=100.0, hops=2, avg_cwnd=3.0, rtt_ms={"p50": 10.0}, retransmissions=1),
        _flow(goodput_kbps=300.0, hops=4, avg_cwnd=None, rtt_ms={"p50": 30.0}, retransmissions=2),
        _flow(goodput_kbps=200.0, hops=3, rtt_ms={"p50": None}),  # a UDP flow: no TCP fields
    ],
    "totals": {"mac_retries": 17, "link_drop_probability": 0.25},
}


def test_metrics_sum_rates_average_the_rest_and_skip_missing_values():
    assert metric_value(RESULT, "goodput_kbps") == 600.0  # a rate: summed over flows
    assert metric_value(RESULT, "retransmissions") == 3.0  # a count: summed
    assert metric_value(RESULT, "hops") == 3.0  # an average: mean over flows
    assert metric_value(RESULT, "avg_cwnd") == 3.0  # null and missing values left out
    assert metric_value(RESULT, "rtt_ms.p50") == 20.0  # nested field, null left out
    assert metric_value(RESULT, "mean:goodput_kbps") == 200.0
    assert metric_value(RESULT, "sum:hops") == 9.0
    assert metric_value(RESULT, "min:goodput_kbps") == 100.0
    assert metric_value(RESULT, "max:goodput_kbps") == 300.0
    assert metric_value(RESULT, "flow1:goodput_kbps") == 300.0
    assert metric_value(RESULT, "flow5:goodput_kbps") is None
    assert metric_value(RESULT, "flow1:avg_cwnd") is None
    assert metric_value(RESULT, "totals.mac_retries") == 17.0
    assert metric_value(RESULT, "totals.link_drop_probability") == 0.25
    assert metric_value(RESULT, "totals.collisions") is None
    assert metric_value({"flows": []}, "goodput_kbps") is None


@pytest.mark.parametrize(
    ("values", "jain"),
    [
        ([5.0, 5.0, 5.0, 5.0], 1.0),  # equal shares: perfectly fair
        ([1.0, 0.0, 0.0, 0.0], 0.25),  # one of n flows gets everything: 1/n
        ([1.0, 2.0, 3.0], 36.0 / 42.0),  # (1+2+3)^2 / (3 (1+4+9))
        ([0.0, 0.0], 1.0),  # nobody served: equally (un)served
    ],
)
def test_jain_index_of_known_vectors(values, jain):
    result = {"flows": [{"goodput_kbps": v} for v in values]}
    assert metric_value(result, "jain:goodput_kbps") == pytest.approx(jain, rel=1e-12)


# ----------------------------------------------------------------------- statistics


@pytest.mark.parametrize(
    ("df", "t975", "t995"),
    # Two-sided 95% and 99% critical values from printed t tables.
    [(1, 12.706, 63.657), (2, 4.303, 9.925), (5, 2.571, 4.032), (10, 2.228, 3.169),
     (30, 2.042, 2.750), (100, 1.984, 2.626)],
)  # fmt: skip
def test_student_t_quantile_matches_printed_tables(df, t975, t995):
    assert student_t_quantile(0.975, df) == pytest.approx(t975, abs=5e-4)
    assert student_t_quantile(0.995, df) == pytest.approx(t995, abs=5e-4)
    assert student_t_quantile(0.025, df) == -student_t_quantile(0.975, df)


def test_student_t_cdf_closed_forms_and_symmetry():
    for t in (0.1, 0.5, 1.0, 3.0, 20.0):
        # df = 1 is the Cauchy distribution, df = 2 has a closed form too.
        assert student_t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)
        assert student_t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)))
        for df in (1, 3, 7.5, 50):
            assert student_t_cdf(-t, df) == pytest.approx(1 - student_t_cdf(t, df), abs=1e-14)
    assert student_t_cdf(0.0, 4) == 0.5
    assert student_t_cdf(1.96, 1e6) == pytest.approx(0.9750021, abs=1e-6)  # -> normal
    with pytest.raises(ValueError):
        student_t_cdf(1.0, 0)
    with pytest.raises(ValueError):
        student_t_quantile(1.0, 3)


def test_summarize_values_by_hand():
    s = summarize_values([2, 4, 4, 4, 5, 5, 7, 9, None, float("nan")])
    # n = 8, mean 5, sum of squared deviations 32, so s^2 = 32/7; t(0.975, 7) = 2.365.
    assert (s.n, s.mean) == (8, 5.0)
    assert s.std == pytest.approx(math.sqrt(32 / 7))
    assert s.half_width == pytest.approx(2.364624 * math.sqrt(32 / 7) / math.sqrt(8), rel=1e-6)
    assert (s.ci_low, s.ci_high) == (s.mean - s.half_width, s.mean + s.half_width)
    s99 = summarize_values([2, 4, 4, 4, 5, 5, 7, 9], confidence=0.99)
    assert s99.half_width == pytest.approx(3.499483 * s.std / math.sqrt(8), rel=1e-6)
    assert summarize_values([None, float("nan")]) is None


def test_relative_half_width_edge_cases():
    one = summarize_values([4.0])
    assert (one.n, one.std) == (1, 0.0) and math.isnan(one.half_width)
    assert one.relative_half_width == math.inf  # one run says nothing about the spread
    assert summarize_values([3.0, 3.0, 3.0]).relative_half_width == 0.0
    assert summarize_values([0.0, 0.0]).relative_half_width == 0.0
    assert summarize_values([-1.0, 1.0]).relative_half_width == math.inf  # zero mean
    s = summarize_values([-9.0, -11.0])
    assert s.relative_half_width == pytest.approx(12.706 * 1.0 / 10.0, rel=1e-4)


def test_progress_lines_report_counts():
    stream = io.StringIO()
    bar = SweepProgress(0, "demo", "lines", stream=stream, interval_s=0.0)
    bar.add_total(4)
    for ok in (True, True, False, True):
        bar.advance(ok)
    bar.close()
    assert "demo: 4/4 runs (3 done, 1 failed)" in stream.getvalue()
    assert "left 0:00" in stream.getvalue().splitlines()[-1]


# ------------------------------------------------------------------ Welch's test


def _s(n: int, mean: float, std: float) -> Summary:
    return Summary(n, mean, std, math.nan if n < 2 else 1.0)


def test_welch_boundary_with_equal_variances_is_the_printed_t_quantile():
    """Ten runs each, both std 10: Welch's df is exactly 18 and se = sqrt(20); the printed
    t(0.975, 18) = 2.1009 puts the boundary at a gap of 9.3956."""
    a = _s(10, 100.0, 10.0)
    assert means_differ(a, _s(10, 109.3, 10.0)) is False
    assert means_differ(a, _s(10, 109.5, 10.0)) is True
    assert means_differ(a, _s(10, 90.5, 10.0)) is True  # two-sided


def test_welch_with_one_exact_point_uses_the_other_points_degrees_of_freedom():
    """One point without spread (every run delivers its offered load): df = n - 1 = 9 of
    the other, t(0.975, 9) = 2.2622, se = 12 / sqrt(10): boundary 8.584."""
    exact = _s(10, 307.4, 0.0)
    assert means_differ(exact, _s(10, 307.4 - 8.5, 12.0)) is False
    assert means_differ(exact, _s(10, 307.4 - 8.7, 12.0)) is True
    assert means_differ(exact, _s(10, 307.4, 0.0)) is False
    assert means_differ(exact, _s(10, 307.3, 0.0)) is True


def test_welch_needs_two_replications_on_each_side():
    assert means_differ(_s(1, 1.0, 0.0), _s(10, 5.0, 1.0)) is None
    assert means_differ(_s(10, 5.0, 1.0), _s(1, 1.0, 0.0)) is None
