//! Scripted tests of Minstrel-HT: a fake link answers each try of each chain entry, and the
//! expectations come from the algorithm's stated behaviour and hand computations.

use super::groups::{group_slot, mi_rate};
use super::stats::tp_avg;
use super::*;
use crate::engine::rng::Purpose;
use crate::phy::mcs::McsMode;

const MS: SimTime = 1_000_000;

fn cfg(vht: bool, width_mhz: u32, short_gi: bool, max_streams: u8) -> MinstrelConfig {
    MinstrelConfig {
        vht,
        width_mhz,
        short_gi,
        max_streams,
        cw_min: 15,
        cw_max: 1023,
        slot_ns: 9_000,
        overhead_ns: LINUX_OVERHEAD_NS,
        overhead_rtscts_ns: LINUX_OVERHEAD_RTSCTS_NS,
    }
}

fn rng() -> Rng {
    Rng::derive(42, Purpose::RateControl, 1)
}

fn ht(mcs: u8, width: u32, sgi: bool) -> Rate {
    Rate::mcs(McsMode::ht(mcs, width, sgi).unwrap())
}

/// The MCS of a rate within its stream group (HT 0-7, VHT 0-9).
fn group_mcs(r: Rate) -> u8 {
    let m = r.mcs_mode().unwrap();
    if m.is_vht() {
        m.index()
    } else {
        m.index() % 8
    }
}

/// What one scripted run saw.
#[derive(Default)]
struct Seen {
    ppdus: u32,
    probes: u32,
    /// Every chain handed out, when asked for.
    chains: Vec<([ChainEntry; 4], usize, bool)>,
}

/// One PPDU every `gap` ns in [from, until): each try at rate r is acknowledged iff `ok(r)`;
/// the tries used are reported back, as a driver would.
fn drive(
    m: &mut MinstrelHt,
    rng: &mut Rng,
    (from, until, gap): (SimTime, SimTime, SimTime),
    ok: impl Fn(Rate) -> bool,
    keep_chains: bool,
) -> Seen {
    let mut seen = Seen::default();
    let mut now = from;
    while now < until {
        let (chain, len, probe) = m.rate_chain(now, rng);
        let mut used = [0u8; 4];
        let mut acked = 0;
        'chain: for i in 0..len {
            for _ in 0..chain[i].tries {
                used[i] += 1;
                if ok(chain[i].rate) {
                    acked = 1;
                    break 'chain;
                }
            }
        }
        m.tx_status(now, &chain[..len], &used[..len], 1, acked);
        seen.ppdus += 1;
        seen.probes += u32::from(probe);
        if keep_chains {
            seen.chains.push((chain, len, probe));
        }
        now += gap;
    }
    seen
}

// Link: every MCS ≤ 4 of any stream group gets through, every faster one is lost.
//
//   group (20 MHz)   MCS 0 1 2 3 4 | 5 6 7
//   1ss LGI / SGI        ok        |  lost
//   2ss LGI / SGI        ok        |  lost      <- fastest working: 2ss SGI MCS 4 (= MCS 12)
//
// From a cold start every rate's probability is 0, so the climb is made by probes alone:
// at most one per 20 ms (3 per 50 ms interval), INC probes stepping one MCS above max_tp in
// the groups in turn, JUMP probes at random faster rates (which here mostly fail). That
// takes about 20 intervals (~1 s) to walk up from MCS 0; we allow 30 (1.5 s). Afterwards
// max_tp must stay put and max_prob be a rate that always works (probability ~100 %).
#[test]
fn converges_to_the_highest_working_mcs_of_the_fastest_group() {
    let mut m = MinstrelHt::new(cfg(false, 20, true, 2));
    let mut r = rng();
    let ok = |rate: Rate| group_mcs(rate) <= 4;
    let horizon = 30 * UPDATE_INTERVAL_NS;
    drive(&mut m, &mut r, (0, horizon, MS), ok, false);
    assert_eq!(m.max_tp_rate(), ht(12, 20, true), "after 30 update intervals");
    // It stays there, probing the failing rates now and then.
    for k in 1..=30 {
        let t = horizon + (k - 1) * UPDATE_INTERVAL_NS;
        drive(&mut m, &mut r, (t, t + UPDATE_INTERVAL_NS, MS), ok, false);
        assert_eq!(m.max_tp_rate(), ht(12, 20, true), "{k} intervals later");
        let prob_rate = m.max_prob_rate();
        assert!(ok(prob_rate), "max_prob {:?} must work", prob_rate.mcs_mode());
        let idx = groups::lookup(&m.groups, prob_rate).unwrap();
        assert!(m.prob(idx) >= frac(95, 100), "max_prob's probability {}", m.prob(idx));
    }
}

