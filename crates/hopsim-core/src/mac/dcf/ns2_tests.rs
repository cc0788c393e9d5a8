//! ns-2.35's waits around an RTS/CTS exchange (ns2 profile, dcf/ns2.rs): the CTS and ACK
//! timeouts of `check_pktRTS`/`check_pktTx`, the retry's countdown DIFS after the timeout
//! (`RetransmitRTS` -> `tx_resume`), and the CTS sender's `MAC_CTS` wait for the DATA.

use super::tests::{data_from, Bench, ME, OTHER, PEER};
use super::*;
use crate::engine::time::us;

//   RTS |--------| no CTS
//        ns-2:     2 us + SIFS + CTS + 2 us | DIFS | k slots | RTS
//        standard: SIFS + CTS + slot + 2 prop | k slots | RTS  (idle for DIFS already)
#[test]
fn ns2_retry_counts_down_from_difs_after_its_own_timeout() {
    for ns2 in [false, true] {
        let mut b = Bench::with_profile(0, ns2);
        let t = b.timing;
        let p = b.packet();
        b.offer(us(1000), p);
        b.run_until(1_000_000_000);
        assert_eq!(b.sent_kinds(), vec![FrameKind::Rts; 7], "ns2 = {ns2}");
        let (timeout, wait) = if ns2 {
            (t.sifs + t.cts_ns + us(4), t.difs)
        } else {
            (t.response_timeout(t.cts_ns), 0)
        };
        for w in b.sent.windows(2) {
            let end = w[0].0 + w[0].1.airtime_ns;
            let counted = w[1].0 as i64 - (end + timeout + wait) as i64;
            // A whole number of slots: DIFS (2.5 slots) sets the two profiles apart.
            assert!(counted >= 0 && counted % t.slot as i64 == 0, "ns2 = {ns2}: {counted} ns");
        }
    }
}

//   RTS from PEER -> CTS at 1010 us; the DATA never comes
//   ns-2: MAC_CTS until the DATA's end + 4 us: an RTS from OTHER then is not answered,
//   one after it is
#[test]
fn ns2_the_cts_sender_waits_for_the_data_and_answers_no_rts_meanwhile() {
    for ns2 in [false, true] {
        let mut b = Bench::with_profile(0, ns2);
        let t = b.timing;
        let nav = us(5000);
        b.hear((us(1000), Frame::control(FrameKind::Rts, PEER, ME, nav, &t, t.basic_rate), true));
        // DATA would end at the CTS's end + the rest of its duration - SIFS - ACK.
        let cts_end = us(1010) + t.cts_ns;
        let data_end = cts_end + (nav - t.sifs - t.cts_ns) - t.sifs - t.ack_ns;
        let early = Frame::control(FrameKind::Rts, OTHER, ME, nav, &t, t.basic_rate);
        b.hear((cts_end + us(2000), early, true));
        let late = Frame::control(FrameKind::Rts, OTHER, ME, nav, &t, t.basic_rate);
        let late_end = data_end + us(4) + t.rts_ns + us(1);
        b.hear((late_end, late, true));
        b.run_until(late_end + us(1000));
        let answered: Vec<SimTime> = b.sent.iter().map(|(at, _)| *at).collect();
        let mut want = vec![us(1010)];
        if !ns2 {
            want.push(cts_end + us(2000) + t.sifs);
        }
        want.push(late_end + t.sifs);
        assert_eq!(answered, want, "ns2 = {ns2}");
    }
}

//   RTS from PEER -> CTS; DATA from PEER arrives: the ACK goes out at once (the wait ends
//   with the DATA), and an RTS after the ACK is answered
#[test]
fn ns2_an_exchange_completes_and_the_next_rts_is_answered() {
    let mut b = Bench::with_profile(0, true);
    let t = b.timing;
    b.hear((us(1000), Frame::control(FrameKind::Rts, PEER, ME, us(5000), &t, t.basic_rate), true));
    let cts_end = us(1010) + t.cts_ns;
    let p = b.packet();
    let data = data_from(PEER, 0, false, p, &t);
    let data_end = cts_end + t.sifs + data.airtime_ns;
    b.hear((data_end, data, true));
    let ack_end = data_end + t.sifs + t.ack_ns;
    let rts_end = ack_end + us(100) + t.rts_ns;
    b.hear((rts_end, Frame::control(FrameKind::Rts, OTHER, ME, us(5000), &t, t.basic_rate), true));
    b.run_until(rts_end + us(1000));
    let kinds = b.sent_kinds();
    assert_eq!(kinds, vec![FrameKind::Cts, FrameKind::Ack, FrameKind::Cts]);
    assert_eq!(b.received, vec![p]);
}

//   ME: RTS |-----|        CTS from PEER |-----| SIFS: DATA?
//   OTHER (garbled)   |------|  ends just before the CTS: EIFS covers the SIFS after it
//   ns-2 (check_pktTx, is_idle() false): no DATA, a new RTS after a backoff; standard: DATA
#[test]
fn ns2_no_data_after_the_cts_while_the_medium_is_not_idle() {
    for ns2 in [false, true] {
        let mut b = Bench::with_profile(0, ns2);
        let t = b.timing;
        b.answer_rts = true;
        b.answer_data = true;
        let p = b.packet();
        b.offer(us(1000), p);
        b.run_until(us(1700));
        let (rts_at, rts) = b.sent[0];
        assert_eq!(rts.kind, FrameKind::Rts);
        let garbled = Frame::control(FrameKind::Cts, OTHER, NodeId(3), 0, &t, t.basic_rate);
        b.hear((rts_at + rts.airtime_ns + t.sifs - us(1), garbled, false));
        b.run_until(us(20_000));
        let second = b.sent[1].1.kind;
        let want = if ns2 { FrameKind::Rts } else { FrameKind::Data };
        assert_eq!(second, want, "ns2 = {ns2}: {:?}", b.sent_kinds());
        assert_eq!(b.done.len(), 1, "ns2 = {ns2}: the exchange completes");
        assert_eq!(b.dcf.counters.mac_retries, 0, "ns2 = {ns2}: the deferred DATA is no retry");
    }
}
