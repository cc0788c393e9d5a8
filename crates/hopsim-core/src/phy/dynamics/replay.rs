//! Trace-driven links (`[radio.link_trace]`): each directed link of a measured trace replays
//! its probes' fates. A frame the PHY received whole on a link the trace lists is lost when
//! the link's last probe at or before that instant was lost (sample and hold, as trace-based
//! emulation replays a measured channel: Noble et al., SIGCOMM 1997); each link's series
//! repeats with the period of its span plus one mean probe spacing, so a trace of any
//! length drives a run of any length. Links the trace does not list lose every frame
//! (`unlisted = "lost"`: a measured pair that never heard a probe) or are left to the PHY
//! (`"model"`). The file format is hopsim's link-trace format (docs/interfaces.md "Link
//! traces"; `hopsim fit-links` converts MIT Roofnet's probes into it).

use crate::ids::NodeId;
use serde::{Deserialize, Serialize};

/// What becomes of a frame on a link the trace does not list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unlisted {
    /// Lost: the trace is the whole network, and that pair never heard a probe.
    #[default]
    Lost,
    /// Left to the PHY's own model.
    Model,
}

/// `[radio.link_trace]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkTrace {
    /// The trace file (a relative path is taken from the scenario file's folder).
    pub file: String,
    /// The instant of each link's series replayed at time 0, seconds.
    #[serde(default)]
    pub offset_s: f64,
    #[serde(default)]
    pub unlisted: Unlisted,
}

/// One directed link's probes: times from its first probe (ns), fates, repeat period (ns).
#[derive(Debug, Clone)]
struct Series {
    times_ns: Vec<u64>,
    delivered: Vec<bool>,
    period_ns: u64,
}

impl Series {
    /// Was the last probe at or before `t_ns` (in the repeating series) delivered?
    fn delivered_at(&self, t_ns: u64) -> bool {
        let t = t_ns % self.period_ns;
        let k = self.times_ns.partition_point(|&p| p <= t);
        self.delivered[k.max(1) - 1] // times_ns[0] = 0 <= t: k >= 1
    }
}

/// Every listed link's series, found by transmitter then receiver (sorted rows).
#[derive(Debug, Clone)]
pub struct Replay {
    by_tx: Vec<Vec<(u32, Series)>>,
    offset_ns: u64,
    unlisted: Unlisted,
    probes: usize,
}

/// The most probes a trace may hold (16 bytes each in memory).
pub const MAX_PROBES: usize = 50_000_000;

impl Replay {
    /// Read a trace's text for `nodes` nodes. Errors name the line and column and say what
    /// is allowed.
    pub fn parse(text: &str, nodes: usize, cfg: &LinkTrace) -> Result<Replay, String> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with('#')
        });
        let (_, header) = lines.next().ok_or("it has no header line (src,dst,time_s,delivered)")?;
        let cols: Vec<&str> = header.split(',').map(str::trim).collect();
        if cols.len() < 4 || cols[..4] != ["src", "dst", "time_s", "delivered"] {
            return Err(format!(
                "its header is {header:?}; it must begin src,dst,time_s,delivered (an snr_db \
                 column may follow)"
            ));
        }
        let mut raw: Vec<(u32, u32, u64, bool)> = Vec::new();
        for (i, line) in lines {
            if raw.len() >= MAX_PROBES {
                return Err(format!("it has more than {MAX_PROBES} probes"));
            }
            raw.push(row(line, nodes).map_err(|e| format!("line {}: {e}", i + 1))?);
        }
        if raw.is_empty() {
            return Err("it has no probes".into());
        }
        // Stable: a link's probes keep their order (checked non-decreasing below).
        raw.sort_by_key(|r| (r.0, r.1));
        let mut by_tx: Vec<Vec<(u32, Series)>> = (0..nodes).map(|_| Vec::new()).collect();
        let probes = raw.len();
        for link in raw.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
            let (src, dst, t0, _) = link[0];
            if let Some(w) = link.windows(2).find(|w| w[1].2 < w[0].2) {
                return Err(format!(
                    "the probes of link {src} -> {dst} go back in time (at {} s)",
                    w[1].2 as f64 * 1e-9
                ));
            }
            let times_ns: Vec<u64> = link.iter().map(|r| r.2 - t0).collect();
            let span = *times_ns.last().expect("a link has a probe");
            // Repeats after its span and one mean spacing (a lone probe: held for ever).
            let spacing = if link.len() > 1 { span / (link.len() as u64 - 1) } else { u64::MAX };
            let period_ns = span.saturating_add(spacing.max(1));
            let delivered = link.iter().map(|r| r.3).collect();
            by_tx[src as usize].push((dst, Series { times_ns, delivered, period_ns }));
        }
        let offset_ns = (cfg.offset_s * 1e9).round() as u64;
        Ok(Replay { by_tx, offset_ns, unlisted: cfg.unlisted, probes })
    }

    /// Probes read.
    pub fn probes(&self) -> usize {
        self.probes
    }

    /// Is a frame that tx -> rx would have delivered at `at_ns` lost to the trace?
    pub fn lost(&self, tx: NodeId, rx: NodeId, at_ns: u64) -> bool {
        let row = &self.by_tx[tx.index()];
        match row.binary_search_by_key(&rx.0, |e| e.0) {
            Ok(k) => !row[k].1.delivered_at(at_ns.saturating_add(self.offset_ns)),
            Err(_) => self.unlisted == Unlisted::Lost,
        }
    }
}

