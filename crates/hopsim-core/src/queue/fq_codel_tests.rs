//! FQ-CoDel against RFC 8290: deficit round robin gives backlogged flows equal bytes
//! whatever their packet sizes, a new (sparse) flow is served before the backlogged ones,
//! and an overflow drops from the queue holding the most bytes.

use super::droptail_tests::ids;
use super::*;

const QUANTUM: u64 = 1514;
const A: [u32; 3] = [0, 0, 1];
const B: [u32; 3] = [1, 0, 1];
const C: [u32; 3] = [2, 4, 1];

fn fq(limit: usize) -> IfQueue {
    let codel =
        CodelConfig { target_ns: 5_000_000, interval_ns: 100_000_000, mtu_bytes: 1500, ecn: false };
    let cfg = FqCodelConfig { codel, quantum_bytes: QUANTUM as u32, flows: 1024 };
    IfQueue::with_discipline(limit, Discipline::FqCodel(Box::new(FqCodel::new(cfg))))
}

struct Feed {
    ids: Vec<PacketId>,
    next: usize,
    /// The flow of each packet id handed out.
    flow_of: std::collections::BTreeMap<PacketId, [u32; 3]>,
}

impl Feed {
    fn new() -> Feed {
        Feed { ids: ids(3000), next: 0, flow_of: Default::default() }
    }

    fn push(&mut self, q: &mut IfQueue, key: [u32; 3], bytes: u32) -> (Queued, Verdict) {
        let item = Queued { packet: self.ids[self.next], next_hop: NodeId(1) };
        self.next += 1;
        self.flow_of.insert(item.packet, key);
        let a = Arrival { now_ns: 0, bytes, ect: false, flow_key: key };
        (item, q.push(item, false, a))
    }
}

#[test]
fn the_test_flows_have_queues_of_their_own() {
    let f = FqCodel::new(FqCodelConfig {
        codel: CodelConfig { target_ns: 1, interval_ns: 2, mtu_bytes: 1500, ecn: false },
        quantum_bytes: 1514,
        flows: 1024,
    });
    let (a, b, c) = (f.queue_of(A), f.queue_of(B), f.queue_of(C));
    assert!(a != b && b != c && a != c);
}

#[test]
fn drr_gives_backlogged_flows_equal_bytes_whatever_their_packet_size() {
    let mut q = fq(10_000);
    let mut feed = Feed::new();
    for _ in 0..300 {
        feed.push(&mut q, A, 1500);
    }
    for _ in 0..1500 {
        feed.push(&mut q, B, 300);
    }
    let (mut a, mut b) = (0u64, 0u64);
    let mut dropped = Vec::new();
    for k in 0..1200 {
        // All at t = 0: sojourn 0, CoDel never drops; DRR alone decides.
        let d = q.pop(0, &mut dropped).expect("backlogged");
        let bytes = if feed.flow_of[&d.item.packet] == A { 1500 } else { 300 };
        if feed.flow_of[&d.item.packet] == A {
            a += bytes;
        } else {
            b += bytes;
        }
        if k >= 20 {
            // Each round gives each flow one quantum; the difference stays within a quantum
            // plus the largest packet (RFC 8290 4.2, DRR).
            assert!(a.abs_diff(b) <= QUANTUM + 1500, "after {k}: A {a} B {b}");
        }
    }
    assert!(dropped.is_empty());
    assert!(a > 100_000 && b > 100_000, "both served: A {a} B {b}");
}

#[test]
fn a_new_sparse_flow_is_served_before_the_backlogged_one() {
    let mut q = fq(10_000);
    let mut feed = Feed::new();
    for _ in 0..50 {
        feed.push(&mut q, A, 1500);
    }
    let mut dropped = Vec::new();
    // A spends its first quantum (1514 bytes: two packets) and goes to the old list.
    for _ in 0..3 {
        assert_eq!(feed.flow_of[&q.pop(0, &mut dropped).unwrap().item.packet], A);
    }
    let (c, _) = feed.push(&mut q, C, 100);
    assert_eq!(q.pop(0, &mut dropped).unwrap().item, c, "the new flow goes first");
    assert_eq!(feed.flow_of[&q.pop(0, &mut dropped).unwrap().item.packet], A);
    // C's queue emptied: it went to the old list, then left it on its turn (empty); its next
    // packet makes it a new flow again, served before A once more (a sparse flow's
    // packets each see an empty queue).
    let (c2, _) = feed.push(&mut q, C, 100);
    assert_eq!(q.pop(0, &mut dropped).unwrap().item, c2);
}

#[test]
fn an_overflow_drops_the_head_of_the_fattest_queue() {
    let mut q = fq(10);
    let mut feed = Feed::new();
    let (a0, _) = feed.push(&mut q, A, 1500);
    for _ in 1..8 {
        feed.push(&mut q, A, 1500);
    }
    feed.push(&mut q, B, 300);
    feed.push(&mut q, B, 300);
    assert_eq!(q.len(), 10);
    let (b, verdict) = feed.push(&mut q, B, 300);
    assert_eq!(verdict, Verdict::Dropped(a0, Cause::Full), "A holds the most bytes");
    assert_eq!(q.len(), 10);
    assert_ne!(verdict, Verdict::Dropped(b, Cause::Full));
    // Routing control still gets in, at the head, by dropping from the fattest flow.
    let ctl = Queued { packet: feed.ids[2999], next_hop: NodeId(1) };
    let a = Arrival { now_ns: 0, bytes: 48, ect: false, flow_key: [u32::MAX, 0, 1] };
    assert!(matches!(q.push(ctl, true, a), Verdict::Dropped(_, Cause::Full)));
    let mut dropped = Vec::new();
    assert_eq!(q.pop(0, &mut dropped).unwrap().item, ctl, "control first");
}

#[test]
fn each_flow_has_its_own_codel() {
    // A standing since t = 0; B's packets arrive just before they leave: only A is dropped.
    let mut q = fq(10_000);
    let mut feed = Feed::new();
    for _ in 0..400 {
        feed.push(&mut q, A, 1500);
    }
    let mut dropped = Vec::new();
    let ms = 1_000_000;
    for t in 10..400u64 {
        let item = Queued { packet: feed.ids[1000 + t as usize], next_hop: NodeId(1) };
        feed.flow_of.insert(item.packet, B);
        let a = Arrival { now_ns: t * ms, bytes: 1500, ect: false, flow_key: B };
        q.push(item, false, a);
        q.pop(t * ms, &mut dropped);
        q.pop(t * ms, &mut dropped);
    }
    assert!(!dropped.is_empty(), "A's standing queue is dropped");
    assert!(dropped.iter().all(|d| feed.flow_of[&d.packet] == A), "B's packets leave at once");
}
