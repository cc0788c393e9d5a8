//! Building each node's interface queue discipline from the scenario's `[queue]` table (RED's
//! idle packet time from the DCF timing). What follows the queue's decisions at run time is
//! the node's (`node/queue.rs`).

use crate::engine::rng::{Purpose, Rng};
use crate::engine::time::secs_to_ns;
use crate::ids::NodeId;
use crate::mac::timing::{Timing, FCS_BYTES, LLC_SNAP_BYTES};
use crate::queue::{Codel, CodelConfig, Discipline, FqCodel, FqCodelConfig, Red, RedConfig};
use crate::scenario::{QueueDiscipline, Scenario};

/// The interface MTU (IP bytes): CoDel's `maxpacket` (RFC 8289 5.3).
const MTU_BYTES: u32 = 1500;

/// The discipline of node `id`'s queue `k` (0: its only one or its best-effort one; an EDCA
/// node's others 1 + their category's index), whose random stream it names.
pub(super) fn discipline(s: &Scenario, timing: &Timing, id: NodeId, k: u64) -> Discipline {
    let Some(q) = &s.queue else { return Discipline::DropTail };
    let codel = CodelConfig {
        target_ns: secs_to_ns(q.codel_target_s),
        interval_ns: secs_to_ns(q.codel_interval_s),
        mtu_bytes: MTU_BYTES,
        ecn: q.ecn,
    };
    match q.discipline {
        QueueDiscipline::DropTail => Discipline::DropTail,
        QueueDiscipline::Red => Discipline::Red(Box::new(Red::new(
            RedConfig {
                min_th_packets: q.red_min_th_packets,
                max_th_packets: q.red_max_th_packets,
                max_p: q.red_max_p,
                w_q: q.red_w_q,
                gentle: q.red_gentle,
                wait: q.red_wait,
                packet_time_ns: packet_time_ns(timing, s.mac.cw_min),
                ecn: q.ecn,
            },
            Rng::derive(s.seed, Purpose::Queue, u64::from(id.0) | k << 32),
        ))),
        QueueDiscipline::Codel => Discipline::Codel(Codel::new(codel)),
        QueueDiscipline::FqCodel => Discipline::FqCodel(Box::new(FqCodel::new(FqCodelConfig {
            codel,
            quantum_bytes: q.fq_codel_quantum_bytes,
            flows: q.fq_codel_flows as usize,
        }))),
    }
}

/// RED's s, "the typical transmission time" of a packet (Floyd & Jacobson section 4; ns-2
/// derives it from the link's bandwidth, red.cc `ptc_`): here one DCF exchange of an MTU
/// packet without contention, DIFS + the mean initial backoff (CW_min / 2 slots) + DATA at
/// the data rate + SIFS + ACK.
pub(super) fn packet_time_ns(t: &Timing, cw_min: u32) -> u64 {
    let bytes = t.data_header_bytes() + LLC_SNAP_BYTES + MTU_BYTES + FCS_BYTES;
    let data = t.airtime_ns(bytes, t.data_rate);
    t.difs + cw_min as u64 * t.slot / 2 + data + t.sifs + t.ack_after_ns(t.data_rate)
}