/// One probe row: src, dst, time (ns), delivered.
fn row(line: &str, nodes: usize) -> Result<(u32, u32, u64, bool), String> {
    let f: Vec<&str> = line.split(',').map(str::trim).collect();
    if f.len() < 4 {
        return Err(format!(
            "{line:?} has {} columns; src,dst,time_s,delivered are needed",
            f.len()
        ));
    }
    let node = |col: &str, v: &str| -> Result<u32, String> {
        match v.parse::<u32>() {
            Ok(n) if (n as usize) < nodes => Ok(n),
            _ => Err(format!("{col} = {v:?}: must be a node of the scenario, 0 to {}", nodes - 1)),
        }
    };
    let (src, dst) = (node("src", f[0])?, node("dst", f[1])?);
    if src == dst {
        return Err(format!("src = dst = {src}: a link joins two nodes"));
    }
    let time_s: f64 = f[2].parse().map_err(|_| format!("time_s = {:?}: not a number", f[2]))?;
    if !(0.0..=1e7).contains(&time_s) {
        return Err(format!("time_s = {}: must be at least 0 and at most 1e7 seconds", f[2]));
    }
    let delivered = match f[3] {
        "1" => true,
        "0" => false,
        v => return Err(format!("delivered = {v:?}: must be 1 or 0")),
    };
    Ok((src, dst, (time_s * 1e9).round() as u64, delivered))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(offset_s: f64, unlisted: Unlisted) -> LinkTrace {
        LinkTrace { file: "t.csv".into(), offset_s, unlisted }
    }

    const TRACE: &str = "# a comment\nsrc,dst,time_s,delivered,snr_db\n\
        0,1,10.0,1,20\n0,1,10.1,0,\n0,1,10.2,0,\n0,1,10.3,1,18\n1,0,0.5,0,\n";

    #[test]
    fn frames_take_the_last_probes_fate_and_the_series_repeats() {
        let r = Replay::parse(TRACE, 3, &cfg(0.0, Unlisted::Lost)).unwrap();
        assert_eq!(r.probes(), 5);
        let ms = |x: u64| x * 1_000_000;
        // 0 -> 1 from its first probe: kept 0-99 ms, lost 100-299 ms, kept 300-399 ms, then
        // again (period = 300 ms span + 100 ms spacing).
        let fates: Vec<bool> = [0, 99, 100, 250, 299, 300, 399, 400, 500, 799]
            .map(|t| r.lost(NodeId(0), NodeId(1), ms(t)))
            .to_vec();
        assert_eq!(fates, [false, false, true, true, true, false, false, false, true, false]);
        // A lone probe is held for ever; a link not listed is lost.
        assert!(r.lost(NodeId(1), NodeId(0), ms(123_456)));
        assert!(r.lost(NodeId(0), NodeId(2), 0));
        let model = Replay::parse(TRACE, 3, &cfg(0.15, Unlisted::Model)).unwrap();
        assert!(!model.lost(NodeId(0), NodeId(2), 0));
        assert!(model.lost(NodeId(0), NodeId(1), 0), "offset 150 ms: the second probe's fate");
    }

    #[test]
    fn bad_traces_say_where_and_what_is_allowed() {
        let c = cfg(0.0, Unlisted::Lost);
        for (text, says) in [
            ("", "no header"),
            ("a,b,c,d\n0,1,0,1", "must begin src,dst,time_s,delivered"),
            ("src,dst,time_s,delivered\n", "no probes"),
            ("src,dst,time_s,delivered\n0,5,0.0,1", "line 2: dst = \"5\": must be a node"),
            ("src,dst,time_s,delivered\n0,0,0.0,1", "line 2: src = dst"),
            ("src,dst,time_s,delivered\n0,1,x,1", "time_s = \"x\""),
            ("src,dst,time_s,delivered\n0,1,-1,1", "at least 0"),
            ("src,dst,time_s,delivered\n0,1,inf,1", "at most 1e7"),
            ("src,dst,time_s,delivered\n0,1,0.0,yes", "delivered = \"yes\": must be 1 or 0"),
            ("src,dst,time_s,delivered\n0,1,0.0", "3 columns"),
            ("src,dst,time_s,delivered\n0,1,2.0,1\n0,1,1.0,1", "go back in time"),
        ] {
            let e = Replay::parse(text, 3, &c).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
