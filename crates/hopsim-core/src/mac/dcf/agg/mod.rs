//! A-MPDU aggregation under HT-immediate Block Ack (IEEE 802.11-2016 10.12, 10.24.7), for the
//! QoS stations of 802.11n: the state the DCF keeps per peer (an originator window for each
//! peer it sends to, a recipient scoreboard and reordering buffer for each peer it hears from),
//! the A-MPDU being sent or awaiting its Block Ack, and the configuration.
//!
//! How the DCF uses it: a unicast packet offered while aggregation is on joins the peer's
//! originator window (`send.rs`). When the medium is won the DCF asks the node for more
//! packets to the same peer (`MacOutput::Fill`): the node adds what fits
//! ([`Dcf::aggregate_wants`], [`Dcf::add_msdu`]) and the DCF sends ([`Dcf::send_aggregate`]):
//! an A-MPDU with its implicit BlockAckReq answered by a BlockAck after SIFS, or a lone MPDU
//! answered by an ACK. A recipient (`recv.rs`) passes MSDUs up in sequence order.

mod addba;
mod recv;
mod send;

use crate::engine::sched::Timer;
use crate::engine::time::{SimDuration, SimTime};
use crate::ids::{NodeId, PacketId};
use crate::mac::block_ack::originator::Originator;
use crate::mac::block_ack::recipient::Recipient;
use crate::mac::frame::Frame;

/// The aggregation limits (the `[mac]` keys of docs/interfaces.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AggConfig {
    /// Maximum A-MPDU length in octets (the receiver's HT Capabilities; 8,191-65,535).
    pub max_bytes: u32,
    /// MPDUs per A-MPDU and the Block Ack agreement's buffer size (1-64).
    pub max_mpdus: u16,
    /// Minimum MPDU start spacing (0, 250, 500, 1000, 2000, 4000, 8000 or 16000 ns).
    pub density_ns: SimDuration,
    /// Reordering buffer release timeout (mac80211: 100 ms), or none (the standard's rules
    /// alone).
    pub reorder_timeout_ns: Option<SimDuration>,
    /// How long an MPDU under the agreement may wait for its acknowledgement after reaching
    /// the MAC before it is given up (dot11EDCATableMSDULifetime).
    pub msdu_lifetime_ns: SimDuration,
}

/// aPPDUMaxTime of the HT-mixed format (Table 19-25): 5.484 ms.
pub const PPDU_MAX_NS: SimDuration = 5_484_000;

/// The other end of an agreement: a peer and a TID (agreements are per <RA, TID> or
/// <TA, TID>, 10.24.2).
pub type Peer = (NodeId, u8);

/// An MPDU in an originator's window.
#[derive(Debug, Clone, Copy)]
pub struct Mpdu {
    /// Its packet (of an A-MSDU, the first MSDU; `tail` the last of `msdus`).
    pub packet: PacketId,
    pub tail: PacketId,
    pub msdus: u16,
    /// MPDU octets (header, MSDU, FCS).
    pub bytes: u32,
    /// When it was handed to the MAC (for the service time).
    pub offered_ns: SimTime,
}

/// Aggregation state of one DCF.
#[derive(Debug, Clone)]
pub struct Agg {
    pub cfg: AggConfig,
    /// Originator windows, sorted by peer and TID.
    out: Vec<(Peer, Originator<Mpdu>)>,
    /// Where each agreement as originator stands, sorted by peer and TID.
    setups: Vec<(Peer, addba::Setup)>,
    /// ADDBA Requests and Responses waiting for the medium, and the one in flight.
    mgmt_due: Vec<Frame>,
    mgmt: Option<Frame>,
    mgmt_retries: u32,
    /// Recipient agreements, sorted by peer and TID.
    inb: Vec<(Peer, Recipient<PacketId>)>,
    /// The PSDU on the air or awaiting its response: sequence numbers and MPDUs.
    psdu: Vec<(u16, Mpdu)>,
    /// Its subframes' octets (delimiter and padding included; the last unpadded).
    subframes: Vec<u16>,
    /// The frame that carries it (sent after a CTS too), or the BlockAckReq sent last.
    frame: Option<Frame>,
    /// The peers and TIDs whose last A-MPDU's BlockAck was missed: a BlockAckReq asks what
    /// arrived before anything is sent to them again (10.24.7.7; ns-3's
    /// UseExplicitBarAfterMissedBlockAck).
    bar_for_missed: Vec<Peer>,
    /// The PSDU being drafted goes at a rate control probe: one MPDU alone (Linux drivers
    /// do not aggregate a frame flagged IEEE80211_TX_CTL_RATE_CTRL_PROBE, e.g. ath9k
    /// ath_tx_form_aggr), so that a failed probe costs one MPDU.
    probe: bool,
    /// Scratch: MSDUs released by a recipient, MPDUs settled by a Block Ack, MPDUs waiting
    /// (and whether each was sent before).
    up: Vec<PacketId>,
    waiting: Vec<(u16, Mpdu, bool)>,
    acked: Vec<Mpdu>,
    discarded: Vec<Mpdu>,
    /// Releases held MPDUs at the reorder timeout.
    reorder_timer: Timer,
    pub counters: AggCounters,
}

