//! Drop-tail with control first, and ns-2's CMUPriQueue bands.

use super::*;
use crate::net::packet::{Packet, PacketArena};

pub(super) fn ids(n: usize) -> Vec<PacketId> {
    let mut a = PacketArena::with_capacity(n);
    (0..n)
        .map(|i| {
            a.alloc(Packet::new(crate::ids::FlowId(0), i as u32, NodeId(0), NodeId(1), 1, 8, 0))
        })
        .collect()
}

pub(super) fn at(now_ns: u64) -> Arrival {
    Arrival { now_ns, bytes: 1500, ect: false, flow_key: [0, 0, 1] }
}

fn pop(q: &mut IfQueue) -> Option<Queued> {
    let mut dropped = Vec::new();
    let out = q.pop(0, &mut dropped).map(|d| d.item);
    assert!(dropped.is_empty(), "drop-tail drops nothing at dequeue");
    out
}

#[test]
fn drop_tail_and_control_first() {
    let p = ids(4);
    let q = |i: usize| Queued { packet: p[i], next_hop: NodeId(1) };
    let mut iq = IfQueue::new(2);
    assert_eq!(iq.push(q(0), false, at(0)), Verdict::Queued);
    assert_eq!(iq.push(q(1), false, at(0)), Verdict::Queued);
    assert_eq!(iq.push(q(2), false, at(0)), Verdict::Dropped(q(2), Cause::Full), "newcomer");
    assert_eq!(
        iq.push(q(3), true, at(0)),
        Verdict::Dropped(q(1), Cause::Full),
        "control at head, tail dropped"
    );
    assert_eq!(pop(&mut iq), Some(q(3)));
    assert_eq!(pop(&mut iq), Some(q(0)));
    assert!(iq.is_empty());
}

#[test]
fn the_sojourn_time_is_the_wait_from_enqueue_to_dequeue() {
    let p = ids(2);
    let mut iq = IfQueue::new(5);
    iq.push(Queued { packet: p[0], next_hop: NodeId(1) }, false, at(1_000));
    iq.push(Queued { packet: p[1], next_hop: NodeId(1) }, false, at(4_000));
    let mut dropped = Vec::new();
    assert_eq!(iq.pop(10_000, &mut dropped).unwrap().sojourn_ns, 9_000);
    assert_eq!(iq.pop(12_500, &mut dropped).unwrap().sojourn_ns, 8_500);
}

#[test]
fn cmu_bands_serve_control_then_acks_then_data_and_refuse_when_a_band_is_full() {
    let p = ids(CMU_BAND_PACKETS + 3);
    let q = |i: usize| Queued { packet: p[i], next_hop: NodeId(1) };
    let mut iq = IfQueue::cmu_priority();
    for i in 0..CMU_BAND_PACKETS {
        assert_eq!(iq.push_class(q(i), Class::Data, at(0)), Verdict::Queued);
    }
    let full = CMU_BAND_PACKETS;
    assert_eq!(
        iq.push_class(q(full), Class::Data, at(0)),
        Verdict::Dropped(q(full), Cause::Full),
        "data band full"
    );
    assert_eq!(iq.push_class(q(full + 1), Class::Ack, at(0)), Verdict::Queued, "ACK band room");
    assert_eq!(iq.push_class(q(full + 2), Class::Control, at(0)), Verdict::Queued);
    assert_eq!(iq.len(), CMU_BAND_PACKETS + 2);
    assert_eq!(pop(&mut iq), Some(q(full + 2)), "control first");
    assert_eq!(pop(&mut iq), Some(q(full + 1)), "then the ACK");
    assert_eq!(pop(&mut iq), Some(q(0)), "then data, FIFO");
}

#[test]
fn take_for_removes_one_next_hop_and_keeps_the_order_of_the_rest() {
    let p = ids(5);
    let mut iq = IfQueue::new(10);
    for (i, hop) in [1, 2, 1, 3, 2].into_iter().enumerate() {
        iq.push(Queued { packet: p[i], next_hop: NodeId(hop) }, false, at(0));
    }
    let mut out = Vec::new();
    iq.take_for(NodeId(2), 0, &mut out);
    assert_eq!(out.iter().map(|q| q.packet).collect::<Vec<_>>(), vec![p[1], p[4]]);
    assert_eq!(iq.bytes, 3 * 1500, "the byte count follows");
    let rest: Vec<_> = std::iter::from_fn(|| pop(&mut iq)).map(|q| q.next_hop).collect();
    assert_eq!(rest, vec![NodeId(1), NodeId(1), NodeId(3)]);
}

#[test]
fn the_byte_count_follows_every_band_and_path() {
    // The count of `items` (CoDel's `bytes()`): CMUPriQueue's data band, control at the
    // head of drop-tail, a purge; it must return to zero (an underflow panics in debug).
    let p = ids(6);
    let q = |i: usize| Queued { packet: p[i], next_hop: NodeId(1 + (i as u32 % 2)) };
    let mut cmu = IfQueue::cmu_priority();
    cmu.push_class(q(0), Class::Data, at(0));
    cmu.push_class(q(1), Class::Ack, at(0));
    cmu.push_class(q(2), Class::Control, at(0));
    cmu.push_class(q(3), Class::Data, at(0));
    let mut out = Vec::new();
    cmu.take_for(NodeId(2), 0, &mut out); // q(3)
    while cmu.pop(0, &mut out).is_some() {}
    assert_eq!((cmu.bytes, cmu.len()), (0, 0));
    let mut dt = IfQueue::new(3);
    for i in 0..3 {
        dt.push(q(i), false, at(0));
    }
    dt.push(q(3), true, at(0)); // control in, tail out
    dt.take_for(NodeId(1), 0, &mut out);
    while dt.pop(0, &mut out).is_some() {}
    assert_eq!((dt.bytes, dt.len()), (0, 0));
}
