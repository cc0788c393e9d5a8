//! Optional time series: per flow, every interval, the congestion window (TCP) and the
//! goodput over the interval. Long format (one row per flow per sample), stored column-wise.

use super::event::{Event, SimEvent};
use super::World;
use crate::engine::time::{ns_to_secs, SimTime};
use crate::transport::flow::FlowApp;

impl World {
    pub(super) fn sample(&mut self, now: SimTime) {
        let Some(series) = self.series.as_mut() else {
            return;
        };
        // The last sample (at the end of the run) may close a shorter interval.
        let interval_s = ns_to_secs(now - series.last_time_ns().min(now)).max(1e-12);
        for (i, f) in self.cx.flows.iter().enumerate() {
            let (bytes, cwnd) = match &f.app {
                FlowApp::Udp { sink, .. } => (sink.total_payload_bytes, None),
                FlowApp::Tcp(t) => (t.delivered_bytes, Some(t.sender.cwnd())),
            };
            series.time_s.push(ns_to_secs(now));
            series.flow.push(i as u32);
            series.cwnd.push(cwnd);
            series
                .goodput_kbps
                .push((bytes - series.last_bytes[i]) as f64 * 8.0 / interval_s / 1000.0);
            series.delivered_bytes.push(bytes);
            series.last_bytes[i] = bytes;
        }
        let next = now + series.interval_ns;
        if next <= self.cx.cfg.end_ns {
            self.cx.sched.schedule(next, Event::Sim(SimEvent::Sample));
        }
    }
}
