//! CoDel, "Controlled Delay" (RFC 8289): drops at dequeue when the sojourn time of packets has
//! stayed above `target` for at least `interval`, then at a rate rising with the square root
//! of the drops (the control law, section 5.5), until a packet leaves below target. The
//! functions follow the RFC's pseudocode (section 5.3 `dodequeue`, 5.5 `dequeue`), with the
//! Linux re-entry rule for `count` it quotes. ECN: at each drop point an ECN-capable packet is
//! marked CE and sent instead (RFC 8289 section 5 "ECN"; Linux `codel_dequeue` marks and
//! returns the packet, the drop schedule advancing as for a drop).

use super::{IfQueue, Queued, Slot};

/// What CoDel dequeues from: a FIFO of slots, and the bytes queued for the MTU check.
pub(super) trait CodelQueue {
    fn take_head(&mut self) -> Option<Slot>;
    /// Bytes still queued (the whole interface queue's, as Linux passes the qdisc backlog).
    fn bytes(&self) -> u64;
}

impl CodelQueue for IfQueue {
    fn take_head(&mut self) -> Option<Slot> {
        IfQueue::take_head(self)
    }

    fn bytes(&self) -> u64 {
        self.bytes
    }
}

/// CoDel's parameters (RFC 8289 section 4.3: target 5 ms, interval 100 ms).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CodelConfig {
    pub target_ns: u64,
    pub interval_ns: u64,
    /// The interface MTU (`maxpacket`): no drop while the queue holds at most this many bytes
    /// (RFC 8289 section 5.3, pseudocode `bytes() <= maxpacket_`).
    pub mtu_bytes: u32,
    /// Mark ECN-capable packets CE instead of dropping them.
    pub ecn: bool,
}

#[derive(Debug, Clone)]
pub struct Codel {
    cfg: CodelConfig,
    /// Time the sojourn time will have been above target for an interval (0: below target).
    first_above_time_ns: u64,
    /// Time of the next drop in the dropping state.
    drop_next_ns: u64,
    /// Drops (and marks) since entering the dropping state, and its value when it last did.
    count: u32,
    lastcount: u32,
    dropping: bool,
}

impl Codel {
    pub fn new(cfg: CodelConfig) -> Codel {
        Codel {
            cfg,
            first_above_time_ns: 0,
            drop_next_ns: 0,
            count: 0,
            lastcount: 0,
            dropping: false,
        }
    }

    /// Drops and marks in the current (or last) dropping state.
    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn dropping(&self) -> bool {
        self.dropping
    }

    /// RFC 8289 section 5.5 `control_law`: t + interval / sqrt(count).
    fn control_law(&self, t_ns: u64, count: u32) -> u64 {
        t_ns + (self.cfg.interval_ns as f64 / (count as f64).sqrt()) as u64
    }

    /// RFC 8289 section 5.3 `dodequeue`: the head packet and whether it is OK to drop
    /// (sojourn above target for an interval, and more than one MTU still queued).
    fn dodequeue(&mut self, now_ns: u64, q: &mut impl CodelQueue) -> Option<(Slot, bool)> {
        let Some(s) = q.take_head() else {
            self.first_above_time_ns = 0; // queue empty: not above target
            return None;
        };
        let sojourn_ns = now_ns - s.enq_ns;
        let mut ok_to_drop = false;
        if sojourn_ns < self.cfg.target_ns || q.bytes() <= self.cfg.mtu_bytes as u64 {
            self.first_above_time_ns = 0; // went below, or too few bytes to matter
        } else if self.first_above_time_ns == 0 {
            // Just went above from below: drop if it stays above for an interval.
            self.first_above_time_ns = now_ns + self.cfg.interval_ns;
        } else if now_ns >= self.first_above_time_ns {
            ok_to_drop = true;
        }
        Some((s, ok_to_drop))
    }

    /// Mark `s` CE if the discipline marks and the packet is ECN-capable.
    fn marks(&self, s: &Slot) -> bool {
        self.cfg.ecn && s.ect
    }

    /// RFC 8289 section 5.5 `dequeue`: the packet to send (and whether it was marked CE);
    /// packets dropped on the way go to `dropped`.
    pub(super) fn dequeue(
        &mut self,
        now_ns: u64,
        q: &mut impl CodelQueue,
        dropped: &mut Vec<Queued>,
    ) -> Option<(Slot, bool)> {
        let Some((mut s, mut ok_to_drop)) = self.dodequeue(now_ns, q) else {
            self.dropping = false; // empty: leave the dropping state
            return None;
        };
        if self.dropping {
            if !ok_to_drop {
                self.dropping = false; // sojourn below target: leave the dropping state
            }
            // Time for the next drop(s); a large backlog may call for several now.
            while now_ns >= self.drop_next_ns && self.dropping {
                self.count += 1;
                if self.marks(&s) {
                    // Linux codel_dequeue: mark, schedule the next drop, send this one.
                    self.drop_next_ns = self.control_law(self.drop_next_ns, self.count);
                    return Some((s, true));
                }
                dropped.push(s.item);
                match self.dodequeue(now_ns, q) {
                    None => {
                        self.dropping = false;
                        return None;
                    }
                    Some((next, ok)) => {
                        (s, ok_to_drop) = (next, ok);
                    }
                }
                if !ok_to_drop {
                    self.dropping = false;
                } else {
                    self.drop_next_ns = self.control_law(self.drop_next_ns, self.count);
                }
            }
            return Some((s, false));
        }
        if !ok_to_drop {
            return Some((s, false));
        }
        // Above target for an interval: enter the dropping state with a drop (or mark).
        let mut marked = false;
        if self.marks(&s) {
            marked = true;
        } else {
            dropped.push(s.item);
            match self.dodequeue(now_ns, q) {
                Some((next, _)) => s = next,
                None => {
                    // Nothing left to send; the state is still entered (RFC pseudocode
                    // returns r.p = NULL after setting dropping_ below).
                    self.enter_dropping(now_ns);
                    return None;
                }
            }
        }
        self.enter_dropping(now_ns);
        Some((s, marked))
    }

    /// RFC 8289 section 5.5: enter the dropping state; if it was left recently, resume near
    /// the drop rate that controlled the queue then (the Linux rule the RFC quotes).
    fn enter_dropping(&mut self, now_ns: u64) {
        self.dropping = true;
        let delta = self.count.saturating_sub(self.lastcount);
        self.count = 1;
        // Signed: drop_next may still lie ahead of now.
        let since_ns = now_ns as i128 - self.drop_next_ns as i128;
        if delta > 1 && since_ns < 16 * self.cfg.interval_ns as i128 {
            self.count = delta;
        }
        self.drop_next_ns = self.control_law(now_ns, self.count);
        self.lastcount = self.count;
    }
}