// Link: everything gets through. HT 20 MHz, 2 streams, long GI only:
//   groups 1ss LGI (MCS 0-7), 2ss LGI (MCS 8-15)  ->  max_tp = MCS 15.
#[test]
fn a_perfect_link_reaches_the_fastest_rate() {
    let mut m = MinstrelHt::new(cfg(false, 20, false, 2));
    let mut r = rng();
    drive(&mut m, &mut r, (0, 10 * UPDATE_INTERVAL_NS, MS), |_| true, false);
    assert_eq!(m.max_tp_rate(), ht(15, 20, false));
    // VHT 80 MHz, 2 streams, short GI: VHT MCS 9, 2 streams, SGI.
    let mut m = MinstrelHt::new(cfg(true, 80, true, 2));
    drive(&mut m, &mut r, (0, 10 * UPDATE_INTERVAL_NS, MS), |_| true, false);
    assert_eq!(m.max_tp_rate(), Rate::mcs(McsMode::vht(9, 2, 80, true).unwrap()));
}

// PPDUs every 0.5 ms for 2 s on a link where MCS ≤ 5 works:
//
//   t:      0    20   40  50(update)  70   90  100(update) ...
//   probe:  P    P    P   P           P    P   P
//
// at most one probe per 20 ms, plus one right after each 50 ms statistics update; each probe
// chain is [sample ×1, table[1], table[2], table[3]] (mac80211 fills the slots after the
// probe from the rate table).
#[test]
fn a_probe_leads_with_one_try_and_probes_are_rare() {
    let mut m = MinstrelHt::new(cfg(false, 20, true, 2));
    let mut r = rng();
    let ok = |rate: Rate| group_mcs(rate) <= 5;
    let mut now = 0;
    let (mut ppdus, mut probes) = (0u32, 0u32);
    let until = 2_000 * MS;
    let mut last_probe: Option<SimTime> = None;
    let mut updates_since_probe = 0;
    while now < until {
        let before = m.last_stats_update;
        let (chain, len, probe) = m.rate_chain(now, &mut r);
        assert_eq!(len, 4);
        if probe {
            probes += 1;
            assert_eq!(chain[0].tries, 1, "a probe is tried once");
            assert_eq!(&chain[1..], &m.table[1..], "the rest is the rate table");
            assert_eq!(chain[3].rate, m.max_prob_rate());
            if let Some(t) = last_probe {
                // Within one statistics interval probes are 20 ms apart.
                if updates_since_probe == 0 {
                    assert!(now - t >= SAMPLE_INTERVAL_NS, "probes {} ns apart", now - t);
                }
            }
            last_probe = Some(now);
            updates_since_probe = 0;
        } else {
            assert_eq!(&chain, &m.table, "a normal PPDU uses the rate table");
        }
        let mut used = [0u8; 4];
        let mut acked = 0;
        'c: for i in 0..len {
            for _ in 0..chain[i].tries {
                used[i] += 1;
                if ok(chain[i].rate) {
                    acked = 1;
                    break 'c;
                }
            }
        }
        m.tx_status(now, &chain, &used, 1, acked);
        if m.last_stats_update != before {
            updates_since_probe += 1;
        }
        ppdus += 1;
        now += MS / 2;
    }
    let bound = (until / SAMPLE_INTERVAL_NS + until / UPDATE_INTERVAL_NS + 2) as u32;
    assert!(probes > 0, "it samples");
    assert!(probes <= bound, "{probes} probes of {ppdus} PPDUs (bound {bound})");
    assert!(probes * 20 < ppdus, "probes are a small share: {probes} of {ppdus}");
}

