//! BBR's windowed maximum of the bandwidth samples over the last 10 round trips
//! (draft-cardwell-iccrg-bbr-congestion-control-00 section 4.1.1), kept as Kathleen Nichols'
//! windowed min/max estimator does (Linux `lib/win_minmax.c`): the best, second-best and
//! third-best samples of successive sub-windows, so that the maximum is found in O(1) and a
//! sample older than the window is replaced by the best younger one.

#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Sample {
    round: u64,
    value: f64,
}

#[derive(Debug, Clone)]
pub struct WindowedMax {
    /// Window length in rounds.
    window: u64,
    best: [Sample; 3],
}

impl WindowedMax {
    pub fn new(window_rounds: u64) -> WindowedMax {
        WindowedMax { window: window_rounds, best: [Sample::default(); 3] }
    }

    pub fn get(&self) -> f64 {
        self.best[0].value
    }

    /// A sample `value` taken in round `round` (rounds never decrease).
    pub fn update(&mut self, round: u64, value: f64) -> f64 {
        let s = Sample { round, value };
        // A new maximum, or everything has expired: it is all three.
        if value >= self.best[0].value || round - self.best[2].round > self.window {
            self.best = [s; 3];
            return value;
        }
        if value >= self.best[1].value {
            self.best[1] = s;
            self.best[2] = s;
        } else if value >= self.best[2].value {
            self.best[2] = s;
        }
        self.age(s);
        self.best[0].value
    }

    /// Expire the best sample once older than the window (promoting the younger ones), and
    /// refresh the second and third once a quarter and a half of the window have passed
    /// without a better sample, so each covers its own part of the window.
    fn age(&mut self, s: Sample) {
        let dt = s.round - self.best[0].round;
        if dt > self.window {
            self.best = [self.best[1], self.best[2], s];
            if s.round - self.best[0].round > self.window {
                self.best = [self.best[1], self.best[2], s];
            }
        } else if self.best[1].round == self.best[0].round && dt > self.window / 4 {
            self.best[1] = s;
            self.best[2] = s;
        } else if self.best[2].round == self.best[1].round && dt > self.window / 2 {
            self.best[2] = s;
        }
    }
}
