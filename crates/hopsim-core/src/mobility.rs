//! Node mobility: piecewise-linear trajectories, evaluated exactly at the time of each
//! transmission (no coarse position tick). Random waypoint (Johnson & Maltz 1996, as ns-2's
//! setdest generates it), and replay of ns-2 setdest movement files and BonnMotion traces.

use crate::engine::rng::Rng;
use crate::engine::time::{secs_to_ns, SimTime};

mod piece;
pub use piece::Piece;

/// Straight-line motion from `from` (at `t0_ns`) to `to` (at `t1_ns`); a pause has from == to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leg {
    pub t0_ns: SimTime,
    pub t1_ns: SimTime,
    pub from: [f64; 2],
    pub to: [f64; 2],
}

/// Where one node is over time: legs in time order; before the first leg the node is at its
/// start, after the last at the end of it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Trajectory {
    pub start: [f64; 2],
    pub legs: Vec<Leg>,
}

impl Trajectory {
    pub fn fixed(at: [f64; 2]) -> Trajectory {
        Trajectory { start: at, legs: Vec::new() }
    }

    /// Position at `t`. `cursor` remembers the leg of the last lookup, so that lookups at
    /// non-decreasing times cost O(1) amortised.
    #[inline]
    pub fn position(&self, t: SimTime, cursor: &mut usize) -> [f64; 2] {
        // The common case: still inside the leg of the last lookup, and not its last instant.
        if let Some(leg) = self.legs.get(*cursor) {
            if leg.t0_ns <= t && t < leg.t1_ns {
                let next_starts = self.legs.get(*cursor + 1).map_or(SimTime::MAX, |l| l.t0_ns);
                if t < next_starts {
                    return leg.at(t);
                }
            }
        }
        self.position_slow(t, cursor)
    }

    fn position_slow(&self, t: SimTime, cursor: &mut usize) -> [f64; 2] {
        self.seek(t, cursor);
        let Some(leg) = self.legs.get(*cursor) else { return self.start };
        if t < leg.t0_ns {
            return if *cursor == 0 { self.start } else { self.legs[*cursor - 1].to };
        }
        if t >= leg.t1_ns {
            return leg.to;
        }
        leg.at(t)
    }

    /// Moves `cursor` to the last leg that starts at or before `t` (0 if none does).
    fn seek(&self, t: SimTime, cursor: &mut usize) {
        if *cursor >= self.legs.len() || self.legs[*cursor].t0_ns > t {
            *cursor = 0;
        }
        while *cursor + 1 < self.legs.len() && self.legs[*cursor + 1].t0_ns <= t {
            *cursor += 1;
        }
    }
}

impl Leg {
    /// Position at `t` inside the leg (t0_ns <= t < t1_ns).
    #[inline]
    fn at(&self, t: SimTime) -> [f64; 2] {
        let f = (t - self.t0_ns) as f64 / (self.t1_ns - self.t0_ns) as f64;
        [
            self.from[0] + f * (self.to[0] - self.from[0]),
            self.from[1] + f * (self.to[1] - self.from[1]),
        ]
    }
}

/// Random waypoint: from `start`, pick a destination uniformly in the area and a speed
/// uniformly in [speed_min, speed_max], move there in a straight line, pause, repeat, until
/// `until_ns`. Speeds below 1 mm/s are redrawn (a node must not stand still for ever; cf.
/// Yoon, Liu, Noble, "Random waypoint considered harmful", INFOCOM 2003); validation keeps
/// `speed_max` at 1 cm/s or more, so a draw succeeds with probability 0.9 or more. None when
/// the trajectory would need more than `max_legs` legs (the memory budget).
pub fn random_waypoint(
    start: [f64; 2],
    area_m: [f64; 2],
    speed_mps: (f64, f64),
    pause_s: f64,
    until_ns: SimTime,
    rng: &mut Rng,
    max_legs: usize,
) -> Option<Trajectory> {
    assert!(speed_mps.1 >= MIN_SPEED_MPS * 10.0, "speed_max below the validated range");
    let mut legs = Vec::new();
    let (mut t, mut at) = (0u64, start);
    while t < until_ns {
        if legs.len() >= max_legs {
            return None;
        }
        let to = [rng.uniform() * area_m[0], rng.uniform() * area_m[1]];
        let mut speed = 0.0;
        while speed < MIN_SPEED_MPS {
            speed = speed_mps.0 + rng.uniform() * (speed_mps.1 - speed_mps.0);
        }
        let dist = (to[0] - at[0]).hypot(to[1] - at[1]);
        let t1 = t + secs_to_ns(dist / speed).max(1);
        legs.push(Leg { t0_ns: t, t1_ns: t1, from: at, to });
        t = t1 + secs_to_ns(pause_s);
        at = to;
    }
    Some(Trajectory { start, legs })
}

