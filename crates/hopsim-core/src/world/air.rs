//! Frames on the air: a transmission is one event at its start (registered with every
//! listener, arrival times carrying the propagation delay) and one at its end (each listener's
//! reception completes at its own arrival end time). No per-listener events.

use super::event::Event;
use super::World;
use crate::engine::time::SimTime;
use crate::ids::NodeId;
use crate::mac::dcf::MacCtx;
use crate::mac::frame::{Frame, FrameKind};
use crate::node::Node;
use crate::observe::events::{EventKind, Reason};
use crate::phy::links::Link;
use crate::phy::radio::{all_or_none, EarlyEnd, FrameRef, Psdu, RxEnd, Start};

impl World {
    pub(super) fn start_tx(&mut self, now: SimTime, node: NodeId, frame: Frame, response: bool) {
        let end = now + frame.airtime_ns;
        self.check_may_transmit(now, node, response);
        let n = &mut self.nodes[node.index()];
        n.tx_serial = n.tx_serial.wrapping_add(1);
        let fref = FrameRef { tx: node, serial: n.tx_serial };
        n.radio.start_tx(now, end);
        n.tx_frame = Some((frame, fref));
        self.trace_frame(node, now, &frame);
        self.cx.trace.air(
            &self.cx.packets,
            (now, node),
            EventKind::FrameStart,
            (&frame, fref),
            None,
        );
        let links = self.lend_links(node, now);
        let fade = self.fading.enabled();
        let mut powers = Vec::new();
        if fade {
            powers = std::mem::take(&mut self.fading.on_air_w[node.index()]);
            powers.clear();
        }
        // The fast path is ns-2's receiver; one that senses weak frames takes the general one.
        if self.capture_mode && !fade && !self.nodes[node.index()].radio.senses_weak() {
            self.start_listeners_capture(now, &frame, fref, &links);
        } else {
            self.start_listeners(now, &frame, fref, &links, &mut powers);
        }
        self.give_back_links(node, links);
        if fade {
            self.fading.on_air_w[node.index()] = powers;
        }
        self.cx.sched.schedule(end, Event::TxEnd { node });
    }

    /// The listeners of a frame starting at `now`: any reception mode, fading on or off.
    fn start_listeners(
        &mut self,
        now: SimTime,
        frame: &Frame,
        fref: FrameRef,
        links: &[Link],
        powers: &mut Vec<f64>,
    ) {
        let (fade, capture_mode, ns2) = (self.fading.enabled(), self.capture_mode, self.cx.cfg.ns2);
        let subframes = self.subframes_of(fref.tx, frame);
        // The octets on the air: an A-MPDU's are counted in the frame; a lone MPDU at a VHT
        // rate travels as an S-MPDU.
        let psdu_bytes = if frame.mpdus == 0 {
            crate::mac::timing::single_psdu_bytes(frame.bytes, frame.rate)
        } else {
            frame.bytes
        };
        for link in links {
            let mut link = *link;
            if fade {
                let rng = &mut self.nodes[fref.tx.index()].fading_rng;
                let g = self.fading.frame_gain(rng, (fref.tx, link.listener), now);
                link.power_w *= g;
                link.decodable = link.power_w >= self.fading.rx_w;
                link.sensed = link.power_w >= self.fading.cs_w;
                powers.push(link.power_w);
                if self.fading.floor_w.is_some_and(|f| link.power_w < f) {
                    continue; // no signal at this listener this time
                }
            }
            if capture_mode && !link.sensed {
                continue; // ns-2: below carrier sense a signal does not exist
            }
            let j = link.listener.index();
            let start = now + link.delay_ns;
            let stop = start + frame.airtime_ns;
            let psdu = Psdu { rate: frame.rate.0, bytes: psdu_bytes, subframes: &subframes };
            let (early, busy, captured) = self.nodes[j].radio.signal_start(
                fref,
                link.power_w,
                link.decodable,
                (start, stop),
                psdu,
            );
            if let Some(e) = early {
                self.complete_early(now, link.listener, e);
            }
            let listener = &mut self.nodes[j];
            if let Some((from, until)) = busy {
                listener.mac.on_medium_busy(from, until);
            }
            if ns2 && captured {
                self.ns2_capture((start, stop), link.listener, (frame, fref));
            }
        }
        self.ampdu.subframes = subframes;
    }

