//! EDCA timelines (802.11-2016 10.22.2) on an 802.11n MAC (5 GHz: slot 9 us, SIFS 16 us; DATA
//! at MCS 7, 20 MHz, long GI: 168 us for the bench's 1,066-octet MPDU; its ACK at 24 Mbit/s,
//! 28 us).

use super::tests::Bench;
use super::*;
use crate::engine::time::us;
use crate::mac::timing::Rate;
use crate::phy::ht::{HtMode, HtWidth};

fn bench() -> Bench {
    let mcs7 = Rate::ht(HtMode { mcs: 7, width: HtWidth::Mhz20, short_gi: false });
    let timing = Timing::for_standard(crate::mac::timing::Standard::N, Rate(60), mcs7, 1000);
    let edca = Ac::ALL.map(|ac| EdcaParams::default_for(ac, 15, 1023, false));
    let cfg = DcfConfig {
        ns2: false,
        timing,
        cw_min: 15,
        cw_max: 1023,
        rts_threshold_bytes: 65535,
        short_retry_limit: 7,
        long_retry_limit: 4,
        rate_algo: crate::mac::rate::RateAlgo::Constant(mcs7),
        agg: None,
        amsdu: None,
        edca: Some(edca),
        erp_protection: Default::default(),
        fail_average: Default::default(),
    };
    let mut b = Bench::with_config(cfg);
    b.answer_data = true;
    b
}

/// Carrier sense reports the medium busy from 400 us to `end`.
fn busy_until(b: &mut Bench, end: SimTime) {
    b.dcf.on_medium_busy(us(400), end);
}

/// Function `ac`'s backoff is set to `slots` (in place of its draw).
fn set_backoff(b: &mut Bench, ac: Ac, now: SimTime, slots: u32) {
    b.dcf.efs[ac.index()].access.start_backoff(now, slots);
    let mut cx = MacCtx { now, timers: &mut b.sched, out: &mut b.out };
    b.dcf.arm_access(&mut cx);
}

/// ```text
///  medium  |== other ==|<- AIFS[VO] 34 ->|<- 2 slots ->|VO DATA ...
///  BE                  |<-  AIFS[BE] 43   ->|<-1 slot->|  (ends with VO: internal collision)
///          0        1000 us                         1052 us
/// ```
/// Both countdowns end at 1000 + 34 + 2 x 9 = 1000 + 43 + 9 = 1052 us: voice transmits, best
/// effort acts as if it had collided (10.22.2.4): its CW grows from 15 to 31 and its frame
/// counts a failed attempt.
#[test]
fn a_tie_goes_to_the_higher_category_and_the_lower_backs_off() {
    let mut b = bench();
    busy_until(&mut b, us(1000));
    let (p, q) = (b.packet(), b.packet());
    b.offer_ac(us(500), p, Ac::Be);
    b.offer_ac(us(600), q, Ac::Vo);
    set_backoff(&mut b, Ac::Be, us(600), 1);
    set_backoff(&mut b, Ac::Vo, us(600), 2);
    b.run_until(us(1060));
    let first = b.sent.first().expect("a frame went out");
    assert_eq!(first.0, us(1052));
    assert_eq!(first.1.packet, Some(q), "voice won");
    assert_eq!(first.1.tid, 6, "voice's TID (UP 6 of EF, RFC 8325)");
    assert_eq!(b.dcf.counters.internal_collisions, 1);
    let be = &b.dcf.efs[Ac::Be.index()];
    assert_eq!(be.cw, 31, "CW doubled as after a collision");
    assert_eq!(be.job.map(|j| j.short_retries), Some(1), "a failed attempt counted");
    assert!(be.access.backoff().is_some(), "a new backoff drawn");
    assert_eq!(b.dcf.efs[Ac::Vo.index()].cw, 3, "voice's CWmin untouched");
}

/// ```text
///  medium |== other ==|<- AIFS[VO] 34 ->|<- 3 slots ->|VO DATA
///  BE                 |<- AIFS[BE] 43 ->|<- 0 slots: its access at 1043 us
/// ```
/// With the same medium, best effort's zero-slot backoff ends at 1043 us, before voice's
/// 1000 + 34 + 27 = 1061 us: AIFS orders the categories, not the category alone.
#[test]
fn each_category_waits_its_own_aifs() {
    let mut b = bench();
    busy_until(&mut b, us(1000));
    let (p, q) = (b.packet(), b.packet());
    b.offer_ac(us(500), p, Ac::Be);
    b.offer_ac(us(600), q, Ac::Vo);
    set_backoff(&mut b, Ac::Be, us(600), 0);
    set_backoff(&mut b, Ac::Vo, us(600), 3);
    b.run_until(us(1044));
    assert_eq!(b.sent.len(), 1);
    assert_eq!((b.sent[0].0, b.sent[0].1.packet), (us(1043), Some(p)));
    assert_eq!(b.dcf.counters.internal_collisions, 0);
}

/// ```text
///  VO  |DATA 168|SIFS|ACK 28|SIFS|DATA|SIFS|ACK| ... |DATA|SIFS|ACK|<- AIFS + backoff ->|DATA
///      0                    228                      1140      1352
///      |<-------------------- TXOP limit 1504 us ------------------->|
/// ```
/// A voice TXOP (limit 1.504 ms, Table 9-137): after each acknowledged frame the next follows
/// SIFS after the ACK, as long as its exchange (168 + 16 + 28 = 212 us) ends within the limit:
/// frames at 0, 228, ..., 1140 us (six); the seventh (1368 + 212 > 1504) contends again. Each
/// frame's Duration covers its own exchange (SIFS + ACK).
#[test]
fn a_voice_txop_carries_frames_sifs_apart_within_its_limit() {
    let mut b = bench();
    let t = b.timing;
    let p = b.packet();
    b.backlog[Ac::Vo.index()] = 7;
    b.offer_ac(us(1000), p, Ac::Vo);
    b.run_until(us(20_000));
    let data: Vec<_> = b.sent.iter().filter(|(_, f)| f.kind == FrameKind::Data).collect();
    assert_eq!(data.len(), 8);
    let airtime = data[0].1.airtime_ns;
    assert_eq!(airtime, us(168), "36 us HT-mixed preamble + 33 symbols");
    assert_eq!(t.ack_after_ns(data[0].1.rate), us(28));
    let exchange = airtime + t.sifs + us(28);
    let start = data[0].0;
    for k in 1..6 {
        assert_eq!(data[k].0, data[k - 1].0 + exchange + t.sifs, "frame {k} SIFS after the ACK");
        assert!(data[k].0 + exchange <= start + us(1504));
    }
    assert!(data[6].0 >= data[5].0 + exchange + us(34), "the seventh contends (AIFS[VO])");
    assert!(data.iter().all(|(_, f)| f.nav_ns == t.sifs + us(28)), "single protection");
}

/// Best effort's TXOP limit is 0: one frame per access, each after AIFS and a backoff.
#[test]
fn best_effort_sends_one_frame_per_access() {
    let mut b = bench();
    let t = b.timing;
    let p = b.packet();
    b.backlog[Ac::Be.index()] = 3;
    b.offer_ac(us(1000), p, Ac::Be);
    b.run_until(us(20_000));
    let data: Vec<_> = b.sent.iter().filter(|(_, f)| f.kind == FrameKind::Data).collect();
    assert_eq!(data.len(), 4);
    for k in 1..4 {
        let ack_end = data[k - 1].0 + data[k - 1].1.airtime_ns + t.sifs + us(28);
        assert!(data[k].0 >= ack_end + us(43), "frame {k} waits AIFS[BE] at least");
    }
}
