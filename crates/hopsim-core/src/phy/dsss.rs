//! The 802.11b DSSS physical layer convergence procedure (IEEE 802.11-2007 18.2.2): every
//! frame starts with the long PLCP preamble (144 bits: SYNC 128 + SFD 16) and the PLCP
//! header (48 bits: SIGNAL, SERVICE, LENGTH, CRC), both sent at 1 Mbit/s DBPSK whatever the
//! rate of the frame's MPDU. The MAC's air times and the SINR receiver's chunks both start
//! from here.

use crate::engine::time::{us, SimDuration};

/// The long PLCP preamble at 1 Mbit/s: 144 us.
pub const PREAMBLE_NS: SimDuration = us(144);
/// The PLCP header's length in bits.
pub const PLCP_HEADER_BITS: u32 = 48;
/// Preamble and PLCP header: the MPDU starts 192 us after the frame.
pub const PLCP_NS: SimDuration = PREAMBLE_NS + us(PLCP_HEADER_BITS as u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_long_plcp_takes_192_us() {
        // 802.11-2007 18.3.4: aPreambleLength 144 us, aPLCPHeaderLength 48 us.
        assert_eq!(PLCP_NS, 192_000);
    }
}