// One rate (HT MCS 3, 20 MHz, long GI), one try per 51 ms interval:
//
//   interval:  1..6 acked | 7     8     9     10   11
//   prob_avg:  4096       | 2923  1413  142   1    1
//
// Linux's current average is the 2nd-order filter of minstrel_filter_avg_add, period 16:
//   a1 = exp(-pi*sqrt(2)/16), C2 = 2*a1*cos(sqrt(2)*2*pi/16), C3 = -a1^2, C1 = 1-C2-C3,
// 12-bit fixed point (C2 = 5273 = 0x1499, C3 = -2350 = -0x92e, C1 = 1173); input 0 counts
// as 1, output clamped to [1, 4096]. By hand from 4096, 4096 with input 1:
//   (1173*1 + 5273*4096 - 2350*4096) >> 12 = 11973781 >> 12 = 2923
//   (1173 + 5273*2923 - 2350*4096) >> 12 = 5788552 >> 12 = 1413
//   (1173 + 5273*1413 - 2350*2923) >> 12 = 582872 >> 12 = 142
//   (1173 + 5273*142 - 2350*1413) >> 12 < 0 -> 1
#[test]
fn probability_follows_the_filter_after_the_link_breaks() {
    let a1 = (-std::f64::consts::PI * 2f64.sqrt() / 16.0).exp();
    let c2 = 2.0 * a1 * (2f64.sqrt() * 2.0 * std::f64::consts::PI / 16.0).cos();
    let c3 = -a1 * a1;
    assert_eq!((c2 * 4096.0) as i32, 5273);
    assert_eq!((c3 * 4096.0) as i32, -2350);

    let mut m = MinstrelHt::new(cfg(false, 20, false, 1));
    let mut r = rng();
    m.rate_chain(0, &mut r);
    let rate = ht(3, 20, false);
    let idx = mi_rate(group_slot(1, false), 3);
    let chain = [ChainEntry { rate, tries: 1 }];
    let mut t = 0;
    for _ in 0..6 {
        t += 51 * MS;
        m.tx_status(t, &chain, &[1], 1, 1);
        assert_eq!(m.prob(idx), 4096);
    }
    for expect in [2923, 1413, 142, 1, 1] {
        t += 51 * MS;
        m.tx_status(t, &chain, &[1], 1, 0);
        assert_eq!(m.prob(idx), expect);
    }
}

// EWMA_LEVEL 96 of 128: the average A-MPDU length moves a quarter of the way per interval.
//   start 1; interval of 16-MPDU A-MPDUs: 1 + (16-1)/4 = 4.75 -> 4 MPDUs (truncated);
//   another: 4.75 + (16-4.75)/4 = 7.5625 -> 7.
#[test]
fn average_ampdu_length_is_an_ewma_of_weight_96_128() {
    let mut m = MinstrelHt::new(cfg(false, 20, false, 1));
    let mut r = rng();
    m.rate_chain(0, &mut r);
    let chain = [ChainEntry { rate: ht(0, 20, false), tries: 1 }];
    m.tx_status(51 * MS, &chain, &[1], 16, 16);
    assert_eq!(m.avg_ampdu_len, 19456); // 4.75 * 4096
    assert_eq!(m.avg_ampdu(), 4);
    m.tx_status(102 * MS, &chain, &[1], 16, 16);
    assert_eq!(m.avg_ampdu_len, 30976); // 7.5625 * 4096
    assert_eq!(m.avg_ampdu(), 7);
}