    /// As [`World::start_listeners`] in capture mode without fading, for ns-2's receiver (weak
    /// frames received), where every link is sensed (links.rs includes exactly the links above
    /// carrier sense then): per listener one look at its node, the radio's outcome in one value.
    fn start_listeners_capture(
        &mut self,
        now: SimTime,
        frame: &Frame,
        fref: FrameRef,
        links: &[Link],
    ) {
        let ns2 = self.cx.cfg.ns2;
        for link in links {
            debug_assert!(link.sensed, "capture mode without fading lists sensed links only");
            let j = link.listener.index();
            let start = now + link.delay_ns;
            let stop = start + frame.airtime_ns;
            let node = &mut self.nodes[j];
            let radio = node.radio.capture_mut();
            let outcome = radio.signal_start_ns2(fref, link.power_w, link.decodable, start, stop);
            // A reception that ended before this signal began completes first (rare).
            let node = if outcome == Start::Early {
                let e = radio.early_end();
                self.complete_early(now, link.listener, e);
                &mut self.nodes[j]
            } else {
                node
            };
            node.mac.on_medium_busy(start, stop);
            if ns2 && outcome == Start::Captured {
                self.ns2_capture((start, stop), link.listener, (frame, fref));
            }
        }
    }

    /// ns-2 `capture()`: the frame `listener` is receiving captured away `frame`, arriving
    /// over [start, stop): its MAC sets its EIFS NAV from the lost one (mac/dcf/ns2.rs), and
    /// the trace says so.
    #[cold]
    #[inline(never)]
    fn ns2_capture(
        &mut self,
        (start, stop): (SimTime, SimTime),
        listener: NodeId,
        f: (&Frame, FrameRef),
    ) {
        self.nodes[listener.index()].mac.on_captured(start, stop);
        self.cx.trace.air(&self.cx.packets, (start, listener), EventKind::Capture, f, None);
    }

    /// `listener`'s reception `e` ended before a new signal began, its end event still to
    /// come (phy/radio): it completes now, before the new signal is noted.
    #[cold]
    #[inline(never)]
    pub(super) fn complete_early(&mut self, now: SimTime, listener: NodeId, e: EarlyEnd) {
        if super::interference::is_foreign(e.frame.tx) {
            return; // an interferer's energy ended: nothing to complete
        }
        let (done_frame, done_ref) =
            self.nodes[e.frame.tx.index()].tx_frame.expect("frame still on air");
        let decodable = self.is_decodable(e.frame.tx, listener);
        let result = (e.ok, e.parts);
        self.complete_rx(now, listener, (&done_frame, done_ref), e.end, result, decodable);
    }

    /// Invariants: a radio sends one frame at a time, and a frame won by contention starts
    /// only when neither physical nor virtual carrier sense forbids it (idle for DIFS). A
    /// signal counts only once it has lasted longer than the CCA time (mac/access/mod.rs).
    /// (DIFS, or the shortest AIFS of an EDCA station; the frames of a TXOP after its first
    /// come SIFS after a response, as responses do.)
    fn check_may_transmit(&mut self, now: SimTime, node: NodeId, response: bool) {
        let n = &self.nodes[node.index()];
        if n.radio.transmitting_at(now) || n.tx_frame.is_some() {
            self.cx
                .invariants
                .violate(format!("node {node} started a frame at {now} ns while transmitting"));
        }
        if response {
            return;
        }
        // The medium as carrier sense had reported it by `now`.
        let seen = now.saturating_sub(n.mac.cca_ns() + 1);
        if n.radio.signal_busy_at(now) && n.radio.signal_busy_at(seen) {
            self.cx.invariants.violate(format!(
                "node {node} transmitted at {now} ns while carrier sense was busy"
            ));
        } else if now < n.radio.idle_since(seen) + n.mac.min_aifs_ns() {
            self.cx.invariants.violate(format!(
                "node {node} transmitted at {now} ns less than DIFS after the medium became idle"
            ));
        }
        if n.mac.nav_until() > now {
            self.cx
                .invariants
                .violate(format!("node {node} transmitted at {now} ns while its NAV was set"));
        }
    }

    /// Listeners of `tx`'s frame starting at `now`, lent out of their home for the frame's
    /// start (and again for its end): precomputed for static topologies, worked out at the
    /// start of the frame for moving ones.
    fn lend_links(&mut self, tx: NodeId, now: SimTime) -> Vec<Link> {
        let mut links = self.lend_current_links(tx);
        if let Some(m) = self.motion.as_mut() {
            m.links(tx, now, &mut links);
        }
        links
    }

    /// The listeners of `tx`'s frame on the air, lent out as they are.
    fn lend_current_links(&mut self, tx: NodeId) -> Vec<Link> {
        match self.motion {
            Some(ref mut m) => std::mem::take(&mut m.on_air[tx.index()]),
            None => self.channel.lend(tx),
        }
    }

