//! CoDel against RFC 8289's pseudocode on scripted queues: an explicit timeline of enqueues
//! and dequeues, and the drop times the control law gives.

use super::droptail_tests::ids;
use super::*;

const MS: u64 = 1_000_000;
const INTERVAL_MS: f64 = 100.0;

fn codel(ecn: bool) -> IfQueue {
    let cfg = CodelConfig { target_ns: 5 * MS, interval_ns: 100 * MS, mtu_bytes: 1500, ecn };
    IfQueue::with_discipline(10_000, Discipline::Codel(Codel::new(cfg)))
}

struct Script {
    q: IfQueue,
    ids: Vec<PacketId>,
    next: usize,
    ect: bool,
    /// (time in ms, CoDel's count after it) of each drop or mark.
    drops: Vec<(f64, u32)>,
    marks: Vec<(f64, u32)>,
    scratch: Vec<Queued>,
}

impl Script {
    fn new(ecn: bool) -> Script {
        let (q, ids) = (codel(ecn), ids(3000));
        Script { q, ids, next: 0, ect: ecn, drops: vec![], marks: vec![], scratch: vec![] }
    }

    fn enqueue(&mut self, t_ns: u64, n: usize) {
        for _ in 0..n {
            let item = Queued { packet: self.ids[self.next], next_hop: NodeId(1) };
            self.next += 1;
            let a = Arrival { now_ns: t_ns, bytes: 1500, ect: self.ect, flow_key: [0, 0, 1] };
            assert_eq!(self.q.push(item, false, a), Verdict::Queued);
        }
    }

    fn pop(&mut self, t_ns: u64) -> Option<Dequeued> {
        let out = self.q.pop(t_ns, &mut self.scratch);
        let count = self.codel().count();
        for _ in self.scratch.drain(..) {
            self.drops.push((t_ns as f64 / MS as f64, count));
        }
        if out.is_some_and(|d| d.marked) {
            self.marks.push((t_ns as f64 / MS as f64, count));
        }
        out
    }

    fn codel(&self) -> &Codel {
        match self.q.discipline() {
            Discipline::Codel(c) => c,
            _ => unreachable!(),
        }
    }
}

/// RFC 8289 5.5: the first drop when the sojourn time has been above target for an interval
/// (at `first_ms`), the next `interval` later, then each `interval / sqrt(count)` after the
/// previous scheduled time: drop k at first + interval * sum_{j<k} 1/sqrt(j), served at the
/// first dequeue (every 1 ms here) at or after it.
fn expected_drop_times_ms(first_ms: f64, until_ms: f64) -> Vec<(f64, u32)> {
    let mut out = vec![(first_ms, 1)];
    let mut at = first_ms;
    for count in 1.. {
        at += INTERVAL_MS / (count as f64).sqrt();
        if at.ceil() >= until_ms {
            break;
        }
        out.push((at.ceil(), count + 1));
    }
    out
}

#[test]
fn a_standing_queue_is_dropped_on_the_control_law_schedule() {
    // 1000 packets at t = 0, one dequeue per ms from 10 ms: every sojourn is above 5 ms. The
    // first dequeue (10 ms) starts the interval; the first drop is at 110 ms.
    let mut s = Script::new(false);
    s.enqueue(0, 1000);
    for t in 10..700 {
        let d = s.pop(t * MS).expect("a packet is sent at every dequeue");
        assert_eq!(d.sojourn_ns, t * MS, "FIFO: the head waited since t = 0");
        assert!(!d.marked);
    }
    let expected = expected_drop_times_ms(110.0, 700.0);
    assert_eq!(s.drops, expected, "drop times (ms) and count");
    assert!(expected.len() >= 12, "the schedule tightens: {} drops", expected.len());
    assert!(s.codel().dropping());
}

#[test]
fn with_ecn_the_drop_points_mark_the_packet_sent_instead() {
    let mut s = Script::new(true);
    s.enqueue(0, 1000);
    for t in 10..700 {
        s.pop(t * MS).expect("a packet is sent at every dequeue");
    }
    assert!(s.drops.is_empty(), "ECN-capable packets are marked, not dropped");
    assert_eq!(s.marks, expected_drop_times_ms(110.0, 700.0), "same schedule as the drops");
}

