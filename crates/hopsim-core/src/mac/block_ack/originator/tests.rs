//! Scripts of A-MPDUs and Block Acks against 802.11-2016 10.24.7.7: what is acknowledged,
//! what is sent again and in which order, when the window is full, and when a BlockAckReq is
//! owed.

use super::*;

const LIMIT: u32 = 7;

/// The discard rule of these scripts: a retry limit of `LIMIT` failures.
fn at_limit(_: &u16, failures: u32) -> bool {
    failures >= LIMIT
}

fn filled(ssn: u16, n: u16) -> Originator<u16> {
    let mut o = Originator::new(ssn, MAX_WINDOW);
    for i in 0..n {
        assert_eq!(o.push(advance(ssn, i)), advance(ssn, i), "sequence numbers in order");
    }
    o
}

fn send_all(o: &mut Originator<u16>) -> Vec<u16> {
    let seqs: Vec<u16> = o.pending().map(|p| p.0).collect();
    o.mark_sent(seqs.iter().copied());
    seqs
}

fn block_ack(o: &mut Originator<u16>, ssn: u16, bitmap: u64) -> (Settled, Vec<u16>, Vec<u16>) {
    let (mut acked, mut discarded) = (Vec::new(), Vec::new());
    let s = o.on_block_ack((ssn, bitmap), at_limit, &mut acked, &mut discarded);
    (s, acked, discarded)
}

#[test]
fn a_full_block_ack_acknowledges_the_aggregate_and_slides_the_window() {
    let mut o = filled(0, 10);
    assert_eq!(send_all(&mut o), (0..10).collect::<Vec<_>>());
    assert_eq!(o.pending().count(), 0, "everything awaits the Block Ack");
    let (s, acked, _) = block_ack(&mut o, 0, 0x3ff);
    assert_eq!((s.acked, s.failed, acked.len()), (10, 0, 10));
    assert_eq!((o.win_start(), o.outstanding()), (10, 0));
}

#[test]
fn the_holes_of_a_block_ack_are_sent_again_before_new_mpdus() {
    let mut o = filled(0, 10);
    send_all(&mut o);
    let bitmap = 0x3ff & !(1 << 2) & !(1 << 5);
    let (s, acked, discarded) = block_ack(&mut o, 0, bitmap);
    assert_eq!((s.acked, s.failed, s.discarded), (8, 2, 0));
    assert_eq!(acked, vec![0, 1, 3, 4, 6, 7, 8, 9]);
    assert!(discarded.is_empty());
    assert_eq!(o.win_start(), 2, "WinStartO at the oldest unacknowledged MPDU");
    o.push(10);
    let next: Vec<(u16, u16, bool)> = o.pending().collect();
    assert_eq!(next, vec![(2, 2, true), (5, 5, true), (10, 10, false)]);
}

#[test]
fn the_window_limits_what_may_be_sent() {
    let mut o = filled(0, 64);
    assert!(!o.has_room(), "64 outstanding from WinStartO 0");
    send_all(&mut o);
    // Everything but SN 0 acknowledged: the window cannot move past 0.
    let (s, ..) = block_ack(&mut o, 0, !1);
    assert_eq!(s.acked, 63);
    assert!(!o.has_room(), "SN 64 would lie outside [0, 63]");
    send_all(&mut o);
    block_ack(&mut o, 0, 1);
    assert_eq!(o.win_start(), 64);
    assert!(o.has_room());
}

#[test]
fn a_missed_block_ack_fails_every_mpdu_and_the_limit_discards_them_with_a_bar_owed() {
    let mut o = filled(0, 3);
    for round in 1..=LIMIT {
        send_all(&mut o);
        let mut discarded = Vec::new();
        let s = o.on_missed_block_ack(at_limit, &mut discarded);
        assert_eq!(s.failed, 3);
        if round < LIMIT {
            assert!(discarded.is_empty() && !o.bar_due());
        } else {
            assert_eq!(discarded, vec![0, 1, 2]);
            assert!(o.bar_due(), "the recipient must skip the gap");
        }
    }
    assert_eq!((o.win_start(), o.outstanding()), (3, 0), "the BAR names SSN 3");
    o.bar_sent();
    assert!(!o.bar_due());
}

#[test]
fn a_discarded_head_lets_the_window_pass_the_acknowledged_mpdus_behind_it() {
    let mut o = filled(0, 4);
    for _ in 0..LIMIT - 1 {
        send_all(&mut o);
        block_ack(&mut o, 0, 0);
    }
    // Seventh attempt: 1-3 get through, 0 fails for the last time.
    send_all(&mut o);
    let (s, acked, discarded) = block_ack(&mut o, 0, 0b1110);
    assert_eq!((s.acked, s.discarded), (3, 1));
    assert_eq!((acked, discarded), (vec![1, 2, 3], vec![0]));
    assert_eq!(o.win_start(), 4);
    assert!(o.bar_due());
}

#[test]
fn bits_for_mpdus_not_awaiting_a_block_ack_change_nothing() {
    let mut o = filled(0, 2);
    o.mark_sent([0]);
    let (s, acked, _) = block_ack(&mut o, 0, 0b11);
    assert_eq!((s.acked, acked), (1, vec![0]));
    assert_eq!(o.pending().map(|p| p.0).collect::<Vec<_>>(), vec![1], "1 was never sent");
}

#[test]
fn sequence_numbers_wrap_at_4096() {
    let mut o = filled(4094, 4);
    assert_eq!(send_all(&mut o), vec![4094, 4095, 0, 1]);
    let (s, ..) = block_ack(&mut o, 4094, 0b1011);
    assert_eq!((s.acked, s.failed), (3, 1));
    assert_eq!(o.win_start(), 0);
    assert_eq!(o.pending().next(), Some((0, 0, true)));
}