    fn give_back_links(&mut self, tx: NodeId, links: Vec<Link>) {
        match self.motion {
            Some(ref mut m) => m.on_air[tx.index()] = links,
            None => self.channel.put_back(tx, links),
        }
    }

    /// Does `listener` decode `tx`'s frame on the air (`tx`'s links are not lent out)?
    fn is_decodable(&self, tx: NodeId, listener: NodeId) -> bool {
        match self.motion {
            Some(ref m) => {
                m.on_air[tx.index()].iter().any(|l| l.listener == listener && l.decodable)
            }
            None => self.channel.decodable(tx, listener),
        }
    }

    pub(super) fn end_tx(&mut self, now: SimTime, node: NodeId) {
        let (frame, fref) =
            self.nodes[node.index()].tx_frame.take().expect("a frame was on the air");
        let links = self.lend_current_links(node);
        if self.capture_mode && !self.fading.enabled() {
            self.end_listeners_capture(now, &frame, fref, &links);
        } else {
            self.end_listeners(now, &frame, fref, &links);
        }
        self.give_back_links(node, links);
        self.cx.trace.air(&self.cx.packets, (now, node), EventKind::FrameEnd, (&frame, fref), None);
        let mut cx = MacCtx { now, timers: &mut self.cx.sched, out: &mut self.cx.mac_out };
        self.nodes[node.index()].mac.on_tx_end(&mut cx, &frame);
    }

    /// The listeners of a frame ending at `now`: any reception mode, fading on or off.
    fn end_listeners(&mut self, now: SimTime, frame: &Frame, fref: FrameRef, links: &[Link]) {
        let (fade, capture_mode) = (self.fading.enabled(), self.capture_mode);
        for (k, link) in links.iter().enumerate() {
            let mut link = *link;
            if fade {
                link.power_w = self.fading.on_air_w[fref.tx.index()][k];
                link.decodable = link.power_w >= self.fading.rx_w;
                link.sensed = link.power_w >= self.fading.cs_w;
                if self.fading.floor_w.is_some_and(|f| link.power_w < f) {
                    continue; // it was no signal here (start_listeners)
                }
            }
            // ns-2 capture: signals below carrier sense do not exist, and a frame the receiver
            // did not lock on still ends in EIFS; SINR (ns-3): only a failed reception does.
            if capture_mode && !link.sensed {
                continue;
            }
            let at = now + link.delay_ns;
            match self.nodes[link.listener.index()].radio.signal_end(fref) {
                RxEnd::Locked { ok, parts, .. } => {
                    let result = (ok, parts);
                    self.complete_rx(now, link.listener, (frame, fref), at, result, link.decodable)
                }
                RxEnd::Missed if capture_mode => {
                    let missed = (frame, fref);
                    self.complete_rx(now, link.listener, missed, at, (false, 0), link.decodable)
                }
                RxEnd::Missed | RxEnd::AlreadyDone => {}
            }
        }
    }

    /// As [`World::end_listeners`] in capture mode without fading (every link sensed): a
    /// lost reception that is not traced takes the short path, with one look at the node.
    fn end_listeners_capture(
        &mut self,
        now: SimTime,
        frame: &Frame,
        fref: FrameRef,
        links: &[Link],
    ) {
        let tracing = self.cx.trace.on();
        for link in links {
            let at = now + link.delay_ns;
            let node = &mut self.nodes[link.listener.index()];
            // ns-2 capture: a frame the receiver did not lock on still ends in EIFS.
            let ok = match node.radio.capture_mut().signal_end(fref) {
                RxEnd::Locked { ok, .. } => ok,
                RxEnd::Missed => false,
                RxEnd::AlreadyDone => continue,
            };
            if ok || tracing {
                let result = (ok, all_or_none(ok));
                self.complete_rx(now, link.listener, (frame, fref), at, result, link.decodable);
            } else {
                lose_rx(node, now, link.listener, frame, at, link.decodable);
            }
        }
    }

    /// A frame's reception ends at `listener` at time `at` (>= now). Most listeners of a
    /// frame only sense it: their lost receptions take the short path.
    #[inline(always)]
    fn complete_rx(
        &mut self,
        now: SimTime,
        listener: NodeId,
        (frame, fref): (&Frame, FrameRef),
        at: SimTime,
        (ok, parts): (bool, u64),
        decodable: bool,
    ) {
        if ok {
            self.complete_rx_ok(now, listener, (frame, fref), at, parts);
            return;
        }
        let reason = if decodable { Reason::Collision } else { Reason::NotDecoded };
        self.cx.trace.air(
            &self.cx.packets,
            (at, listener),
            EventKind::RxError,
            (frame, fref),
            Some(reason),
        );
        lose_rx(&mut self.nodes[listener.index()], now, listener, frame, at, decodable);
    }

