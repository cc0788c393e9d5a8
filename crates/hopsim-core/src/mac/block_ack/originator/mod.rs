//! The originator of an HT-immediate Block Ack agreement (IEEE 802.11-2016 10.24.7.7 and
//! 10.24.3): the transmit window of WinSizeO sequence numbers from WinStartO, the MPDUs in it
//! (sent and awaiting a Block Ack, or waiting for their first or next transmission), what a
//! Block Ack acknowledges, and when a BlockAckReq must move the recipient's window.
//!
//! An MPDU not acknowledged by the Block Ack that answers its A-MPDU, or sent in an A-MPDU
//! whose Block Ack never came, has failed once; the caller's `discard` rule (its failures, or
//! its MSDU lifetime) decides whether it is sent again. The recipient would hold every later
//! MPDU behind a discarded one's gap, so the originator then owes it a BlockAckReq naming the
//! new WinStartO (10.24.7.7). `T` is what the MAC keeps of an MPDU (its packet and length).

use crate::mac::block_ack::{advance, distance, MAX_WINDOW, SEQ_HALF};

#[derive(Debug, Clone, Copy)]
struct Outstanding<T> {
    seq: u16,
    item: T,
    failures: u32,
    /// Sent in the last A-MPDU, its Block Ack not yet in.
    awaiting: bool,
}

/// What a Block Ack, or its absence, did to the window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Settled {
    pub acked: u32,
    pub failed: u32,
    pub discarded: u32,
}

#[derive(Debug, Clone)]
pub struct Originator<T: Copy> {
    win_start: u16,
    size: u16,
    /// The sequence number the next new MPDU gets.
    next_seq: u16,
    slots: [Option<Outstanding<T>>; MAX_WINDOW as usize],
    /// A discarded MPDU left a gap the recipient must be told to skip.
    bar_due: bool,
}

impl<T: Copy> Originator<T> {
    /// An agreement starting at `ssn` with a window of `size` MPDUs (the recipient's buffer
    /// size from its ADDBA Response).
    pub fn new(ssn: u16, size: u16) -> Self {
        debug_assert!((1..=MAX_WINDOW).contains(&size));
        Originator { win_start: ssn, size, next_seq: ssn, slots: [None; 64], bar_due: false }
    }

    /// WinStartO: the oldest sequence number not yet acknowledged or discarded (the SSN of a
    /// BlockAckReq).
    pub fn win_start(&self) -> u16 {
        self.win_start
    }

    /// Whether a new MPDU may join: its sequence number would lie inside the window.
    pub fn has_room(&self) -> bool {
        distance(self.next_seq, self.win_start) < self.size
    }

    /// MPDUs in the window, sent or not.
    pub fn outstanding(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    /// A new MPDU takes the next sequence number (the caller checked [`Self::has_room`]).
    pub fn push(&mut self, item: T) -> u16 {
        debug_assert!(self.has_room());
        let seq = self.next_seq;
        self.slots[usize::from(seq % MAX_WINDOW)] =
            Some(Outstanding { seq, item, failures: 0, awaiting: false });
        self.next_seq = advance(seq, 1);
        seq
    }

    /// The next sequence number, for an MPDU sent to the peer outside the agreement (its
    /// numbering is the peer's, 10.3.2.11.2, whether or not the MPDU is aggregated).
    pub fn skip(&mut self) -> u16 {
        let seq = self.next_seq;
        self.next_seq = advance(seq, 1);
        self.slide();
        seq
    }

    /// The MPDUs waiting to be sent, oldest first (retransmissions come before new MPDUs
    /// because they are older): (sequence number, item, sent before).
    pub fn pending(&self) -> impl Iterator<Item = (u16, T, bool)> + '_ {
        (0..distance(self.next_seq, self.win_start))
            .filter_map(|d| self.slot(advance(self.win_start, d)))
            .filter(|o| !o.awaiting)
            .map(|o| (o.seq, o.item, o.failures > 0))
    }

