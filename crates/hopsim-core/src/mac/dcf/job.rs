//! The packet a channel access function serves, and the MAC's counters.

use crate::engine::time::SimTime;
use crate::ids::{NodeId, PacketId};
use crate::mac::timing::Rate;

#[derive(Debug, Clone, Copy)]
pub(super) struct Job {
    /// The packet of the MPDU (its first MSDU, of an A-MSDU: dcf/amsdu.rs).
    pub(super) packet: PacketId,
    /// Its last MSDU and how many it carries.
    pub(super) tail: PacketId,
    pub(super) msdus: u16,
    pub(super) dst: NodeId,
    pub(super) mpdu_bytes: u32,
    pub(super) seq: u16,
    pub(super) use_rts: bool,
    pub(super) short_retries: u32,
    pub(super) long_retries: u32,
    /// A DATA frame of this job has been sent before (Retry bit).
    pub(super) data_sent: bool,
    pub(super) offered_ns: SimTime,
    /// Rate of this attempt's DATA frame (chosen when the medium is won).
    pub(super) rate: Rate,
    /// Served from the peer's Block Ack window (dcf/agg): `packet` is only its first MPDU.
    pub(super) aggregate: bool,
    /// Waits for a Block Ack agreement with `dst` being set up (dcf/agg/addba.rs).
    pub(super) awaiting_agreement: bool,
}

/// Per-node MAC counters (names as in the result document).
#[derive(Debug, Clone, Copy, Default)]
pub struct MacCounters {
    pub rts_sent: u64,
    pub cts_sent: u64,
    pub data_sent: u64,
    pub ack_sent: u64,
    /// RTS and DATA transmissions.
    pub mac_attempts: u64,
    /// Failed attempts followed by another attempt (CTS or ACK timeouts below the limit).
    pub mac_retries: u64,
    pub retry_limit_drops: u64,
    /// Unicast packets finished: acknowledged or dropped.
    pub unicast_done: u64,
    pub duplicates: u64,
    /// EDCA: accesses a higher category took from a lower one whose countdown ended in the
    /// same slot (10.22.2.4).
    pub internal_collisions: u64,
    /// MPDUs finished (acknowledged or given up) that carried an A-MSDU, and its MSDUs.
    pub amsdus: u64,
    pub amsdu_msdus: u64,
}
