//! The test bench of the DCF's scripted timelines: frames are injected at given times, the
//! MAC's own timers run, and its transmissions are recorded with their start times.

use super::*;
use crate::engine::rng::{Purpose, Rng};
use crate::engine::sched::{Scheduler, TimerSink};
use crate::engine::time::SimTime;
use crate::mac::frame::Frame;
use crate::mac::timing::{Rate, Timing};

/// The bench's events: the MAC's own timers, and the end of its transmission.
#[derive(Debug, Clone, Copy)]
pub(super) enum Event {
    Mac(MacTimer, u32),
    TxEnd,
}

impl TimerSink<MacTimer, NodeId> for Scheduler<Event> {
    fn arm(&mut self, at: SimTime, _node: NodeId, timer: MacTimer, generation: u32) {
        self.schedule(at, Event::Mac(timer, generation));
    }
}

pub(super) const ME: NodeId = NodeId(0);
pub(super) const PEER: NodeId = NodeId(1);
pub(super) const OTHER: NodeId = NodeId(2);

pub(super) struct Bench {
    pub(super) dcf: Dcf,
    pub(super) sched: Scheduler<Event>,
    pub(super) out: Vec<Tagged>,
    /// Receptions to inject: (end time at this node, frame, decoded).
    pub(super) inject: Vec<(SimTime, Frame, bool)>,
    pub(super) on_air: Option<Frame>,
    pub(super) sent: Vec<(SimTime, Frame)>,
    pub(super) done: Vec<(SimTime, bool)>,
    pub(super) received: Vec<PacketId>,
    pub(super) overheard: Vec<PacketId>,
    /// Answer our RTS with a CTS (the peer's side of the exchange).
    pub(super) answer_rts: bool,
    pub(super) answer_data: bool,
    pub(super) timing: Timing,
    /// Packets offered so far (the MAC holds them by id only).
    pub(super) packets: u32,
    /// What the receiver reports to the NAV reset: the start of the last frame it took, and
    /// the end of physical carrier sense (frames heard and sent).
    pub(super) last_rx_start: SimTime,
    pub(super) phys_until: SimTime,
    /// Packets waiting per access category: offered as soon as its function is idle (as the
    /// node's queue does), by [`Bench::offer_ac`].
    pub(super) backlog: [u32; 4],
}

impl Bench {
    pub(super) fn new(rts_threshold_bytes: u32) -> Bench {
        Bench::with_profile(rts_threshold_bytes, false)
    }

    /// `ns2`: the ns2 profile's MAC (dcf/ns2.rs).
    pub(super) fn with_profile(rts_threshold_bytes: u32, ns2: bool) -> Bench {
        let timing = Timing::new(Rate(10), Rate(20), 1000);
        let cfg = DcfConfig {
            ns2,
            timing,
            cw_min: 31,
            cw_max: 1023,
            rts_threshold_bytes,
            short_retry_limit: 7,
            long_retry_limit: 4,
            rate_algo: crate::mac::rate::RateAlgo::Constant(Rate(20)),
            agg: None,
            amsdu: None,
            edca: None,
            erp_protection: Default::default(),
            fail_average: Default::default(),
        };
        Bench::with_config(cfg)
    }

    /// A bench around a MAC of `cfg`.
    pub(super) fn with_config(cfg: DcfConfig) -> Bench {
        let timing = cfg.timing;
        Bench {
            dcf: Dcf::new(
                ME,
                cfg,
                Rng::derive(1, Purpose::MacBackoff, 0),
                Rng::derive(1, Purpose::RateControl, 0),
            ),
            sched: Scheduler::with_capacity(16),
            out: Vec::new(),
            inject: Vec::new(),
            on_air: None,
            sent: Vec::new(),
            done: Vec::new(),
            received: Vec::new(),
            overheard: Vec::new(),
            answer_rts: false,
            answer_data: false,
            timing,
            packets: 0,
            last_rx_start: 0,
            phys_until: 0,
            backlog: [0; 4],
        }
    }

    /// A frame to be heard, ending at `end`: refused if it would have started before time 0
    /// (its airtime is longer than `end`), which no channel can deliver.
    pub(super) fn hear(&mut self, (end, frame, decoded): (SimTime, Frame, bool)) {
        assert!(
            end >= frame.airtime_ns,
            "impossible frame: ends at {end} ns after {} ns on the air",
            frame.airtime_ns
        );
        self.inject.push((end, frame, decoded));
    }

    pub(super) fn packet(&mut self) -> PacketId {
        self.packets += 1;
        PacketId::from_index(self.packets - 1)
    }

    pub(super) fn offer(&mut self, now: SimTime, packet: PacketId) {
        self.offer_ac(now, packet, Ac::Be);
    }

