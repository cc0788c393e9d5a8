//! HWMP path selection elements (IEEE 802.11-2012 8.4.2.114 RANN, 8.4.2.115 PREQ, 8.4.2.116
//! PREP, 8.4.2.117 PERR) with the fields HWMP uses, and their sizes on the wire. No external
//! addresses (AE flag always 0: no proxied stations), no gate announcements. A PREQ carries
//! one target (the element allows up to 20).

use crate::ids::NodeId;

/// Element ID and Length octets in front of every element (8.4.2.1).
pub const ELEMENT_HEADER_BYTES: u32 = 2;
/// A management frame's MAC header (8.3.3.1: Frame Control 2, Duration 2, three addresses
/// 18, Sequence Control 2; no HT Control) and its FCS (4).
pub const MGMT_HEADER_BYTES: u32 = 24;
pub const FCS_BYTES: u32 = 4;
/// Category and Mesh Action octets of a HWMP Mesh Path Selection frame (8.5.17.3).
pub const MESH_ACTION_BYTES: u32 = 2;
/// What an individually addressed mesh data frame carries beyond a three-address data
/// frame's header: the fourth address (8.2.4.1.4, To DS and From DS set, 6 octets) and the
/// Mesh Control field without address extension (8.2.4.7.3: Mesh Flags 1, Mesh TTL 1, Mesh
/// Sequence Number 4).
pub const MESH_DATA_HEADER_BYTES: u32 = 6 + 6;
/// Everything of an HWMP Mesh Path Selection action frame but its elements.
pub const ACTION_FRAME_OVERHEAD_BYTES: u32 = MGMT_HEADER_BYTES + FCS_BYTES + MESH_ACTION_BYTES;

/// PREQ information field without targets (8.4.2.115: Flags, Hop Count, Element TTL 1 each;
/// Path Discovery ID 4, Originator Address 6, Originator HWMP SN 4, Lifetime 4, Metric 4,
/// Target Count 1) and per target (Per Target Flags 1, Target Address 6, Target HWMP SN 4).
pub const PREQ_FIXED_BYTES: u32 = 26;
pub const PREQ_TARGET_BYTES: u32 = 11;
/// PREP information field (8.4.2.116: Flags, Hop Count, Element TTL, Target Address 6,
/// Target HWMP SN 4, Lifetime 4, Metric 4, Originator Address 6, Originator HWMP SN 4).
pub const PREP_INFO_BYTES: u32 = 31;
/// PERR information field (8.4.2.117: Element TTL, Number of Destinations) and per
/// destination (Flags 1, Destination Address 6, HWMP SN 4, Reason Code 2).
pub const PERR_FIXED_BYTES: u32 = 2;
pub const PERR_DEST_BYTES: u32 = 13;
/// Most destinations one PERR element holds (information field at most 255 octets).
pub const PERR_MAX_DESTS: usize = 19;
/// RANN information field (8.4.2.114: Flags, Hop Count, Element TTL, Root Address 6, HWMP SN
/// 4, Interval 4, Metric 4).
pub const RANN_INFO_BYTES: u32 = 21;

/// Reason codes for a PERR (8.4.1.7, Table 8-36; numbering as Linux mac80211 has it).
pub const REASON_NO_FORWARDING_INFO: u16 = 62;
pub const REASON_DESTINATION_UNREACHABLE: u16 = 63;

/// One target of a PREQ with its Per Target Flags (8.4.2.115).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PreqTarget {
    pub addr: NodeId,
    /// TO (bit 0): only the target may answer.
    pub target_only: bool,
    /// RF, reply and forward (bit 1 in the 802.11s drafts, reserved in 802.11-2012, kept by
    /// ns-3): an intermediate node that answers also forwards, with TO set.
    pub reply_and_forward: bool,
    /// USN (bit 2): the target HWMP SN is unknown.
    pub unknown_seq: bool,
    pub seq: u32,
}

/// Path Request (8.4.2.115).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preq {
    /// Flags bit 1, Addressing Mode: individually addressed (sent to one neighbour, toward
    /// the target) rather than to all neighbours.
    pub individual: bool,
    /// Flags bit 2, Proactive PREP: every receiver of a proactive PREQ answers with a PREP.
    pub proactive_prep: bool,
    pub hop_count: u8,
    pub ttl: u8,
    pub discovery_id: u32,
    pub orig: NodeId,
    pub orig_seq: u32,
    /// Lifetime in TU (1024 us) of the path to the originator it creates.
    pub lifetime_tu: u32,
    /// Accumulated airtime metric (0.01 TU) from the originator to the transmitter.
    pub metric: u32,
    /// The target; `NodeId::BROADCAST` in a proactive PREQ (13.10.9.3).
    pub target: PreqTarget,
}

/// Path Reply (8.4.2.116). `target` is the node the path leads to (the PREQ's target, or
/// the node answering a proactive PREQ); `orig` the PREQ's originator it travels to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prep {
    pub hop_count: u8,
    pub ttl: u8,
    pub target: NodeId,
    pub target_seq: u32,
    pub lifetime_tu: u32,
    pub metric: u32,
    pub orig: NodeId,
    pub orig_seq: u32,
}

/// One destination of a PERR (8.4.2.117).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerrDest {
    pub addr: NodeId,
    pub seq: u32,
    pub reason: u16,
}

/// Path Error (8.4.2.117).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Perr {
    pub ttl: u8,
    pub dests: Vec<PerrDest>,
}

/// Root Announcement (8.4.2.114). No gate announcement flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rann {
    pub hop_count: u8,
    pub ttl: u8,
    pub root: NodeId,
    pub seq: u32,
    pub interval_tu: u32,
    pub metric: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HwmpMsg {
    Preq(Preq),
    Prep(Prep),
    Perr(Perr),
    Rann(Rann),
}

impl HwmpMsg {
    /// Bytes of the element, its ID and Length octets included.
    pub fn element_bytes(&self) -> u32 {
        ELEMENT_HEADER_BYTES
            + match self {
                HwmpMsg::Preq(_) => PREQ_FIXED_BYTES + PREQ_TARGET_BYTES,
                HwmpMsg::Prep(_) => PREP_INFO_BYTES,
                HwmpMsg::Perr(p) => PERR_FIXED_BYTES + PERR_DEST_BYTES * p.dests.len() as u32,
                HwmpMsg::Rann(_) => RANN_INFO_BYTES,
            }
    }

    /// Bytes of the action frame carrying this element alone (MAC header and FCS included).
    pub fn frame_bytes(&self) -> u32 {
        ACTION_FRAME_OVERHEAD_BYTES + self.element_bytes()
    }
}

/// The kinds of element, for counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HwmpKind {
    Preq,
    Prep,
    Perr,
    Rann,
}

/// An element as a frame carries it: its number in the node context's message store, its
/// kind and the bytes of the action frame's body (category, action and the element; the MAC
/// adds its header and FCS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HwmpRef {
    pub id: u64,
    pub kind: HwmpKind,
    pub body_bytes: u32,
}

impl HwmpMsg {
    pub fn kind(&self) -> HwmpKind {
        match self {
            HwmpMsg::Preq(_) => HwmpKind::Preq,
            HwmpMsg::Prep(_) => HwmpKind::Prep,
            HwmpMsg::Perr(_) => HwmpKind::Perr,
            HwmpMsg::Rann(_) => HwmpKind::Rann,
        }
    }

    /// Bytes of the action frame's body: category and mesh action octets and the element.
    pub fn body_bytes(&self) -> u32 {
        MESH_ACTION_BYTES + self.element_bytes()
    }
}
