//! Seeded random streams. One master seed; each (purpose, index) pair gets an independent
//! xoshiro256++ stream whose state is derived with SplitMix64, so that draws of one node or
//! component never depend on how many draws others made (common random numbers).

/// What a stream is used for; part of the stream's identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Purpose {
    Topology = 1,
    MacBackoff = 2,
    Traffic = 3,
    FrameError = 4,
    Mobility = 5,
    Routing = 6,
    Shadowing = 7,
    Fading = 8,
    RateControl = 9,
    Probe = 10,
    /// RED's random early drops.
    Queue = 11,
    /// Transport protocols' own draws (BBR's PROBE_BW phase), per flow.
    Transport = 12,
    /// ns-2 DSR's send-buffer check phase, per node.
    DsrBufferCheck = 13,
    /// Gauss-Markov shadowing, per link (phy/dynamics).
    LinkShadowing = 14,
    /// Gilbert-Elliott loss states, per link (phy/dynamics).
    LinkLoss = 15,
    /// Outside interferers' on and off periods, per interferer (phy/interferer.rs).
    Interference = 16,
}

/// SplitMix64 step (Steele, Lea, Flood 2014): used only to expand seeds.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xoshiro256++ (Blackman & Vigna 2019).
#[derive(Debug, Clone)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// The stream for `purpose` and `index` (e.g. node id) under `master_seed`.
    pub fn derive(master_seed: u64, purpose: Purpose, index: u64) -> Rng {
        let mut sm = master_seed;
        let a = splitmix64(&mut sm);
        let mut sm = a ^ (purpose as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
        let b = splitmix64(&mut sm);
        let mut sm = b ^ index.wrapping_mul(0x8CB9_2BA7_2F3D_8DD7);
        let mut s = [0u64; 4];
        for word in &mut s {
            *word = splitmix64(&mut sm);
        }
        if s == [0; 4] {
            s[0] = 1;
        }
        Rng { s }
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[0].wrapping_add(self.s[3]).rotate_left(23).wrapping_add(self.s[0]);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1) with 53 bits of precision.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A standard normal draw (Box-Muller; two uniforms per draw, nothing cached, so the
    /// stream stays in step whatever the caller does with the result).
    pub fn standard_normal(&mut self) -> f64 {
        let u1 = 1.0 - self.uniform(); // (0, 1]: log is finite
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    /// Two independent standard normal draws (Marsaglia's polar method, 1964: a point drawn
    /// uniformly in the unit disc, scaled; no trigonometry, 1.27 pairs of uniforms on average).
    pub fn standard_normal_pair(&mut self) -> (f64, f64) {
        loop {
            let u = 2.0 * self.uniform() - 1.0;
            let v = 2.0 * self.uniform() - 1.0;
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                let m = (-2.0 * s.ln() / s).sqrt();
                return (u * m, v * m);
            }
        }
    }

    /// Exponential with mean 1 (the power gain of Rayleigh fading).
    pub fn exponential(&mut self) -> f64 {
        -(1.0 - self.uniform()).ln()
    }

    /// Uniform integer in [0, bound] (inclusive), unbiased (Lemire's method with rejection).
    pub fn up_to(&mut self, bound: u32) -> u32 {
        let range = bound as u64 + 1;
        loop {
            let x = self.next_u64() >> 32;
            let m = x * range;
            let low = m & 0xFFFF_FFFF;
            if low >= (1u64 << 32) % range {
                return (m >> 32) as u32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let mut a = Rng::derive(7, Purpose::MacBackoff, 3);
        let mut b = Rng::derive(7, Purpose::MacBackoff, 3);
        let mut c = Rng::derive(7, Purpose::MacBackoff, 4);
        let mut d = Rng::derive(8, Purpose::MacBackoff, 3);
        let va: Vec<u64> = (0..4).map(|_| a.next_u64()).collect();
        let vb: Vec<u64> = (0..4).map(|_| b.next_u64()).collect();
        let vc: Vec<u64> = (0..4).map(|_| c.next_u64()).collect();
        let vd: Vec<u64> = (0..4).map(|_| d.next_u64()).collect();
        assert_eq!(va, vb);
        assert_ne!(va, vc);
        assert_ne!(va, vd);
    }

    #[test]
    fn up_to_is_uniform_and_inclusive() {
        let mut r = Rng::derive(1, Purpose::MacBackoff, 0);
        let mut counts = [0u32; 32];
        let n = 320_000;
        for _ in 0..n {
            counts[r.up_to(31) as usize] += 1;
        }
        // Each bin expects 10_000; 5 sigma is 500.
        for c in counts {
            assert!((c as i64 - 10_000).abs() < 500, "{counts:?}");
        }
    }

    #[test]
    fn uniform_in_unit_interval_with_right_mean() {
        let mut r = Rng::derive(2, Purpose::Topology, 0);
        let n = 100_000;
        let mut sum = 0.0;
        for _ in 0..n {
            let u = r.uniform();
            assert!((0.0..1.0).contains(&u));
            sum += u;
        }
        assert!((sum / n as f64 - 0.5).abs() < 0.005);
    }
}
