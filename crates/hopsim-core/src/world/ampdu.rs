//! What the world carries for an A-MPDU besides its frame: the subframes' octets for the
//! receivers' PHYs, and, at a recipient, its own copies of the decoded MPDUs' packets (a
//! reordering buffer may hold them past the moment the transmitter frees its own).

use super::World;
use crate::engine::time::SimTime;
use crate::ids::{NodeId, PacketId};
use crate::mac::dcf::MacCtx;
use crate::mac::frame::Frame;

/// Reused buffers.
#[derive(Clone, Debug, Default)]
pub(super) struct AmpduScratch {
    pub subframes: Vec<u16>,
    pub decoded: Vec<(u16, PacketId)>,
    /// The MPDUs of an A-MPDU being traced.
    pub traced: Vec<(u16, PacketId)>,
}

impl World {
    /// The subframes of `tx`'s frame (empty unless an A-MPDU), in the world's buffer, lent
    /// out for the frame's start.
    pub(super) fn subframes_of(&mut self, tx: NodeId, frame: &Frame) -> Vec<u16> {
        let mut out = std::mem::take(&mut self.ampdu.subframes);
        out.clear();
        if frame.mpdus > 1 {
            out.extend_from_slice(self.nodes[tx.index()].mac.subframes());
        }
        out
    }

    /// QoS Data for `listener` decoded at `at` (of an A-MPDU, the MPDUs whose bits are set in
    /// `parts`): copies of their packets go to its MAC's reordering buffer.
    #[inline(never)]
    pub(super) fn deliver_qos_data(
        &mut self,
        now: SimTime,
        listener: NodeId,
        frame: &Frame,
        at: SimTime,
        parts: u64,
    ) {
        let mut decoded = std::mem::take(&mut self.ampdu.decoded);
        decoded.clear();
        if frame.mpdus > 1 {
            let psdu = self.nodes[frame.src.index()].mac.psdu();
            for (i, &(seq, mpdu)) in psdu.iter().enumerate() {
                if parts & (1 << i) != 0 {
                    decoded.push((seq, mpdu.packet));
                }
            }
        } else {
            decoded.push((frame.seq, frame.packet.expect("data frame carries a packet")));
        }
        for d in decoded.iter_mut() {
            // Of an A-MSDU, every MSDU, the copies chained as the originals (mac/amsdu.rs).
            let (mut original, mut prev) = (Some(d.1), None);
            while let Some(o) = original {
                original = self.cx.packets.next_msdu(o);
                let p = self.cx.packets.get_mut(o);
                p.handed_over = true;
                let mut copy = *p;
                copy.handed_over = false;
                let c = self.cx.packets.alloc(copy);
                match prev {
                    None => d.1 = c,
                    Some(before) => self.cx.packets.link_msdu(before, c),
                }
                prev = Some(c);
            }
        }
        let mut cx = MacCtx { now, timers: &mut self.cx.sched, out: &mut self.cx.mac_out };
        self.nodes[listener.index()].mac.on_rx_qos_data(&mut cx, at, frame, &decoded);
        self.ampdu.decoded = decoded;
    }
}