#[test]
fn non_ect_packets_are_still_dropped_by_a_marking_codel() {
    let mut s = Script::new(true);
    s.ect = false;
    s.enqueue(0, 1000);
    for t in 10..300 {
        s.pop(t * MS);
    }
    assert!(s.marks.is_empty());
    assert_eq!(s.drops, expected_drop_times_ms(110.0, 300.0));
}

#[test]
fn the_dropping_state_ends_when_a_packet_leaves_below_target() {
    let mut s = Script::new(false);
    s.enqueue(0, 120);
    for t in 10..=110 {
        s.pop(t * MS);
    }
    assert_eq!(s.drops, vec![(110.0, 1)]);
    assert!(s.codel().dropping());
    // A fresh burst behind the old packets; the old ones go at 116 ms (before the next drop
    // is due at 210 ms), then the first new one leaves with 3 ms < target.
    s.enqueue(115 * MS, 200);
    while s.q.len() > 200 {
        s.pop(116 * MS);
    }
    assert!(s.codel().dropping(), "still above target");
    let d = s.pop(118 * MS).unwrap();
    assert_eq!(d.sojourn_ns, 3 * MS);
    assert!(!s.codel().dropping(), "below target: the dropping state is left");
    // Above target again from 120 ms (5 ms): a full interval must pass before a drop, and
    // the drop due at 210 ms in the old state does not happen.
    for t in 119..=219 {
        s.pop(t * MS);
    }
    assert_eq!(s.drops.len(), 1, "no drop within the new interval: {:?}", s.drops);
    s.pop(220 * MS);
    assert_eq!(s.drops[1], (220.0, 1), "a new dropping state, count 1");
}

#[test]
fn re_entry_soon_after_resumes_the_last_drop_rate_and_later_starts_over() {
    // Episode 1: four drops (110, 210, 281, 339 ms): count 4, lastcount 1.
    let mut s = Script::new(false);
    s.enqueue(0, 400);
    for t in 10..=340 {
        s.pop(t * MS);
    }
    assert_eq!(s.drops.len(), 4);
    // Drain; an empty queue leaves the dropping state.
    while s.pop(341 * MS).is_some() {}
    assert!(!s.codel().dropping());
    // Episode 2 starts within 16 intervals of the last drop_next: count = 4 - 1 = 3, so
    // the next drop comes interval / sqrt(3) after the entry (RFC 8289 5.5, Linux rule).
    s.enqueue(400 * MS, 500);
    for t in 410..=700 {
        s.pop(t * MS);
    }
    let episode: Vec<_> = s.drops[4..].to_vec();
    assert_eq!(episode[0], (510.0, 3), "entry: 410 + interval, count resumed at 3");
    let next = 510.0 + INTERVAL_MS / 3f64.sqrt();
    assert_eq!(episode[1], (next.ceil(), 4));
    assert_eq!(episode.len(), 4, "drops at 510, 568, 618, 663 ms: {episode:?}");
    // Episode 3 long after (more than 16 intervals): count starts at 1 though the last
    // episode's delta (6 - 3) is above 1.
    while s.pop(701 * MS).is_some() {}
    s.enqueue(3000 * MS, 300);
    for t in 3010..=3211 {
        s.pop(t * MS);
    }
    let last: Vec<_> = s.drops.iter().filter(|d| d.0 >= 3000.0).copied().collect();
    assert_eq!(last, vec![(3110.0, 1), (3210.0, 2)], "count restarts: interval / sqrt(1)");
}

#[test]
fn no_drop_while_at_most_one_mtu_is_queued() {
    // RFC 8289 5.3: a sojourn above target with bytes() <= maxpacket is not "above".
    let mut s = Script::new(false);
    s.enqueue(0, 3);
    s.pop(10 * MS); // 3000 bytes left: the interval starts (drop due at 110 ms)
    s.pop(120 * MS); // 1500 bytes left: reset, no drop though 120 > 110
    assert!(s.drops.is_empty());
    s.enqueue(130 * MS, 150);
    s.pop(140 * MS); // the interval starts again
    for t in 141..=239 {
        s.pop(t * MS);
    }
    assert!(s.drops.is_empty(), "{:?}", s.drops);
    s.pop(240 * MS);
    assert_eq!(s.drops, vec![(240.0, 1)]);
}
