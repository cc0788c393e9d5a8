//! Link quality that changes over time, per link and direction: Gauss-Markov shadowing (a
//! gain in dB, so it moves both the power a listener decodes and the interference it adds)
//! and Gilbert-Elliott losses (bursts of frames lost that the PHY would have received).
//! Each link has its own random stream, derived from the seed and the pair of nodes, and
//! its process is advanced only when a frame crosses it: a run's outcome does not depend on
//! which other links carried frames in between (docs/models.md 23). A measured trace can
//! drive the losses instead, or as well (`replay.rs`).

pub mod fitted;
pub mod gauss_markov;
pub mod gilbert_elliott;
pub mod replay;

pub use fitted::FittedLinks;
pub use gauss_markov::GaussMarkov;
pub use gilbert_elliott::GilbertElliott;
pub use replay::{LinkTrace, Replay, Unlisted};

use gauss_markov::{GmState, Step};
use gilbert_elliott::GeState;

use crate::engine::rng::{Purpose, Rng};
use crate::ids::NodeId;

/// Gauss-Markov gains beyond this many deviations are left out when deciding which links
/// exist at all (`phy/links.rs`) (P(N(0,1) > 5) ~ 3e-7).
pub const GM_REACH_SIGMAS: f64 = 5.0;

/// Per-link states, found by the pair of nodes: per first node, the second nodes in order.
/// A link's entry is made when its first frame crosses it (no per-frame allocation after).
#[derive(Debug, Clone)]
struct PairTable<S> {
    by_node: Vec<Vec<(u32, S)>>,
}

impl<S> PairTable<S> {
    fn new(nodes: usize) -> Self {
        PairTable { by_node: (0..nodes).map(|_| Vec::new()).collect() }
    }

    fn entry(&mut self, (a, b): (NodeId, NodeId), make: impl FnOnce() -> S) -> &mut S {
        let row = &mut self.by_node[a.index()];
        let k = match row.binary_search_by_key(&b.0, |e| e.0) {
            Ok(k) => k,
            Err(k) => {
                row.insert(k, (b.0, make()));
                k
            }
        };
        &mut row[k].1
    }
}

/// The key of the link tx -> rx: one key for both directions when they share a process.
fn pair(tx: NodeId, rx: NodeId, symmetric: bool) -> (NodeId, NodeId) {
    if symmetric {
        (tx.min(rx), tx.max(rx))
    } else {
        (tx, rx)
    }
}

fn stream(seed: u64, purpose: Purpose, (a, b): (NodeId, NodeId)) -> Rng {
    Rng::derive(seed, purpose, u64::from(a.0) << 32 | u64::from(b.0))
}

/// Every link's time-varying state (empty and free when neither model is configured).
#[derive(Debug, Clone)]
pub struct LinkDynamics {
    seed: u64,
    gm: Option<GaussMarkov>,
    coherence_ns: f64,
    ge: Option<GilbertElliott>,
    gm_links: PairTable<GmState>,
    /// Each link's chain and its parameters (the table's, or drawn for the link).
    ge_links: PairTable<(GilbertElliott, GeState)>,
    step: Step,
    replay: Option<Box<Replay>>,
}

impl LinkDynamics {
    pub fn new(
        gm: Option<GaussMarkov>,
        ge: Option<GilbertElliott>,
        seed: u64,
        nodes: usize,
    ) -> Self {
        let gm = gm.filter(|m| m.sigma_db > 0.0);
        LinkDynamics {
            seed,
            gm,
            coherence_ns: gm.map_or(1.0, |m| m.coherence_s * 1e9),
            ge,
            gm_links: PairTable::new(if gm.is_some() { nodes } else { 0 }),
            ge_links: PairTable::new(if ge.is_some() { nodes } else { 0 }),
            step: Step::default(),
            replay: None,
        }
    }

    /// Frames are lost as the links of a measured trace lost their probes, too.
    pub fn add_replay(&mut self, replay: Replay) {
        self.replay = Some(Box::new(replay));
    }

    /// Does a link's power change from frame to frame?
    pub fn varies_power(&self) -> bool {
        self.gm.is_some()
    }

