//! The recipient of an HT-immediate Block Ack agreement: the scoreboard a compressed Block
//! Ack reports (IEEE 802.11-2016 10.24.7.3, full state) and the receive reordering buffer
//! that hands MSDUs up in sequence order (10.24.7.6.2), with the release timeout of Linux's
//! mac80211 (`HT_RX_REORDER_BUF_TIMEOUT`, net/mac80211/rx.c `ieee80211_sta_reorder_release`)
//! as an option: the standard keeps a frame behind a gap until the gap is filled, a later
//! frame pushes the window on, or a BlockAckReq moves it.
//!
//! The two windows move differently. The scoreboard's WinStartR moves only when a frame
//! arrives beyond its end or a BlockAckReq names a later start, so a Block Ack after an
//! A-MPDU reports the whole aggregate; the buffer's WinStartB follows every frame passed up.
//! `T` is what the MAC holds for a buffered MPDU (its copy of the packet).

use crate::engine::time::{SimDuration, SimTime};
use crate::mac::block_ack::{advance, distance, MAX_WINDOW, SEQ_HALF, SEQ_SPACE};

#[derive(Debug, Clone, Copy)]
struct Held<T> {
    seq: u16,
    item: T,
    since: SimTime,
}

/// What became of an arriving MPDU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrival {
    /// Buffered (and perhaps already passed up with the frames it completed).
    Taken,
    /// Before the window, or a sequence number already buffered: a duplicate, discarded.
    Duplicate,
    /// Before the window, where the buffer gave up a gap (a timeout, a BlockAckReq, a frame
    /// beyond its end) before this MSDU came: lost, though it arrived.
    Late,
}

#[derive(Debug, Clone)]
pub struct Recipient<T: Copy> {
    /// Scoreboard: WinStartR and one bit per sequence number from it.
    board_start: u16,
    board: u64,
    /// Reordering buffer: WinStartB and the MPDUs held, at index seq mod 64.
    buf_start: u16,
    held: [Option<Held<T>>; MAX_WINDOW as usize],
    held_count: u32,
    /// WinSizeR = WinSizeB: the agreement's buffer size (1-64).
    size: u16,
    /// Bit i: sequence number WinStartB - 1 - i was skipped (a gap given up), not passed up.
    skipped: u64,
}

impl<T: Copy> Recipient<T> {
    /// An agreement whose first sequence number is `ssn` (the ADDBA Request's) and whose
    /// buffer holds `size` MPDUs.
    pub fn new(ssn: u16, size: u16) -> Self {
        debug_assert!((1..=MAX_WINDOW).contains(&size));
        Recipient {
            board_start: ssn,
            board: 0,
            buf_start: ssn,
            held: [None; MAX_WINDOW as usize],
            held_count: 0,
            size,
            skipped: 0,
        }
    }

    /// The Block Ack's Starting Sequence Number and bitmap (bit i: WinStartR + i received);
    /// 10.24.7.5 allows any start from WinEndR - 63 to WinStartR, and this is WinStartR (as
    /// ns-3 sets it).
    pub fn block_ack(&self) -> (u16, u64) {
        (self.board_start, self.board)
    }

    /// MPDUs buffered behind a gap.
    pub fn held(&self) -> u32 {
        self.held_count
    }

    /// An MPDU with sequence number `seq` arrived at `now`; MSDUs it lets go up are pushed
    /// onto `up` in sequence order.
    pub fn on_mpdu(&mut self, seq: u16, item: T, now: SimTime, up: &mut Vec<T>) -> Arrival {
        self.score(seq);
        let d = distance(seq, self.buf_start);
        if d >= SEQ_HALF {
            // Before WinStartB: passed up already, or its gap was given up.
            let back = distance(self.buf_start, seq) - 1;
            if back < 64 && self.skipped & (1 << back) != 0 {
                self.skipped &= !(1 << back);
                return Arrival::Late;
            }
            return Arrival::Duplicate;
        }
        if d >= self.size {
            // Beyond WinEndB: the window ends at it, and what falls out of it goes up
            // (10.24.7.6.2 b).
            // WinEndB = SN, WinStartB = WinEndB - WinSizeB + 1.
            let start = advance(seq, SEQ_SPACE - self.size + 1);
            self.release_before(start, up);
        }
        let slot = &mut self.held[usize::from(seq % MAX_WINDOW)];
        if slot.is_some() {
            return Arrival::Duplicate;
        }
        *slot = Some(Held { seq, item, since: now });
        self.held_count += 1;
        self.release_in_order(up);
        Arrival::Taken
    }