// minstrel_ht_get_tp_avg by hand: duration 100 us, overhead 108 us, 1 MPDU -> 208 us.
//   prob >= 90 %: capped at 3686/4096: 3686e6 / 208000 = 17721; *100 >> 12 = 432
//   prob 3000:    3000e6 / 208000 = 14423; *100 >> 12 = 352
//   4 MPDUs:      nsecs = 27000 + 100000; 3686e6 / 127000 = 29023; *100 >> 12 = 708
//   prob < 10 % (409/4096): 0
#[test]
fn throughput_is_zero_below_ten_percent_and_capped_at_ninety() {
    assert_eq!(tp_avg(4096, 100_000, 108_000, 1), 432);
    assert_eq!(tp_avg(3686, 100_000, 108_000, 1), 432);
    assert_eq!(tp_avg(3900, 100_000, 108_000, 1), 432);
    assert_eq!(tp_avg(3000, 100_000, 108_000, 1), 352);
    assert_eq!(tp_avg(4096, 100_000, 108_000, 4), 708);
    assert_eq!(tp_avg(408, 100_000, 108_000, 1), 0);
    assert!(tp_avg(409, 100_000, 108_000, 1) > 0);
}

// minstrel_calc_retransmit by hand, ns: slot 9 us, CW 15 -> 31 -> 63 ..., overhead 108 us,
// with RTS/CTS 228 us, data 100 us, segment 6000 us, at most 7 tries.
//   two tries: contention 67.5 + 139.5 = 207 us; plain 207 + 2*208 = 623; RTS 207 + 2*328 = 863
//   try 3: +283.5 (cw 63): plain 1114.5, RTS 1474.5 (< 6000: RTS 3)
//   try 4: +571.5 (127):   plain 1894,   RTS 2374   (RTS 4)
//   try 5: +1147.5 (255):  plain 3249.5, RTS 3849.5 (RTS 5)
//   try 6: +2299.5 (511):  plain 5757,   RTS 6477   (RTS stays 5; plain < 6000: 6 tries)
//   try 7: +4603.5 (1023): plain 10568.5 >= 6000: stop.  -> (6, 5)
// A 2 ms packet: 207 + 2*2108 = 4423; next try 4423 + 283.5 + 2108 > 6000 -> (2, 2).
#[test]
fn retry_counts_fill_the_segment_as_linux_computes() {
    let backoff = (15, 1023, 9_000);
    assert_eq!(retransmit_counts(100_000, 108_000, 228_000, backoff), (6, 5));
    assert_eq!(retransmit_counts(2_000_000, 108_000, 228_000, backoff), (2, 2));
    // In the chain: after a perfect run, entry 0 carries the plain count of max_tp, the
    // fallbacks the RTS/CTS counts of theirs.
    let mut m = MinstrelHt::new(cfg(false, 20, false, 2));
    let mut r = rng();
    drive(&mut m, &mut r, (0, 10 * UPDATE_INTERVAL_NS, MS), |_| true, false);
    let (chain, _, _) = m.rate_chain(10 * UPDATE_INTERVAL_NS + MS, &mut r);
    let counts = |rate: Rate| {
        let idx = groups::lookup(&m.groups, rate).unwrap();
        let data = u64::from(m.duration(idx)) * u64::from(m.avg_ampdu());
        retransmit_counts(data, LINUX_OVERHEAD_NS, LINUX_OVERHEAD_RTSCTS_NS, backoff)
    };
    assert_eq!(chain[0].tries, counts(chain[0].rate).0);
    for e in &chain[1..] {
        assert_eq!(e.tries, counts(e.rate).1);
    }
}

