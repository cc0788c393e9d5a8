//! A stretch of a trajectory over which the position is one formula, cached per node so that
//! the listener scan of a moving network costs a subtraction and a compare per node before the
//! interpolation, instead of a walk through the legs.
//!
//! Bit-identical to `Trajectory::position`: inside a leg the same IEEE operations on the same
//! operands (`to - from` and `t1 - t0` are only worked out ahead of time); at rest the position
//! comes back unchanged (`x + f * -0.0 == x` bit for bit, for every x and finite f >= 0).

use super::{Leg, Trajectory};
use crate::engine::time::SimTime;

/// Position `from + f * delta` with `f = (t - start_ns) / span_ns`, for
/// `start_ns <= t < start_ns + len_ns`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Piece {
    start_ns: SimTime,
    /// At most `i64::MAX`, so that `t - start_ns` converts to f64 as a signed integer.
    len_ns: u64,
    span_ns: f64,
    from: [f64; 2],
    delta: [f64; 2],
}

/// `f * REST == -0.0` for finite f >= 0, and `x + -0.0 == x` for every x (also -0.0).
const REST: [f64; 2] = [-0.0, -0.0];

impl Piece {
    /// A piece that holds no time at all (to be replaced at the first lookup).
    pub const EMPTY: Piece =
        Piece { start_ns: 0, len_ns: 0, span_ns: 1.0, from: [0.0; 2], delta: REST };

    /// Position at `t`, if `t` falls inside this piece.
    #[inline(always)]
    pub fn position(&self, t: SimTime) -> Option<[f64; 2]> {
        let since_ns = t.wrapping_sub(self.start_ns);
        if since_ns >= self.len_ns {
            return None;
        }
        // since_ns < 2^63: the signed conversion gives the same f64 as the unsigned one.
        let f = since_ns as i64 as f64 / self.span_ns;
        Some([self.from[0] + f * self.delta[0], self.from[1] + f * self.delta[1]])
    }

    /// At rest at `at` over [from_ns, until_ns) (as far as `len_ns` reaches).
    fn rest(at: [f64; 2], from_ns: SimTime, until_ns: SimTime) -> Piece {
        Piece {
            start_ns: from_ns,
            len_ns: capped(until_ns - from_ns),
            span_ns: 1.0,
            from: at,
            delta: REST,
        }
    }

    /// Moving along `leg` over [leg.t0_ns, until_ns), until_ns <= leg.t1_ns.
    fn moving(leg: &Leg, until_ns: SimTime) -> Piece {
        let delta = [leg.to[0] - leg.from[0], leg.to[1] - leg.from[1]];
        let span_ns = (leg.t1_ns - leg.t0_ns) as f64;
        let len_ns = capped(until_ns - leg.t0_ns);
        Piece { start_ns: leg.t0_ns, len_ns, span_ns, from: leg.from, delta }
    }
}

fn capped(len_ns: u64) -> u64 {
    len_ns.min(i64::MAX as u64)
}

impl Trajectory {
    /// The piece that holds `t`, with the leg `position` takes (`cursor` as there). It holds
    /// `t` unless `t` lies 2^63 ns (292 years) or more after the start of its stretch.
    pub fn piece(&self, t: SimTime, cursor: &mut usize) -> Piece {
        self.seek(t, cursor);
        let Some(leg) = self.legs.get(*cursor) else {
            return Piece::rest(self.start, 0, SimTime::MAX);
        };
        if t < leg.t0_ns {
            return Piece::rest(self.start, 0, leg.t0_ns); // only before the first leg
        }
        let next_ns = self.legs.get(*cursor + 1).map_or(SimTime::MAX, |l| l.t0_ns);
        if t >= leg.t1_ns {
            return Piece::rest(leg.to, leg.t1_ns.max(leg.t0_ns), next_ns);
        }
        Piece::moving(leg, leg.t1_ns.min(next_ns))
    }

