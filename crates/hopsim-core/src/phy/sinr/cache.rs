//! The OFDM error model's per-bit success, remembered for the last few (modulation, SINR)
//! pairs: on a link without interference every frame sees the same SINR, and the model (an
//! erfc and a ten-term union bound) would be worked out again for each. A hit returns the very
//! value computed before, so results are bit-identical with or without it.

use crate::phy::error_rate::ofdm as ofdm_error;
use crate::phy::ofdm::{CodeRate, Constellation};
use std::cell::Cell;

const ENTRIES: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq)]
struct Entry {
    c: Constellation,
    r: CodeRate,
    sinr_bits: u64,
    success: f64,
}

#[derive(Debug, Clone, Default)]
pub(super) struct BitCache {
    entries: Cell<[Option<Entry>; ENTRIES]>,
    next: Cell<u8>,
}

impl BitCache {
    /// ofdm_error::bit_success(c, r, sinr).
    #[inline]
    pub(super) fn bit_success(&self, c: Constellation, r: CodeRate, sinr: f64) -> f64 {
        let key = sinr.to_bits();
        let mut entries = self.entries.get();
        for e in entries.iter().flatten() {
            if e.sinr_bits == key && e.c == c && e.r == r {
                return e.success;
            }
        }
        let success = ofdm_error::bit_success(c, r, sinr);
        let i = usize::from(self.next.get()) % ENTRIES;
        entries[i] = Some(Entry { c, r, sinr_bits: key, success });
        self.entries.set(entries);
        self.next.set(((i + 1) % ENTRIES) as u8);
        success
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_values_are_the_models_own() {
        let cache = BitCache::default();
        let (c, r) = (Constellation::Qam64, CodeRate(3, 4));
        for k in 0..20 {
            let sinr = 100.0 + f64::from(k % 6); // more pairs than entries: some evicted
            let want = ofdm_error::bit_success(c, r, sinr);
            assert_eq!(cache.bit_success(c, r, sinr).to_bits(), want.to_bits());
        }
        // Another modulation at the same SINR is another entry.
        let b = cache.bit_success(Constellation::Bpsk, CodeRate(1, 2), 100.0);
        assert_eq!(b, ofdm_error::bit_success(Constellation::Bpsk, CodeRate(1, 2), 100.0));
    }
}
