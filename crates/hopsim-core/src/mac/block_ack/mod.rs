//! HT-immediate Block Ack (IEEE 802.11-2016 10.24): the recipient's scoreboard and receive
//! reordering buffer (`recipient.rs`) and the originator's transmit window (`originator.rs`),
//! as pure state machines over sequence numbers; the DCF drives them. One agreement per
//! peer and traffic identifier; hopsim's traffic is all best effort (TID 0).
//!
//! Sequence numbers are 12 bits (9.2.4.4.2), compared modulo 4096: `b` lies "after" `a` when
//! (b - a) mod 4096 is below 2048 (10.24.7 uses these half-space comparisons throughout).

pub mod originator;
pub mod recipient;

/// The sequence-number space (9.2.4.4.2).
pub const SEQ_SPACE: u16 = 4096;
/// Half of it: a distance at or above this means "before", not "after".
pub const SEQ_HALF: u16 = 2048;
/// The largest window of an HT agreement: the 64 bits of a compressed Block Ack bitmap
/// (9.3.1.9.3; ns-3's default buffer size for HT).
pub const MAX_WINDOW: u16 = 64;

/// (to - from) mod 4096: how far `to` lies after `from`.
#[inline]
pub fn distance(to: u16, from: u16) -> u16 {
    to.wrapping_sub(from) & (SEQ_SPACE - 1)
}

/// `seq` advanced by `n`, modulo 4096.
#[inline]
pub fn advance(seq: u16, n: u16) -> u16 {
    seq.wrapping_add(n) & (SEQ_SPACE - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_arithmetic_wraps_at_4096() {
        assert_eq!(distance(5, 4090), 11);
        assert_eq!(distance(4090, 5), 4085, "4090 is before 5, far behind in modulo terms");
        assert!(distance(4090, 5) >= SEQ_HALF);
        assert_eq!(advance(4095, 1), 0);
        assert_eq!(advance(4000, 200), 104);
    }
}