    /// Are frames lost to a Gilbert-Elliott state or a trace?
    pub fn has_loss(&self) -> bool {
        self.ge.is_some() || self.replay.is_some()
    }

    /// The power factor of the link tx -> rx for a frame starting at `at_ns` (1 without
    /// Gauss-Markov shadowing).
    pub fn gain(&mut self, tx: NodeId, rx: NodeId, at_ns: u64) -> f64 {
        let Some(m) = self.gm else { return 1.0 };
        let key = pair(tx, rx, m.symmetric);
        let seed = self.seed;
        let state = self
            .gm_links
            .entry(key, || GmState::new(at_ns, stream(seed, Purpose::LinkShadowing, key)));
        let x = state.sample(at_ns, self.coherence_ns, &mut self.step);
        (m.sigma_db * x * std::f64::consts::LN_10 / 10.0).exp() // 10^(sigma x / 10)
    }

    /// Is a frame that tx -> rx would have delivered at `at_ns` lost to the link's state
    /// or to its trace? (The chain moves whatever the trace says.)
    pub fn lost(&mut self, tx: NodeId, rx: NodeId, at_ns: u64) -> bool {
        let by_chain = self.ge.is_some_and(|m| {
            let key = pair(tx, rx, m.symmetric);
            let seed = self.seed;
            let (params, state) = self.ge_links.entry(key, || {
                let mut rng = stream(seed, Purpose::LinkLoss, key);
                let params = m.drawn_from.map_or(m, |set| set.draw(&mut rng, m.symmetric));
                (params, GeState::new(at_ns, &params, rng))
            });
            state.lost(at_ns, params)
        });
        by_chain || self.replay.as_ref().is_some_and(|r| r.lost(tx, rx, at_ns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn gm(symmetric: bool) -> LinkDynamics {
        let m = GaussMarkov { sigma_db: 6.0, coherence_s: 0.2, symmetric };
        LinkDynamics::new(Some(m), None, 42, 4)
    }

    #[test]
    fn without_models_nothing_changes() {
        let mut d = LinkDynamics::new(None, None, 1, 3);
        assert!(!d.varies_power() && !d.has_loss());
        assert_eq!(d.gain(NodeId(0), NodeId(1), 5), 1.0);
        assert!(!d.lost(NodeId(0), NodeId(1), 5));
    }

    #[test]
    fn symmetric_links_share_one_process_and_asymmetric_ones_do_not() {
        let (a, b) = (NodeId(1), NodeId(3));
        let mut sym = gm(true);
        assert_eq!(sym.gain(a, b, 10 * MS), sym.gain(b, a, 10 * MS));
        let mut asym = gm(false);
        assert_ne!(asym.gain(a, b, 10 * MS), asym.gain(b, a, 10 * MS));
    }

    /// A link's gains are the same whether or not other links carried frames in between,
    /// and whatever node count the table has.
    #[test]
    fn a_links_samples_do_not_depend_on_other_links() {
        let (a, b, c) = (NodeId(0), NodeId(1), NodeId(2));
        let mut alone = gm(false);
        let mut busy = gm(false);
        busy.gm_links = PairTable::new(9);
        for k in 1..50u64 {
            let t = k * 7 * MS;
            busy.gain(c, a, t);
            busy.gain(b, c, t + 1);
            assert_eq!(alone.gain(a, b, t), busy.gain(a, b, t));
        }
    }

    #[test]
    fn loss_bursts_are_per_link() {
        let m = GilbertElliott { good_mean_s: 0.05, bad_mean_s: 0.05, ..Default::default() };
        let mut d = LinkDynamics::new(None, Some(m), 3, 3);
        let (a, b, c) = (NodeId(0), NodeId(1), NodeId(2));
        let ab: Vec<bool> = (1..200u64).map(|k| d.lost(a, b, k * MS * 10)).collect();
        let ac: Vec<bool> = (1..200u64).map(|k| d.lost(a, c, k * MS * 10)).collect();
        assert_ne!(ab, ac);
        let share = ab.iter().filter(|&&l| l).count() as f64 / ab.len() as f64;
        assert!((0.3..0.7).contains(&share), "{share}");
    }
}