/// What aggregation did (result fields of docs/interfaces.md, observe/schema).
#[derive(Debug, Clone, Copy, Default, serde::Serialize)]
pub struct AggCounters {
    /// A-MPDUs of two or more MPDUs sent, and the MPDUs in them.
    pub ampdus_sent: u64,
    pub ampdu_mpdus: u64,
    pub block_acks_sent: u64,
    pub block_acks_received: u64,
    /// MPDUs a Block Ack did not acknowledge (sent again or discarded).
    pub mpdus_failed: u64,
    /// MSDUs released by the reorder timeout past a gap.
    pub reorder_timeouts: u64,
    /// BlockAckReq frames sent (after a missed BlockAck, or to skip discarded MPDUs).
    pub bars_sent: u64,
    /// MSDUs that arrived after the reordering buffer had given their gap up (lost).
    pub late_drops: u64,
}

impl AggCounters {
    /// Another node's counts added (the run's totals).
    pub fn add(&mut self, o: &AggCounters) {
        self.ampdus_sent += o.ampdus_sent;
        self.ampdu_mpdus += o.ampdu_mpdus;
        self.block_acks_sent += o.block_acks_sent;
        self.block_acks_received += o.block_acks_received;
        self.mpdus_failed += o.mpdus_failed;
        self.reorder_timeouts += o.reorder_timeouts;
        self.bars_sent += o.bars_sent;
        self.late_drops += o.late_drops;
    }
}

impl Agg {
    pub fn new(cfg: AggConfig) -> Agg {
        let n = usize::from(crate::mac::block_ack::MAX_WINDOW);
        Agg {
            cfg,
            out: Vec::new(),
            setups: Vec::new(),
            mgmt_due: Vec::new(),
            mgmt: None,
            mgmt_retries: 0,
            inb: Vec::new(),
            psdu: Vec::with_capacity(n),
            subframes: Vec::with_capacity(n),
            frame: None,
            bar_for_missed: Vec::new(),
            probe: false,
            up: Vec::with_capacity(n),
            waiting: Vec::with_capacity(n),
            acked: Vec::with_capacity(n),
            discarded: Vec::with_capacity(n),
            reorder_timer: Timer::default(),
            counters: AggCounters::default(),
        }
    }

    /// The originator window toward `peer`, made on first use (the agreement's first
    /// sequence number 0).
    fn originator(&mut self, peer: Peer) -> &mut Originator<Mpdu> {
        let i = match self.out.binary_search_by_key(&peer, |e| e.0) {
            Ok(i) => i,
            Err(i) => {
                self.out.insert(i, (peer, Originator::new(0, self.cfg.max_mpdus)));
                i
            }
        };
        &mut self.out[i].1
    }

    /// The recipient state for `peer`, if an agreement was set up.
    fn recipient(&mut self, peer: Peer) -> Option<&mut Recipient<PacketId>> {
        let i = self.inb.binary_search_by_key(&peer, |e| e.0).ok()?;
        Some(&mut self.inb[i].1)
    }

    /// A (new) agreement with `peer` as recipient, from sequence number `ssn` (an ADDBA
    /// Request's); an agreement set up again keeps what it holds.
    fn start_recipient(&mut self, peer: Peer, ssn: u16) {
        if let Err(i) = self.inb.binary_search_by_key(&peer, |e| e.0) {
            self.inb.insert(i, (peer, Recipient::new(ssn, self.cfg.max_mpdus)));
        }
    }
}

impl super::Dcf {
    /// Whether QoS Data of `tid` from `src` goes through a reordering buffer (an agreement
    /// stands; the world then hands over copies: `Dcf::on_rx_qos_data`).
    #[inline]
    pub fn reorders_from(&self, src: NodeId, tid: u8) -> bool {
        let key = (src, tid);
        self.agg.as_deref().is_some_and(|a| a.inb.binary_search_by_key(&key, |e| e.0).is_ok())
    }

    /// The MPDUs of the A-MPDU this MAC sends or awaits the BlockAck of (empty without
    /// aggregation).
    pub fn psdu(&self) -> &[(u16, Mpdu)] {
        self.agg.as_deref().map_or(&[], |a| &a.psdu)
    }

    /// Their subframes' octets.
    pub fn subframes(&self) -> &[u16] {
        self.agg.as_deref().map_or(&[], |a| &a.subframes)
    }

    /// What aggregation did here, if it is on.
    pub fn agg_counters(&self) -> Option<AggCounters> {
        self.agg.as_deref().map(|a| a.counters)
    }
}
