//! Checks of a `[tcp]` table: the top-level one, a flow's `[flows.tcp]` or `[traffic.tcp]`,
//! each named where the walk finds it. The table itself is TCP's own config
//! (`transport/tcp/config.rs`, re-exported as `scenario::TcpSpec`). Also the list of the TCP
//! variants (`TcpVariant::ALL`), which the fuzz tables and Python (`_core.tcp_variants()`) read.

use super::ranges;
use super::validate::Check;
use super::{KeyPath, TcpSpec, WindowLimit};
use crate::transport::tcp::config::{TcpHost, TcpVariant};

impl TcpVariant {
    /// Every TCP variant, in the order the docs list them: the one list of them. The fuzz
    /// tables and the Python package (`_core.tcp_variants()`: the advisor, crosscheck's
    /// subset) read it; the test below keeps it complete.
    pub const ALL: &'static [TcpVariant] = &[
        TcpVariant::Reno,
        TcpVariant::NewReno,
        TcpVariant::Sack,
        TcpVariant::Vegas,
        TcpVariant::VegasW,
        TcpVariant::Few,
        TcpVariant::Cubic,
        TcpVariant::Bic,
        TcpVariant::Bbr,
    ];

    /// The name a scenario gives the variant (`tcp.variant`).
    pub fn name(self) -> &'static str {
        crate::transport::tcp::variant_name(self)
    }
}

impl TcpSpec {
    pub(super) fn check(&self, at: &KeyPath) -> Check {
        for (name, v) in [
            ("max_window", self.max_window),
            ("hop_k", self.hop_k),
            ("receiver_window", self.receiver_window as f64),
            ("initial_window", self.initial_window),
            ("initial_receive_window", self.initial_receive_window as f64),
            ("delayed_ack_timeout_s", self.delayed_ack_timeout_s),
            ("min_rto_s", self.min_rto_s),
            ("max_rto_s", self.max_rto_s),
            ("initial_rto_s", self.initial_rto_s),
            ("clock_granularity_s", self.clock_granularity_s),
            ("dupack_threshold", self.dupack_threshold as f64),
            ("alpha", self.alpha),
            ("beta", self.beta),
            ("gamma", self.gamma),
            ("vegas_w_p", self.vegas_w_p),
            ("n_fw", self.n_fw as f64),
            ("n_s", self.n_s as f64),
            ("n_ca", self.n_ca as f64),
            ("ns_ca", self.ns_ca as f64),
            ("to_ss", self.to_ss as f64),
            ("few_alpha", self.few_alpha),
        ] {
            ranges::check(&at.field(name), v)?;
        }
        let thresholds = at.field("ack_thinning_thresholds");
        for (i, &l) in self.ack_thinning_thresholds.iter().enumerate() {
            ranges::check(&thresholds.index(i), l as f64)?;
        }
        let max_window = at.field("max_window");
        if self.window_limit == Some(WindowLimit::Fixed) && self.max_window <= 0.0 {
            return Err(max_window.invalid(
                self.max_window,
                "must be a positive number of segments when window_limit = \"fixed\"",
            ));
        }
        if self.window_limit == Some(WindowLimit::None) && self.max_window > 0.0 {
            return Err(max_window.invalid(
                self.max_window,
                "contradicts window_limit = \"none\"; set window_limit = \"fixed\" or max_window = 0",
            ));
        }
        if self.beta < self.alpha {
            return Err(at.field("beta").invalid(
                self.beta,
                &format!(
                    "must be at least alpha = {} (Vegas holds its window between them)",
                    self.alpha
                ),
            ));
        }
        let [l1, l2, l3] = self.ack_thinning_thresholds;
        if !(l1 <= l2 && l2 <= l3) {
            return Err(thresholds.invalid(
                format!("[{l1}, {l2}, {l3}]"),
                "must be three segment numbers l1 <= l2 <= l3",
            ));
        }
        if self.host == TcpHost::Linux
            && matches!(self.variant, TcpVariant::Vegas | TcpVariant::VegasW | TcpVariant::Few)
        {
            return Err(at.field("variant").invalid(
                crate::transport::tcp::variant_name(self.variant),
                "is one of ns-2's agents; host = \"linux\" runs reno, newreno, sack, cubic, bic or bbr \
                 (or set host = \"ns2\")",
            ));
        }
        if self.rwnd_autotuning && self.initial_receive_window > self.receiver_window {
            return Err(at.field("initial_receive_window").invalid(
                self.initial_receive_window,
                &format!(
                    "must be at most receiver_window = {} (the bound autotuning grows to)",
                    self.receiver_window
                ),
            ));
        }
        if self.max_rto_s < self.min_rto_s {
            return Err(at.field("max_rto_s").invalid(
                self.max_rto_s,
                &format!("must be at least min_rto_s = {}", self.min_rto_s),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::TcpVariant;

    /// Where each variant sits in `ALL`; exhaustive, so a new variant does not compile until
    /// it is given a place here, and the test then fails until `ALL` holds it there.
    fn position(v: TcpVariant) -> usize {
        match v {
            TcpVariant::Reno => 0,
            TcpVariant::NewReno => 1,
            TcpVariant::Sack => 2,
            TcpVariant::Vegas => 3,
            TcpVariant::VegasW => 4,
            TcpVariant::Few => 5,
            TcpVariant::Cubic => 6,
            TcpVariant::Bic => 7,
            TcpVariant::Bbr => 8,
        }
    }

    #[test]
    fn all_lists_every_variant_once_under_its_scenario_name() {
        for (i, &v) in TcpVariant::ALL.iter().enumerate() {
            assert_eq!(position(v), i, "{v:?}");
            let parsed: TcpVariant = serde_json::from_value(serde_json::json!(v.name())).unwrap();
            assert_eq!(parsed, v, "{}", v.name());
        }
        let last = TcpVariant::ALL.iter().map(|&v| position(v)).max();
        assert_eq!(last, Some(TcpVariant::ALL.len() - 1));
    }
}
