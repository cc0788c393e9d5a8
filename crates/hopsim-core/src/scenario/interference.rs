//! Checks of the `[[interference]]` tables (the config is the PHY's own,
//! `phy/interferer.rs`).

use super::ranges;
use super::validate::Check;
use super::{Interferer, KeyPath};
use crate::error::fmt_num;

/// The most interferers a scenario may name (their frame references lie above every node).
pub const MAX_INTERFERERS: usize = 10_000;

pub(super) fn check(list: &[Interferer], at: &KeyPath, duration_s: f64) -> Check {
    if list.len() > MAX_INTERFERERS {
        return Err(at.invalid(
            format!("{} tables", list.len()),
            &format!("must have at most {MAX_INTERFERERS} interferers"),
        ));
    }
    for (i, s) in list.iter().enumerate() {
        let at = at.index(i);
        for (name, v) in [
            ("x_m", s.x_m),
            ("y_m", s.y_m),
            ("power_dbm", s.power_dbm),
            ("on_mean_s", s.on_mean_s),
            ("off_mean_s", s.off_mean_s),
            ("start_s", s.start_s),
        ] {
            ranges::check(&at.field(name), v)?;
        }
        if let Some(stop) = s.stop_s {
            ranges::check(&at.field("stop_s"), stop)?;
            if stop <= s.start_s {
                let start = at.field("start_s");
                return Err(at
                    .field("stop_s")
                    .invalid(stop, &format!("must be above {start} = {}", fmt_num(s.start_s))));
            }
        }
        if s.start_s >= duration_s {
            return Err(at.field("start_s").invalid(
                s.start_s,
                &format!("must be less than duration_s = {} (the run ends first)", duration_s),
            ));
        }
    }
    Ok(())
}