// VHT groups hold only the standard's valid combinations:
//   20 MHz: MCS 9 exists only with 3 streams;  80 MHz: MCS 6 is missing with 3 streams.
// A perfect 20 MHz 1-stream link then tops out at MCS 8, and no chain ever holds MCS 9.
#[test]
fn vht_groups_skip_invalid_combinations() {
    let m = MinstrelHt::new(cfg(true, 20, true, 4));
    for (streams, mask) in [(1, 0x1ff), (2, 0x1ff), (3, 0x3ff), (4, 0x1ff)] {
        for sgi in [false, true] {
            assert_eq!(m.groups[group_slot(streams, sgi)].supported, mask, "{streams} streams");
        }
    }
    let m80 = MinstrelHt::new(cfg(true, 80, false, 4));
    assert_eq!(m80.groups[group_slot(3, false)].supported, 0x3ff & !(1 << 6));
    assert_eq!(m80.groups[group_slot(2, false)].supported, 0x3ff);

    let mut m = MinstrelHt::new(cfg(true, 20, false, 1));
    let mut r = rng();
    let seen = drive(&mut m, &mut r, (0, 10 * UPDATE_INTERVAL_NS, MS), |_| true, true);
    for (chain, len, _) in &seen.chains {
        for e in &chain[..*len] {
            assert!(group_mcs(e.rate) <= 8, "MCS 9 at 20 MHz, 1 stream");
        }
    }
    assert_eq!(m.max_tp_rate(), Rate::mcs(McsMode::vht(8, 1, 20, false).unwrap()));
}

// Sudden death of the 2-stream rates: after a perfect start (max_tp = MCS 15), every
// 2-stream rate fails from just after a statistics update on. Over 30 attempts with under
// 25 % success at max_tp move it to the best 1-stream rate (minstrel_downgrade_rate) before
// the next update; the following updates settle on MCS 7.
//
//   t:   u (update) | u+0.25 ms ... PPDUs fail at MCS 8-15 ... | u+50 ms (next update)
//   max_tp: MCS 15  |  -> 1-stream rate here, by the downgrade  |
#[test]
fn losing_the_second_stream_falls_back_to_one_stream() {
    let mut m = MinstrelHt::new(cfg(false, 20, false, 2));
    let mut r = rng();
    let t0 = 10 * UPDATE_INTERVAL_NS;
    drive(&mut m, &mut r, (0, t0, MS), |_| true, false);
    assert_eq!(m.max_tp_rate(), ht(15, 20, false));
    let one_stream = |rate: Rate| rate.mcs_mode().unwrap().streams() == 1;
    // Run on until a statistics update happens, then break the second stream.
    let mut now = t0;
    let last = m.last_stats_update;
    while m.last_stats_update == last {
        drive(&mut m, &mut r, (now, now + MS / 4, MS / 4), |_| true, false);
        now += MS / 4;
    }
    let update = m.last_stats_update;
    while !one_stream(m.max_tp_rate()) {
        drive(&mut m, &mut r, (now, now + MS / 4, MS / 4), one_stream, false);
        now += MS / 4;
        assert!(now < update + UPDATE_INTERVAL_NS, "no downgrade within the interval");
    }
    assert_eq!(m.last_stats_update, update, "the downgrade came before any update");
    drive(&mut m, &mut r, (now, now + 20 * UPDATE_INTERVAL_NS, MS), one_stream, false);
    assert_eq!(m.max_tp_rate(), ht(7, 20, false));
    assert!(one_stream(m.max_prob_rate()));
}

// The same link under 20 different random sample tables: every one gets to MCS 12 SGI
// within 40 update intervals (2 s).
#[test]
fn converges_whatever_the_sample_table() {
    for seed in 0..20 {
        let mut m = MinstrelHt::new(cfg(false, 20, true, 2));
        let mut r = Rng::derive(seed, Purpose::RateControl, 3);
        let ok = |rate: Rate| group_mcs(rate) <= 4;
        drive(&mut m, &mut r, (0, 40 * UPDATE_INTERVAL_NS, MS), ok, false);
        assert_eq!(m.max_tp_rate(), ht(12, 20, true), "seed {seed}");
    }
}
