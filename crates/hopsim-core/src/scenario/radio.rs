//! Checks of the `[radio]` table. The table itself is the PHY's own config
//! (`phy/config.rs`, re-exported as `scenario::Radio`), which knows nothing of scenarios; its
//! checks are here, beside the other sections'.

use super::ranges;
use super::validate::Check;
use super::{KeyPath, Radio};
use crate::phy::config::{Reception, WeakFrames};
use crate::phy::dynamics::GilbertElliott;
use crate::phy::standard::Standard;

impl Radio {
    pub(super) fn check(&self, at: &KeyPath) -> Check {
        for (name, v) in [
            ("tx_power_w", self.tx_power_w),
            ("frequency_hz", self.frequency_hz),
            ("antenna_height_m", self.antenna_height_m),
            ("antenna_gain", self.antenna_gain),
            ("system_loss", self.system_loss),
            ("rx_threshold_w", self.rx_threshold_w),
            ("cs_threshold_w", self.cs_threshold_w),
            ("capture_threshold_db", self.capture_threshold_db),
            ("frame_error_rate", self.frame_error_rate),
            ("path_loss_exponent", self.path_loss_exponent),
            ("reference_distance_m", self.reference_distance_m),
            ("shadowing_sigma_db", self.shadowing_sigma_db),
            ("ricean_k_db", self.ricean_k_db),
            ("noise_figure_db", self.noise_figure_db),
            ("preamble_snr_db", self.preamble_snr_db),
        ] {
            ranges::check(&at.field(name), v)?;
        }
        for (name, v) in [
            ("tx_power_dbm", self.tx_power_dbm),
            ("rx_range_m", self.rx_range_m),
            ("cs_range_m", self.cs_range_m),
            ("reference_loss_db", self.reference_loss_db),
        ] {
            if let Some(v) = v {
                ranges::check(&at.field(name), v)?;
            }
        }
        if let Some(m) = self.gauss_markov {
            let at = at.field("gauss_markov");
            ranges::check(&at.field("sigma_db"), m.sigma_db)?;
            ranges::check(&at.field("coherence_s"), m.coherence_s)?;
        }
        if let Some(m) = self.gilbert_elliott {
            let at = at.field("gilbert_elliott");
            ranges::check(&at.field("good_mean_s"), m.good_mean_s)?;
            ranges::check(&at.field("bad_mean_s"), m.bad_mean_s)?;
            ranges::check(&at.field("loss_good"), m.loss_good)?;
            ranges::check(&at.field("loss_bad"), m.loss_bad)?;
            let four = GilbertElliott { symmetric: false, drawn_from: None, ..m };
            if let Some(set) = m.drawn_from.filter(|_| four != GilbertElliott::default()) {
                // Two ways to give a link's chain: refuse both rather than pick one silently.
                return Err(at.field("drawn_from").invalid(
                    format!("\"{}\"", set.name()),
                    "draws each link's four parameters: leave good_mean_s, bad_mean_s, \
                     loss_good and loss_bad out",
                ));
            }
        }
        if let Some(t) = &self.link_trace {
            let at = at.field("link_trace");
            ranges::check(&at.field("offset_s"), t.offset_s)?;
            if t.file.trim().is_empty() {
                return Err(at.field("file").invalid("\"\"", "must name a link-trace file"));
            }
        }
        if self.reception == Reception::Sinr && self.weak_frames == Some(WeakFrames::Receive) {
            return Err(at.field("weak_frames").invalid(
                "\"receive\"",
                "is a capture-mode rule: with radio.reception = \"sinr\" a frame below \
                 rx_threshold_w is never received (leave the key out, or \"sense\")",
            ));
        }
        self.check_ht_keys(at)?;
        if let Some(dbm) = self.tx_power_dbm {
            // Two ways to say one power: refuse both rather than pick one silently.
            if self.tx_power_w != Radio::default().tx_power_w {
                let (dbm_key, w_key) = (at.field("tx_power_dbm"), at.field("tx_power_w"));
                return Err(dbm_key.invalid(
                    dbm,
                    &format!("give the transmit power once: either {w_key} or {dbm_key}"),
                ));
            }
        }
        match (self.rx_range_m, self.cs_range_m) {
            (Some(rx), Some(cs)) if cs < rx => Err(at
                .field("cs_range_m")
                .invalid(cs, &format!("must be at least {} = {rx}", at.field("rx_range_m")))),
            // With `sinr` reception the two are independent: preamble detection (rx) and
            // energy detection (cs, e.g. 802.11a's -62 dBm above its -82 dBm sensitivity).
            (None, None)
                if self.reception == Reception::Capture
                    && self.cs_threshold_w > self.rx_threshold_w =>
            {
                Err(at.field("cs_threshold_w").invalid(
                    self.cs_threshold_w,
                    &format!(
                        "must not exceed {} = {}",
                        at.field("rx_threshold_w"),
                        self.rx_threshold_w
                    ),
                ))
            }
            _ => Ok(()),
        }
    }
}

impl Radio {
    /// The keys of the HT and VHT PHYs: only 802.11n and 802.11ac have a choice of width,
    /// guard interval and antennas, and they are modelled in the 5 GHz band.
    fn check_ht_keys(&self, at: &KeyPath) -> Check {
        let name = self.standard.name();
        let ht = self.standard.is_ht();
        let widths = self.standard.channel_widths_mhz();
        let (gis, most_antennas) = if ht { ("800 or 400", 4) } else { ("800", 1) };
        if !widths.contains(&self.channel_width_mhz) {
            let list: Vec<String> = widths.iter().map(u32::to_string).collect();
            return Err(at.field("channel_width_mhz").invalid(
                self.channel_width_mhz,
                &format!("must be one of {} with radio.standard = \"{name}\"", list.join(", ")),
            ));
        }
        if self.guard_interval_ns != 800 && !(ht && self.guard_interval_ns == 400) {
            return Err(at.field("guard_interval_ns").invalid(
                self.guard_interval_ns,
                &format!("must be {gis} with radio.standard = \"{name}\""),
            ));
        }
        if !(1..=most_antennas).contains(&self.antennas) {
            return Err(at.field("antennas").invalid(
                self.antennas,
                &format!("must be 1 to {most_antennas} with radio.standard = \"{name}\""),
            ));
        }
        if self.spatial_streams != 1
            && !(self.standard.is_vht() && (1..=self.antennas).contains(&self.spatial_streams))
        {
            let allowed = if self.standard.is_vht() {
                format!("must be 1 to radio.antennas = {}", self.antennas)
            } else if self.standard == Standard::N {
                "must be 1 with radio.standard = \"80211n\": its MCS index gives the streams \
                 (mcs8-mcs15 two, and so on)"
                    .to_string()
            } else {
                format!("must be 1 with radio.standard = \"{name}\"")
            };
            return Err(at.field("spatial_streams").invalid(self.spatial_streams, &allowed));
        }
        if ht && !(4.9e9..=5.925e9).contains(&self.frequency_hz) {
            return Err(at.field("frequency_hz").invalid(
                self.frequency_hz,
                &format!(
                    "must lie in the 5 GHz band, 4.9e9 to 5.925e9, with radio.standard = \
                     \"{name}\" (802.11n and 802.11ac in the 2.4 GHz band are not modelled)"
                ),
            ));
        }
        Ok(())
    }
}
