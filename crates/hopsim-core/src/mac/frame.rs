//! MAC frames as they travel on the air.

use super::timing::{Rate, Timing, ACK_BYTES, CTS_BYTES, RTS_BYTES};
use crate::engine::time::SimDuration;
use crate::ids::{NodeId, PacketId};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    Rts,
    Cts,
    /// A DATA frame, or (with `mpdus` > 1) an A-MPDU of QoS Data frames.
    Data,
    Ack,
    /// BlockAckReq (9.3.1.8, compressed): `seq` is its Starting Sequence Number.
    BlockAckReq,
    /// BlockAck (9.3.1.9, compressed): `seq` is its Starting Sequence Number, `bitmap` the
    /// MPDUs received from it.
    BlockAck,
    /// ADDBA Request and Response, Block Ack Action frames (9.6.5.2-3): `seq` carries the
    /// Request's Starting Sequence Number.
    AddbaRequest,
    AddbaResponse,
}

#[derive(Debug, Clone, Copy)]
pub struct Frame {
    pub kind: FrameKind,
    /// Transmitter address.
    pub src: NodeId,
    /// Receiver address ([`NodeId::BROADCAST`] for broadcast data).
    pub dst: NodeId,
    /// Duration field (NAV) in nanoseconds.
    pub nav_ns: SimDuration,
    /// MPDU length in bytes (MAC header and FCS included).
    pub bytes: u32,
    pub rate: Rate,
    pub airtime_ns: SimDuration,
    /// Sequence number (data frames) and Retry bit, for duplicate detection.
    pub seq: u16,
    pub retry: bool,
    pub packet: Option<PacketId>,
    /// MPDUs of an A-MPDU (its subframes travel beside the frame: `Dcf::psdu`); 0 for a
    /// frame sent alone.
    pub mpdus: u8,
    /// A BlockAck's bitmap.
    pub bitmap: u64,
    /// In a CTS, ACK or BlockAck: the SNR (0.01 dB) at which the responder received the frame
    /// it answers, [`Frame::NO_SNR`] if not measured (capture reception) or not a response.
    /// It feeds SNR-ideal rate control, as ns-3.44's SnrTag on control responses does.
    pub snr_cdb: i16,
    /// TID of QoS Data, a BlockAck(Req) or an ADDBA frame (the user priority: mac/edca.rs);
    /// 0 otherwise.
    pub tid: u8,
}

impl Frame {
    pub const NO_SNR: i16 = i16::MIN;

    /// An RTS (at the basic rate), or the CTS or ACK that answers a frame sent at `answering`
    /// (ignored for an RTS).
    #[inline]
    pub fn control(
        kind: FrameKind,
        src: NodeId,
        dst: NodeId,
        nav_ns: SimDuration,
        t: &Timing,
        answering: Rate,
    ) -> Frame {
        let (bytes, airtime_ns, rate) = match kind {
            FrameKind::Rts => (RTS_BYTES, t.rts_ns, t.basic_rate),
            FrameKind::Cts => (CTS_BYTES, t.cts_ns, t.response_rate(t.basic_rate)),
            FrameKind::Ack => (ACK_BYTES, t.ack_after_ns(answering), t.response_rate(answering)),
            FrameKind::BlockAckReq
            | FrameKind::BlockAck
            | FrameKind::Data
            | FrameKind::AddbaRequest
            | FrameKind::AddbaResponse => panic!("not an RTS, CTS or ACK"),
        };
        Frame {
            kind,
            src,
            dst,
            nav_ns,
            bytes,
            rate,
            airtime_ns,
            seq: 0,
            retry: false,
            packet: None,
            mpdus: 0,
            bitmap: 0,
            snr_cdb: Frame::NO_SNR,
            tid: 0,
        }
    }
}
