//! Scripts of arrivals against the rules of 802.11-2016 10.24.7.3 and 10.24.7.6.2, each
//! expectation worked out from the rule it names.

use super::*;

fn recipient(ssn: u16) -> Recipient<u16> {
    Recipient::new(ssn, MAX_WINDOW)
}

/// Deliver `seqs` (the held item is the sequence number itself) at time `now`.
fn arrive(r: &mut Recipient<u16>, seqs: &[u16], now: SimTime) -> Vec<u16> {
    let mut up = Vec::new();
    for &s in seqs {
        r.on_mpdu(s, s, now, &mut up);
    }
    up
}

#[test]
fn frames_in_order_go_straight_up_and_the_block_ack_reports_the_aggregate() {
    let mut r = recipient(0);
    assert_eq!(arrive(&mut r, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 0), (0..10).collect::<Vec<_>>());
    // WinStartR stays at 0: the bitmap has the ten frames (10.24.7.3 moves it only past
    // WinEndR), while WinStartB has followed them.
    assert_eq!(r.block_ack(), (0, 0x3ff));
    assert_eq!(r.held(), 0);
}

#[test]
fn a_gap_holds_the_frames_behind_it_until_it_is_filled() {
    let mut r = recipient(0);
    assert_eq!(arrive(&mut r, &[0, 1, 3, 4], 0), vec![0, 1]);
    assert_eq!(r.held(), 2);
    assert_eq!(r.block_ack(), (0, 0b11011));
    assert_eq!(arrive(&mut r, &[2], 5), vec![2, 3, 4]);
    assert_eq!(r.held(), 0);
}

#[test]
fn duplicates_and_old_frames_are_discarded() {
    let mut r = recipient(0);
    let mut up = Vec::new();
    assert_eq!(r.on_mpdu(2, 2, 0, &mut up), Arrival::Taken);
    assert_eq!(r.on_mpdu(2, 2, 0, &mut up), Arrival::Duplicate, "already buffered");
    arrive(&mut r, &[0, 1], 0);
    assert_eq!(r.on_mpdu(1, 1, 0, &mut up), Arrival::Duplicate, "before WinStartB");
    // 2048 after WinStartB (3) counts as before it (half-space comparison).
    assert_eq!(r.on_mpdu(3 + 2048, 0, 0, &mut up), Arrival::Duplicate);
}

#[test]
fn a_frame_beyond_the_window_pushes_it_on_and_releases_what_falls_out() {
    let mut r = recipient(0);
    assert_eq!(arrive(&mut r, &[1, 5, 9], 0), Vec::<u16>::new());
    // SN 70 > WinEndB 63: WinEndB = 70, WinStartB = 7; 1 and 5 (before 7) go up with their
    // gaps, 9 stays behind the gap at 7-8 (10.24.7.6.2 b).
    assert_eq!(arrive(&mut r, &[70], 1), vec![1, 5]);
    assert_eq!(r.held(), 2);
    // The scoreboard ends at 70 too: WinStartR = 7, bit 2 (SN 9) and bit 63 (SN 70).
    assert_eq!(r.block_ack(), (7, (1 << 2) | (1 << 63)));
    assert_eq!(arrive(&mut r, &[7, 8], 2), vec![7, 8, 9]);
}

#[test]
fn a_block_ack_request_moves_both_windows_and_gives_up_the_gap() {
    let mut r = recipient(0);
    arrive(&mut r, &[0, 1, 3, 4, 6], 0);
    let mut up = Vec::new();
    r.on_bar(3, &mut up);
    assert_eq!(up, vec![3, 4], "the originator gave up 2; 6 still waits for 5");
    assert_eq!(r.block_ack(), (3, 0b1011), "WinStartR = SSN: bits of 3, 4 and 6");
    up.clear();
    r.on_bar(2, &mut up);
    assert!(up.is_empty(), "an earlier SSN changes nothing");
    r.on_bar(7, &mut up);
    assert_eq!(up, vec![6]);
    assert_eq!(r.held(), 0);
}

#[test]
fn the_reorder_timeout_releases_what_waited_too_long_with_the_frames_after_it() {
    let mut r = recipient(0);
    arrive(&mut r, &[0, 1], 0);
    arrive(&mut r, &[3], 10);
    arrive(&mut r, &[4], 20);
    arrive(&mut r, &[6], 30);
    let timeout = 100;
    assert_eq!(r.next_release(timeout), Some(110));
    let mut up = Vec::new();
    r.on_timeout(109, timeout, &mut up);
    assert!(up.is_empty());
    // At 110 SN 3 has waited 100: the gap at 2 is given up, 3 and the 4 right after it go,
    // 6 waits behind the gap at 5 (until 130).
    r.on_timeout(110, timeout, &mut up);
    assert_eq!(up, vec![3, 4]);
    assert_eq!(r.next_release(timeout), Some(130));
    assert_eq!(arrive(&mut r, &[5], 111), vec![5, 6]);
    assert_eq!(r.next_release(timeout), None);
}

#[test]
fn sequence_numbers_wrap_at_4096() {
    let mut r = recipient(4090);
    let seqs: Vec<u16> = (4090..4096).chain(0..4).collect();
    assert_eq!(arrive(&mut r, &seqs, 0), seqs);
    assert_eq!(r.block_ack(), (4090, 0x3ff));
    // A frame 64 after WinStartR wraps the scoreboard on by one.
    arrive(&mut r, &[advance(4090, 64)], 1);
    assert_eq!(r.block_ack().0, 4091);
}

#[test]
fn a_smaller_buffer_moves_sooner() {
    // WinSizeB 8: SN 8 lies beyond WinEndB 7, so WinStartB becomes 1 and SN 0, were it
    // held, would go; with 0 missing, 2 (held) waits for 1.
    let mut r: Recipient<u16> = Recipient::new(0, 8);
    assert_eq!(arrive(&mut r, &[2], 0), Vec::<u16>::new());
    assert_eq!(arrive(&mut r, &[8], 0), Vec::<u16>::new());
    assert_eq!(r.block_ack(), (1, (1 << 1) | (1 << 7)));
    assert_eq!(arrive(&mut r, &[1], 0), vec![1, 2]);
}

#[test]
fn an_msdu_arriving_after_its_gap_was_given_up_is_late_not_a_duplicate() {
    let mut r = recipient(0);
    arrive(&mut r, &[0, 2], 0);
    let mut up = Vec::new();
    r.on_timeout(100, 100, &mut up); // 2 waited 100: the gap at 1 is given up
    assert_eq!(up, vec![2]);
    assert_eq!(r.on_mpdu(1, 1, 101, &mut up), Arrival::Late, "1 came after its gap closed");
    assert_eq!(r.on_mpdu(1, 1, 102, &mut up), Arrival::Duplicate, "a second copy");
    assert_eq!(r.on_mpdu(0, 0, 103, &mut up), Arrival::Duplicate, "0 went up");
    // A BlockAckReq that skips 3 and 4: they are late if they come.
    arrive(&mut r, &[5], 104);
    r.on_bar(6, &mut up);
    assert_eq!(r.on_mpdu(4, 4, 105, &mut up), Arrival::Late);
    assert_eq!(r.on_mpdu(5, 5, 105, &mut up), Arrival::Duplicate);
}