    /// A frame decoded at `listener` at `at`, unless an injected frame error takes it.
    #[inline(never)]
    fn complete_rx_ok(
        &mut self,
        now: SimTime,
        listener: NodeId,
        (frame, fref): (&Frame, FrameRef),
        at: SimTime,
        parts: u64,
    ) {
        let mut ok = true;
        let mut lost = None;
        if self.fading.dynamics.has_loss() && self.fading.dynamics.lost(fref.tx, listener, at) {
            self.nodes[listener.index()].counters.channel_losses += 1;
            ok = false;
            lost = Some(Reason::ChannelLoss);
        } else if self.frame_error_rate > 0.0 {
            // Injected loss: drawn per reception from the listener's own stream.
            let node = &mut self.nodes[listener.index()];
            if node.error_rng.uniform() < self.frame_error_rate {
                node.counters.frame_errors += 1;
                ok = false;
                lost = Some(Reason::FrameError);
            }
        }
        let event = if ok { EventKind::RxOk } else { EventKind::RxError };
        self.cx.trace.air(&self.cx.packets, (at, listener), event, (frame, fref), lost);
        if ok {
            self.trace_parts(listener, at, frame, parts);
            if frame.dst == listener {
                // The response to it carries the SNR it was received at (SNR-ideal senders).
                let node = &mut self.nodes[listener.index()];
                let snr = node.radio.last_rx_snr_cdb();
                node.mac.note_rx_snr(snr);
            }
        }
        if self.aggregating
            && ok
            && frame.kind == FrameKind::Data
            && frame.dst == listener
            && self.nodes[listener.index()].mac.reorders_from(frame.src, frame.tid)
        {
            return self.deliver_qos_data(now, listener, frame, at, parts);
        }
        let mut cx = MacCtx { now, timers: &mut self.cx.sched, out: &mut self.cx.mac_out };
        self.nodes[listener.index()].mac.on_rx(&mut cx, at, frame, ok);
    }
}

/// `frame`'s reception at `listener` ended at `at` (>= now) in error: its row, if traced, is
/// already written.
#[inline(always)]
fn lose_rx(
    node: &mut Node,
    now: SimTime,
    listener: NodeId,
    frame: &Frame,
    at: SimTime,
    decodable: bool,
) {
    if decodable && (frame.dst == listener || frame.dst == NodeId::BROADCAST) {
        // Strong enough to decode, lost to overlap with another frame (capture mode).
        node.counters.collisions += 1;
    }
    node.mac.note_rx_lost(at);
    debug_assert!(node.mac.access_timer_holds(now), "EIFS moved the access earlier");
}

impl World {
    /// Every frame sent and received passes here: the check is inlined, the work is not.
    #[inline(always)]
    fn trace_frame(&mut self, node: NodeId, time_ns: SimTime, frame: &Frame) {
        self.trace_parts(node, time_ns, frame, u64::MAX);
    }

    /// Trace `frame` at `node`; of an A-MPDU the MPDUs whose bit is set in `parts`.
    #[inline(always)]
    fn trace_parts(&mut self, node: NodeId, time_ns: SimTime, frame: &Frame, parts: u64) {
        if self.cx.pcap.is_some() {
            self.trace_parts_cold(node, time_ns, frame, parts);
        }
    }

    #[cold]
    #[inline(never)]
    fn trace_parts_cold(&mut self, node: NodeId, time_ns: SimTime, frame: &Frame, parts: u64) {
        let Some(t) = self.cx.pcap.as_mut() else { return };
        let shared = (&self.cx.packets, &self.cx.flows[..], &self.cx.hwmp, &self.cx.olsr);
        if frame.mpdus > 1 {
            let tx = &self.nodes[frame.src.index()];
            let mpdus = &mut self.ampdu.traced;
            mpdus.clear();
            mpdus.extend(tx.mac.psdu().iter().map(|&(seq, m)| (seq, m.packet)));
            let a = (&mpdus[..], parts, tx.tx_serial);
            t.ampdu_of(shared, (node, time_ns), frame, a);
        } else {
            t.frame_of(shared, node, time_ns, frame);
        }
    }
}