    pub(super) fn offer_ac(&mut self, now: SimTime, packet: PacketId, ac: Ac) {
        let mut cx = MacCtx { now, timers: &mut self.sched, out: &mut self.out };
        let report = (self.last_rx_start, self.phys_until);
        self.dcf.offer(&mut cx, (packet, PEER, 1036, ac), || report);
        self.handle_outputs(now);
    }

    /// Offer the backlog's next packets to idle functions.
    fn pump(&mut self, now: SimTime) {
        for ac in Ac::ALL.iter().rev() {
            if self.backlog[ac.index()] > 0 && self.dcf.is_idle(*ac) {
                self.backlog[ac.index()] -= 1;
                let p = self.packet();
                self.offer_ac(now, p, *ac);
            }
        }
    }

    pub(super) fn handle_outputs(&mut self, now: SimTime) {
        for Tagged { output: o, node } in std::mem::take(&mut self.out) {
            assert_eq!(node, ME);
            match o {
                MacOutput::Transmit { frame, .. } => {
                    assert!(self.on_air.is_none(), "two frames at once");
                    self.on_air = Some(frame);
                    self.sent.push((now, frame));
                    self.sched.schedule(now + frame.airtime_ns, Event::TxEnd);
                    self.phys_until = self.phys_until.max(now + frame.airtime_ns);
                }
                MacOutput::Done { acked, .. } => {
                    self.done.push((now, acked));
                    self.pump(now);
                }
                MacOutput::Received { packet, .. } => self.received.push(packet),
                MacOutput::Overheard { packet, .. } => self.overheard.push(packet),
                MacOutput::Note(_) => {}
                MacOutput::Discard { .. } | MacOutput::Fill { .. } => {
                    unreachable!("no aggregation on this bench")
                }
            }
        }
    }

    pub(super) fn run_until(&mut self, end: SimTime) {
        loop {
            self.inject.sort_by_key(|i| i.0);
            let next_inject = self.inject.first().map(|i| i.0);
            let next_event = self.sched.peek_time();
            let take_inject = match (next_inject, next_event) {
                (Some(a), Some(b)) => a < b,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            if take_inject {
                let (at, frame, ok) = self.inject.remove(0);
                if at >= end {
                    self.inject.insert(0, (at, frame, ok));
                    break;
                }
                let now = at.max(self.sched.now());
                self.dcf.on_medium_busy(at - frame.airtime_ns, at); // hear() checked it
                self.phys_until = self.phys_until.max(at);
                let mut cx = MacCtx { now, timers: &mut self.sched, out: &mut self.out };
                self.dcf.on_rx(&mut cx, at, &frame, ok);
                self.handle_outputs(now);
                continue;
            }
            if next_event.unwrap() >= end {
                break;
            }
            let (now, ev) = self.sched.pop().unwrap();
            let mut cx = MacCtx { now, timers: &mut self.sched, out: &mut self.out };
            match ev {
                Event::TxEnd => {
                    let frame = self.on_air.take().unwrap();
                    self.dcf.on_tx_end(&mut cx, &frame);
                    let t = self.timing;
                    let reply_at = now + t.sifs;
                    match frame.kind {
                        FrameKind::Rts if self.answer_rts => {
                            let cts = Frame::control(
                                FrameKind::Cts,
                                PEER,
                                ME,
                                t.cts_nav(frame.nav_ns),
                                &t,
                                frame.rate,
                            );
                            self.hear((reply_at + t.cts_ns, cts, true));
                        }
                        FrameKind::Data if self.answer_data => {
                            let ack = Frame::control(FrameKind::Ack, PEER, ME, 0, &t, frame.rate);
                            self.hear((reply_at + ack.airtime_ns, ack, true));
                        }
                        _ => {}
                    }
                }
                Event::Mac(MacTimer::Access, generation) => {
                    self.dcf.on_access_timer(&mut cx, generation)
                }
                Event::Mac(MacTimer::Timeout, generation) => {
                    self.dcf.on_timeout(&mut cx, generation)
                }
                Event::Mac(MacTimer::Reorder, _) => unreachable!("no aggregation on this bench"),
                Event::Mac(MacTimer::Sifs, generation) => {
                    self.dcf.on_sifs_timer(&mut cx, generation)
                }
                Event::Mac(MacTimer::NavReset, generation) => self.dcf.on_nav_reset(
                    &mut cx,
                    generation,
                    (self.last_rx_start, self.phys_until),
                ),
            }
            self.handle_outputs(now);
        }
    }

    pub(super) fn sent_kinds(&self) -> Vec<FrameKind> {
        self.sent.iter().map(|(_, f)| f.kind).collect()
    }
}