    /// Position at `t` when `piece` does not hold it: `piece` becomes the one that does.
    #[cold]
    #[inline(never)]
    pub fn renew(&self, piece: &mut Piece, cursor: &mut usize, t: SimTime) -> [f64; 2] {
        *piece = self.piece(t, cursor);
        piece.position(t).unwrap_or_else(|| self.position(t, cursor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::{Purpose, Rng};
    use crate::mobility::random_waypoint;

    const S: u64 = 1_000_000_000;

    /// Coordinates with signed zeros and repeated points among them.
    fn coordinate(rng: &mut Rng) -> f64 {
        match rng.up_to(8) {
            0 => -0.0,
            1 => 0.0,
            _ => (rng.uniform() - 0.2) * 1500.0,
        }
    }

    /// Legs with random starts (in order), lengths (some zero, some overlapping the next
    /// leg's start), pauses (some none) and ends (some where they started).
    fn random_trajectory(rng: &mut Rng) -> Trajectory {
        let start = [coordinate(rng), coordinate(rng)];
        let (mut t0, mut at) = (rng.up_to(3) as u64 * (rng.next_u64() % (5 * S)), start);
        let mut legs = Vec::new();
        for _ in 0..rng.up_to(8) {
            let t1 = t0
                + match rng.up_to(5) {
                    0 => 0,
                    1 => 1,
                    _ => rng.next_u64() % (30 * S),
                };
            let to = if rng.up_to(6) == 0 { at } else { [coordinate(rng), coordinate(rng)] };
            legs.push(Leg { t0_ns: t0, t1_ns: t1, from: at, to });
            at = to;
            t0 = match rng.up_to(4) {
                0 => t1,
                1 => t0 + (t1 - t0) / 2, // the next leg interrupts this one
                _ => t1 + rng.next_u64() % (10 * S),
            };
        }
        Trajectory { start, legs }
    }

    /// Each leg's starts and ends with their neighbours, times far out, and random times.
    fn times(tr: &Trajectory, rng: &mut Rng) -> Vec<SimTime> {
        let mut ts = vec![0, 1, i64::MAX as u64, i64::MAX as u64 + 1, u64::MAX - 1, u64::MAX];
        for l in &tr.legs {
            for t in [l.t0_ns, l.t1_ns] {
                ts.extend([t.saturating_sub(1), t, t + 1]);
            }
        }
        let end_ns = tr.legs.last().map_or(S, |l| l.t1_ns.max(l.t0_ns)) + S;
        ts.extend((0..200).map(|_| rng.next_u64() % end_ns));
        ts
    }

    /// A node's position through its cached piece, as the listener scan looks it up.
    fn cached(tr: &Trajectory, piece: &mut Piece, cursor: &mut usize, t: SimTime) -> [f64; 2] {
        match piece.position(t) {
            Some(p) => p,
            None => tr.renew(piece, cursor, t),
        }
    }

    fn bits(p: [f64; 2]) -> [u64; 2] {
        p.map(f64::to_bits)
    }

    /// The cached path against the reference `Trajectory::position` (fresh cursor), bit for
    /// bit, with times in order (the run), in random order (cursor and piece jump back),
    /// and repeated.
    #[test]
    fn cached_pieces_give_the_reference_positions_bit_for_bit() {
        let mut rng = Rng::derive(17, Purpose::Mobility, 0);
        let mut trajectories: Vec<Trajectory> =
            (0..400).map(|_| random_trajectory(&mut rng)).collect();
        trajectories.push(Trajectory::fixed([-0.0, 3.0]));
        let area = [1500.0, 300.0];
        let rw = random_waypoint([-0.0, 10.0], area, (0.5, 5.0), 0.0, 100 * S, &mut rng, 1000);
        trajectories.push(rw.expect("within the leg budget"));
        let (mut moving, mut resting) = (0, 0);
        for tr in &trajectories {
            let mut ts = times(tr, &mut rng);
            let shuffled = ts.clone();
            ts.sort_unstable();
            ts.extend(shuffled);
            let (mut piece, mut cursor) = (Piece::EMPTY, 0);
            for &t in &ts {
                let want = tr.position(t, &mut 0);
                let got = cached(tr, &mut piece, &mut cursor, t);
                assert_eq!(bits(got), bits(want), "t = {t} on {tr:?}");
                assert_eq!(bits(cached(tr, &mut piece, &mut cursor, t)), bits(want), "again");
                if piece.delta == REST {
                    resting += 1;
                } else {
                    moving += 1;
                }
            }
        }
        assert!(moving > 10_000 && resting > 10_000, "both kinds: {moving} {resting}");
    }

    #[test]
    fn a_piece_lasts_until_the_next_change() {
        let leg = |t0, t1, from, to| Leg { t0_ns: t0, t1_ns: t1, from, to };
        let tr = Trajectory {
            start: [1.0, 1.0],
            legs: vec![
                leg(S, 3 * S, [1.0, 1.0], [5.0, 1.0]),
                leg(4 * S, 5 * S, [5.0, 1.0], [5.0, 2.0]),
            ],
        };
        let holds = |t: SimTime| tr.piece(t, &mut 0).position(t).is_some();
        let span = |t: SimTime| {
            let p = tr.piece(t, &mut 0);
            (p.start_ns, p.start_ns + p.len_ns)
        };
        assert_eq!(span(0), (0, S), "at the start until the first leg");
        assert_eq!(span(2 * S), (S, 3 * S), "moving");
        assert_eq!(span(3 * S), (3 * S, 4 * S), "pausing");
        assert_eq!(span(9 * S), (5 * S, 5 * S + i64::MAX as u64), "at the end");
        assert!(holds(0) && holds(3 * S - 1) && holds(u64::MAX / 2));
        assert!(!holds(u64::MAX), "beyond 2^63 ns of rest: the caller falls back");
        let mut empty = Piece::EMPTY;
        assert_eq!(tr.renew(&mut empty, &mut 0, u64::MAX), [5.0, 2.0]);
    }
}