    /// The MPDU `seq`, waiting and never sent, is now `item` (an A-MSDU grew: dcf/amsdu.rs).
    pub fn replace(&mut self, seq: u16, item: T) {
        let o = self.slot_mut(seq).expect("an MPDU of the window");
        debug_assert!(!o.awaiting && o.failures == 0, "only a fresh MPDU changes");
        o.item = item;
    }

    /// These MPDUs went out in one A-MPDU.
    pub fn mark_sent(&mut self, seqs: impl IntoIterator<Item = u16>) {
        for s in seqs {
            if let Some(o) = self.slot_mut(s) {
                o.awaiting = true;
            }
        }
    }

    /// A Block Ack with Starting Sequence Number `ssn` and `bitmap` arrived: the MPDUs it
    /// marks received are acknowledged (`acked`), the others awaiting it failed once, and go
    /// to `discarded` where `discard` says so.
    pub fn on_block_ack(
        &mut self,
        (ssn, bitmap): (u16, u64),
        discard: impl Fn(&T, u32) -> bool,
        acked: &mut Vec<T>,
        discarded: &mut Vec<T>,
    ) -> Settled {
        let received = |seq: u16| {
            let d = distance(seq, ssn);
            d < 64 && bitmap & (1 << d) != 0
        };
        self.settle(received, discard, acked, discarded)
    }

    /// No Block Ack came for the last A-MPDU (nor for a BlockAckReq): every MPDU awaiting it
    /// failed once.
    pub fn on_missed_block_ack(
        &mut self,
        discard: impl Fn(&T, u32) -> bool,
        discarded: &mut Vec<T>,
    ) -> Settled {
        self.settle(|_| false, discard, &mut Vec::new(), discarded)
    }

    /// The A-MPDU never went (its RTS was not answered): its MPDUs wait again, no failure
    /// counted against them.
    pub fn unsend(&mut self) {
        for o in self.slots.iter_mut().flatten() {
            o.awaiting = false;
        }
    }

    /// Whether a BlockAckReq is owed (a discarded MPDU left a gap); [`Self::bar_sent`] once
    /// it has been acknowledged.
    pub fn bar_due(&self) -> bool {
        self.bar_due
    }

    pub fn bar_sent(&mut self) {
        self.bar_due = false;
    }

    /// `discard(item, failures)`: whether a failed MPDU is given up.
    fn settle(
        &mut self,
        received: impl Fn(u16) -> bool,
        discard: impl Fn(&T, u32) -> bool,
        acked: &mut Vec<T>,
        discarded: &mut Vec<T>,
    ) -> Settled {
        let mut out = Settled::default();
        for d in 0..distance(self.next_seq, self.win_start) {
            let seq = advance(self.win_start, d);
            let i = usize::from(seq % MAX_WINDOW);
            let Some(o) = self.slots[i].as_mut().filter(|o| o.seq == seq && o.awaiting) else {
                continue;
            };
            if received(seq) {
                acked.push(o.item);
                self.slots[i] = None;
                out.acked += 1;
                continue;
            }
            o.awaiting = false;
            o.failures += 1;
            out.failed += 1;
            if discard(&o.item, o.failures) {
                discarded.push(o.item);
                self.slots[i] = None;
                out.discarded += 1;
                self.bar_due = true;
            }
        }
        self.slide();
        out
    }

    /// WinStartO moves to the oldest MPDU still outstanding (or to the next new one).
    fn slide(&mut self) {
        while self.win_start != self.next_seq && self.slot(self.win_start).is_none() {
            self.win_start = advance(self.win_start, 1);
        }
        debug_assert!(distance(self.next_seq, self.win_start) < SEQ_HALF);
    }

    fn slot(&self, seq: u16) -> Option<&Outstanding<T>> {
        self.slots[usize::from(seq % MAX_WINDOW)].as_ref().filter(|o| o.seq == seq)
    }

    fn slot_mut(&mut self, seq: u16) -> Option<&mut Outstanding<T>> {
        self.slots[usize::from(seq % MAX_WINDOW)].as_mut().filter(|o| o.seq == seq)
    }
}

#[cfg(test)]
mod tests;