    /// A BlockAckReq with Starting Sequence Number `ssn`: both windows move up to it if it is
    /// later (10.24.7.3, 10.24.7.6.2 c), and the buffer lets go what lies before it.
    pub fn on_bar(&mut self, ssn: u16, up: &mut Vec<T>) {
        let d = distance(ssn, self.board_start);
        if d > 0 && d < SEQ_HALF {
            self.board = if d < 64 { self.board >> d } else { 0 };
            self.board_start = ssn;
        }
        let d = distance(ssn, self.buf_start);
        if d > 0 && d < SEQ_HALF {
            self.release_before(ssn, up);
            self.release_in_order(up);
        }
    }

    /// The earliest moment a held MPDU has waited `timeout`: when [`Recipient::on_timeout`]
    /// is due (None with nothing held).
    pub fn next_release(&self, timeout: SimDuration) -> Option<SimTime> {
        self.held.iter().flatten().map(|h| h.since + timeout).min()
    }

    /// The reorder timeout: every MPDU held for `timeout` or longer goes up, with all held
    /// before it, the gaps before it given up (mac80211's reorder release).
    pub fn on_timeout(&mut self, now: SimTime, timeout: SimDuration, up: &mut Vec<T>) {
        let last_due = (0..self.size)
            .map(|d| advance(self.buf_start, d))
            .filter(|&s| self.slot(s).is_some_and(|h| h.since + timeout <= now))
            .last();
        if let Some(seq) = last_due {
            self.release_before(advance(seq, 1), up);
            self.release_in_order(up);
        }
    }

    fn slot(&self, seq: u16) -> Option<&Held<T>> {
        self.held[usize::from(seq % MAX_WINDOW)].as_ref().filter(|h| h.seq == seq)
    }

    /// 10.24.7.3: set the bit of `seq` in the window, or move the window to end at it.
    fn score(&mut self, seq: u16) {
        let d = distance(seq, self.board_start);
        if d < self.size {
            self.board |= 1 << d;
        } else if d < SEQ_HALF {
            let shift = d - self.size + 1;
            self.board = if shift < 64 { self.board >> shift } else { 0 };
            self.board_start = advance(self.board_start, shift);
            self.board |= 1 << (self.size - 1);
        }
    }

    /// Pass up every held MPDU before `new_start`, in order, gaps and all; WinStartB becomes
    /// `new_start`.
    fn release_before(&mut self, new_start: u16, up: &mut Vec<T>) {
        for d in 0..distance(new_start, self.buf_start) {
            let seq = advance(self.buf_start, d);
            let passed = d < MAX_WINDOW && self.take(seq, up);
            self.skipped = (self.skipped << 1) | u64::from(!passed);
        }
        self.buf_start = new_start;
    }

    /// Pass up the held MPDUs from WinStartB on while they follow one another.
    fn release_in_order(&mut self, up: &mut Vec<T>) {
        while self.take(self.buf_start, up) {
            self.buf_start = advance(self.buf_start, 1);
            self.skipped <<= 1;
        }
    }

    fn take(&mut self, seq: u16, up: &mut Vec<T>) -> bool {
        let slot = &mut self.held[usize::from(seq % MAX_WINDOW)];
        match slot {
            Some(h) if h.seq == seq => {
                up.push(h.item);
                *slot = None;
                self.held_count -= 1;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests;