/// Random waypoint speeds below this are redrawn.
const MIN_SPEED_MPS: f64 = 1e-3;

/// Parse an ns-2 movement file as setdest writes it:
/// `$node_(i) set X_ x` / `set Y_ y` (start), and `$ns_ at t "$node_(i) setdest x y speed"`.
/// Other lines (Z_, god_ lines, comments) are ignored. Returns one trajectory per node.
pub fn parse_setdest(text: &str, nodes: usize) -> Result<Vec<Trajectory>, String> {
    let mut start = vec![[0.0; 2]; nodes];
    let mut moves: Vec<Vec<(f64, [f64; 2], f64)>> = vec![Vec::new(); nodes];
    for (no, line) in text.lines().enumerate() {
        let line = line.trim();
        let err = |what: &str| format!("line {}: {what}: {line}", no + 1);
        let node_of = |s: &str| -> Result<usize, String> {
            let i = s.find("node_(").ok_or_else(|| err("no $node_(i)"))?;
            let rest = &s[i + 6..];
            let end = rest.find(')').ok_or_else(|| err("unclosed $node_("))?;
            let n: usize = rest[..end].parse().map_err(|_| err("bad node number"))?;
            if n >= nodes {
                return Err(err(&format!("node {n} does not exist ({nodes} nodes)")));
            }
            Ok(n)
        };
        let num = |s: &str| s.trim_matches('"').parse::<f64>().map_err(|_| err("bad number"));
        if line.starts_with("$node_(") && line.contains(" set ") {
            let n = node_of(line)?;
            let parts: Vec<&str> = line.split_whitespace().collect();
            match (parts.get(2), parts.get(3)) {
                (Some(&"X_"), Some(v)) => start[n][0] = num(v)?,
                (Some(&"Y_"), Some(v)) => start[n][1] = num(v)?,
                _ => {}
            }
        } else if line.starts_with("$ns_ at") && line.contains("setdest") {
            let parts: Vec<&str> = line.split_whitespace().collect();
            let t = num(parts.get(2).ok_or_else(|| err("no time"))?)?;
            let n = node_of(line)?;
            let i = parts.iter().position(|p| *p == "setdest").ok_or_else(|| err("no setdest"))?;
            let x = num(parts.get(i + 1).ok_or_else(|| err("no x"))?)?;
            let y = num(parts.get(i + 2).ok_or_else(|| err("no y"))?)?;
            let v = num(parts.get(i + 3).ok_or_else(|| err("no speed"))?)?;
            moves[n].push((t, [x, y], v));
        }
    }
    Ok(start
        .into_iter()
        .zip(moves)
        .map(|(s, mut m)| {
            m.sort_by(|a, b| a.0.total_cmp(&b.0));
            setdest_legs(s, &m)
        })
        .collect())
}

/// ns-2 semantics: a setdest command starts a straight move from wherever the node is at that
/// time, at the given speed; a later command interrupts it.
fn setdest_legs(start: [f64; 2], moves: &[(f64, [f64; 2], f64)]) -> Trajectory {
    let mut tr = Trajectory::fixed(start);
    let mut cursor = 0;
    for &(t, to, speed) in moves {
        let t0 = secs_to_ns(t);
        let from = tr.position(t0, &mut cursor);
        if let Some(last) = tr.legs.last_mut() {
            if last.t1_ns > t0 {
                // Interrupted: end the previous leg where the node is now.
                last.t1_ns = t0;
                last.to = from;
            }
        }
        let dist = (to[0] - from[0]).hypot(to[1] - from[1]);
        if speed > 0.0 && dist > 0.0 {
            tr.legs.push(Leg { t0_ns: t0, t1_ns: t0 + secs_to_ns(dist / speed).max(1), from, to });
        }
    }
    tr
}

/// Parse a BonnMotion `.movements` file: one line per node, `t x y t x y ...` waypoints,
/// moving linearly between consecutive ones.
pub fn parse_bonnmotion(text: &str) -> Result<Vec<Trajectory>, String> {
    let mut out = Vec::new();
    for (no, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: Result<Vec<f64>, _> = line.split_whitespace().map(str::parse::<f64>).collect();
        let v = v.map_err(|_| format!("line {}: not a list of numbers", no + 1))?;
        if v.len() < 3 || v.len() % 3 != 0 {
            return Err(format!(
                "line {}: expected triples t x y, got {} numbers",
                no + 1,
                v.len()
            ));
        }
        let points: Vec<(f64, [f64; 2])> = v.chunks(3).map(|c| (c[0], [c[1], c[2]])).collect();
        let mut tr = Trajectory::fixed(points[0].1);
        for w in points.windows(2) {
            if w[1].0 < w[0].0 {
                return Err(format!("line {}: times go backwards at {}", no + 1, w[1].0));
            }
            tr.legs.push(Leg {
                t0_ns: secs_to_ns(w[0].0),
                t1_ns: secs_to_ns(w[1].0),
                from: w[0].1,
                to: w[1].1,
            });
        }
        out.push(tr);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::Purpose;

    const S: u64 = 1_000_000_000;

    #[test]
    fn linear_motion_is_exact_between_waypoints() {
        let tr = Trajectory {
            start: [0.0, 0.0],
            legs: vec![
                Leg { t0_ns: S, t1_ns: 3 * S, from: [0.0, 0.0], to: [20.0, 0.0] },
                Leg { t0_ns: 5 * S, t1_ns: 6 * S, from: [20.0, 0.0], to: [20.0, 10.0] },
            ],
        };
        let mut c = 0;
        assert_eq!(tr.position(0, &mut c), [0.0, 0.0]);
        assert_eq!(tr.position(2 * S, &mut c), [10.0, 0.0]);
        assert_eq!(tr.position(4 * S, &mut c), [20.0, 0.0], "pausing");
        assert_eq!(tr.position(5 * S + S / 2, &mut c), [20.0, 5.0]);
        assert_eq!(tr.position(9 * S, &mut c), [20.0, 10.0]);
        assert_eq!(tr.position(2 * S, &mut c), [10.0, 0.0], "earlier times still work");
    }

    #[test]
    fn random_waypoint_stays_in_the_area_at_bounded_speed() {
        let mut rng = Rng::derive(1, Purpose::Topology, 9);
        let rw = |rng: &mut Rng, max_legs| {
            random_waypoint([10.0, 10.0], [1500.0, 300.0], (1.0, 5.0), 2.0, 1000 * S, rng, max_legs)
        };
        let tr = rw(&mut rng.clone(), usize::MAX).expect("no leg limit");
        assert!(tr.legs.len() > 2);
        assert_eq!(rw(&mut rng.clone(), tr.legs.len()), Some(tr.clone()), "exactly enough");
        assert_eq!(rw(&mut rng, tr.legs.len() - 1), None, "one leg short of the budget");
        for (a, b) in tr.legs.iter().zip(tr.legs.iter().skip(1)) {
            assert_eq!(a.to, b.from, "continuous");
            assert_eq!(b.t0_ns - a.t1_ns, 2 * S, "pause between legs");
        }
        for l in &tr.legs {
            let d = (l.to[0] - l.from[0]).hypot(l.to[1] - l.from[1]);
            let v = d / ((l.t1_ns - l.t0_ns) as f64 / 1e9);
            assert!((1.0 - 1e-6..=5.0 + 1e-6).contains(&v), "speed {v}");
            assert!((0.0..1500.0).contains(&l.to[0]) && (0.0..300.0).contains(&l.to[1]));
        }
    }

    #[test]
    fn setdest_file_is_replayed_with_interruptions() {
        let text = "$node_(0) set X_ 0.0\n$node_(0) set Y_ 0.0\n$node_(0) set Z_ 0.0\n\
                    $node_(1) set X_ 100.0\n$node_(1) set Y_ 50.0\n\
                    $ns_ at 1.0 \"$node_(0) setdest 100.0 0.0 10.0\"\n\
                    $ns_ at 6.0 \"$node_(0) setdest 50.0 0.0 5.0\"\n\
                    $god_ set-dist 0 1 2\n";
        let tr = parse_setdest(text, 2).unwrap();
        let mut c = 0;
        assert_eq!(tr[0].position(4 * S, &mut c), [30.0, 0.0]);
        // At 6 s the node is at 50 m, turned back: it stays there (already at the target).
        assert_eq!(tr[0].position(8 * S, &mut c), [50.0, 0.0]);
        assert_eq!(tr[1].position(3 * S, &mut 0), [100.0, 50.0]);
        assert!(parse_setdest("$ns_ at 1.0 \"$node_(5) setdest 1 1 1\"", 2)
            .unwrap_err()
            .contains("node 5"));
    }

    #[test]
    fn bonnmotion_waypoints() {
        let tr = parse_bonnmotion("0 0 0 10 100 0\n0 5 5\n").unwrap();
        assert_eq!(tr.len(), 2);
        assert_eq!(tr[0].position(5 * S, &mut 0), [50.0, 0.0]);
        assert_eq!(tr[1].position(5 * S, &mut 0), [5.0, 5.0]);
        assert!(parse_bonnmotion("0 1\n").is_err());
    }
}
