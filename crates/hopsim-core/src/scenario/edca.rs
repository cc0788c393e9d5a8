//! `[mac.edca.BK]` .. `[mac.edca.VO]`: a QoS station's EDCA parameters per access category,
//! each key overriding the default set (Table 9-137, mac/edca.rs) on its own. What a mesh
//! operator sets through the EDCA Parameter Set element (9.4.2.28; hostapd's `wmm_ac_*`,
//! ns-3's `{AC}_Txop` attributes). 802.11n and 802.11ac stations only.

use super::validate::Check;
use super::KeyPath;
use crate::engine::time::us;
use crate::mac::edca::{Ac, EdcaParams};
use serde::{Deserialize, Serialize};

/// The overrides of the four categories; an absent table keeps the defaults.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdcaTable {
    #[serde(rename = "BK", default, skip_serializing_if = "Option::is_none")]
    pub bk: Option<AcOverride>,
    #[serde(rename = "BE", default, skip_serializing_if = "Option::is_none")]
    pub be: Option<AcOverride>,
    #[serde(rename = "VI", default, skip_serializing_if = "Option::is_none")]
    pub vi: Option<AcOverride>,
    #[serde(rename = "VO", default, skip_serializing_if = "Option::is_none")]
    pub vo: Option<AcOverride>,
}

/// One category's keys; each absent one keeps the category's default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcOverride {
    /// AIFS = SIFS + aifsn slots (10.22.2.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aifsn: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cw_min: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cw_max: Option<u32>,
    /// The TXOP limit, µs (0: one frame exchange per access).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub txop_limit_us: Option<u32>,
}

/// The element's AIFSN field: 2..15 for a non-AP station (9.4.2.28; 1 is an AP's only).
const AIFSN_RANGE: std::ops::RangeInclusive<u32> = 2..=15;
/// ECWmin/ECWmax are 4-bit exponents: CW = 2^ECW - 1 up to 32767 (9.4.2.28, Figure 9-267).
const CW_MOST: u32 = 32767;
/// The TXOP Limit field counts 32 µs units in 16 bits (9.4.2.28).
const TXOP_UNIT_US: u32 = 32;
const TXOP_MOST_US: u32 = 65535 * TXOP_UNIT_US;

impl EdcaTable {
    pub fn is_empty(&self) -> bool {
        self == &EdcaTable::default()
    }

    fn get(&self, ac: Ac) -> Option<&AcOverride> {
        match ac {
            Ac::Bk => self.bk.as_ref(),
            Ac::Be => self.be.as_ref(),
            Ac::Vi => self.vi.as_ref(),
            Ac::Vo => self.vo.as_ref(),
        }
    }

    /// The four categories' parameters: the defaults with this table's keys applied.
    pub fn apply(&self, defaults: [EdcaParams; 4]) -> [EdcaParams; 4] {
        let mut out = defaults;
        for ac in Ac::ALL {
            if let Some(o) = self.get(ac) {
                let p = &mut out[ac.index()];
                p.aifsn = o.aifsn.unwrap_or(p.aifsn);
                p.cw_min = o.cw_min.unwrap_or(p.cw_min);
                p.cw_max = o.cw_max.unwrap_or(p.cw_max);
                p.txop_limit_ns = o.txop_limit_us.map_or(p.txop_limit_ns, |t| us(u64::from(t)));
            }
        }
        out
    }

    /// Each key within the element's fields, and each category's cw_min <= cw_max once the
    /// defaults (`defaults`) fill what the table leaves out.
    pub(super) fn check(&self, at: &KeyPath, qos: bool, defaults: [EdcaParams; 4]) -> Check {
        if self.is_empty() {
            return Ok(());
        }
        if !qos {
            let ac = Ac::ALL.into_iter().find(|&ac| self.get(ac).is_some()).expect("not empty");
            return Err(at.field(short(ac)).refuse(
                "sets EDCA parameters, which only a QoS station has: radio.standard must be \
                 \"80211n\" or \"80211ac\" (802.11b/a/g stations use mac.cw_min and mac.cw_max)",
            ));
        }
        let merged = self.apply(defaults);
        for ac in Ac::ALL {
            let Some(o) = self.get(ac) else { continue };
            let at = at.field(short(ac));
            if let Some(v) = o.aifsn.filter(|v| !AIFSN_RANGE.contains(v)) {
                return Err(at.field("aifsn").invalid(
                    v,
                    "must be 2 to 15 (the EDCA Parameter Set's AIFSN for a non-AP station, \
                     802.11-2020 9.4.2.28)",
                ));
            }
            for (key, v) in [("cw_min", o.cw_min), ("cw_max", o.cw_max)] {
                if let Some(v) = v.filter(|&v| v > CW_MOST || !(v + 1).is_power_of_two()) {
                    return Err(at.field(key).invalid(
                        v,
                        "must be 2^k - 1 from 0 to 32767 (the element carries k, 0..15)",
                    ));
                }
            }
            let p = merged[ac.index()];
            if p.cw_max < p.cw_min {
                let key = if o.cw_max.is_some() { "cw_max" } else { "cw_min" };
                let value = if o.cw_max.is_some() { p.cw_max } else { p.cw_min };
                return Err(at.field(key).invalid(
                    value,
                    &format!(
                        "leaves {} with cw_min {} above cw_max {}: cw_min <= cw_max",
                        ac.name(),
                        p.cw_min,
                        p.cw_max
                    ),
                ));
            }
            if let Some(t) = o.txop_limit_us {
                if t > TXOP_MOST_US || t % TXOP_UNIT_US != 0 {
                    return Err(at.field("txop_limit_us").invalid(
                        t,
                        "must be a multiple of 32 from 0 (one exchange per access) to 2097120 \
                         (the TXOP Limit field counts 32 us units; the defaults: VI 3008, VO \
                         1504)",
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The table name of a category: `mac.edca.VO`.
fn short(ac: Ac) -> &'static str {
    ["BK", "BE", "VI", "VO"][ac.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> [EdcaParams; 4] {
        Ac::ALL.map(|ac| EdcaParams::default_for(ac, 15, 1023, false))
    }

    #[test]
    fn keys_override_one_by_one() {
        let t = EdcaTable {
            be: Some(AcOverride { aifsn: Some(2), cw_min: Some(7), ..Default::default() }),
            vo: Some(AcOverride { txop_limit_us: Some(0), ..Default::default() }),
            ..Default::default()
        };
        let p = t.apply(defaults());
        assert_eq!(
            p[Ac::Be.index()],
            EdcaParams { aifsn: 2, cw_min: 7, cw_max: 1023, txop_limit_ns: 0 }
        );
        assert_eq!(p[Ac::Vo.index()], EdcaParams { txop_limit_ns: 0, ..defaults()[3] });
        assert_eq!((p[0], p[2]), (defaults()[0], defaults()[2]));
        assert!(t.check(&KeyPath::root().field("edca"), true, defaults()).is_ok());
    }

    #[test]
    fn bad_values_are_refused_by_key() {
        let at = KeyPath::root().field("mac").field("edca");
        let with = |o: AcOverride| EdcaTable { vi: Some(o), ..Default::default() };
        let key = |t: EdcaTable, qos| t.check(&at, qos, defaults()).unwrap_err().key;
        let aifsn = with(AcOverride { aifsn: Some(1), ..Default::default() });
        assert_eq!(key(aifsn.clone(), true), "mac.edca.VI.aifsn");
        assert_eq!(key(aifsn, false), "mac.edca.VI");
        assert_eq!(
            key(with(AcOverride { cw_min: Some(10), ..Default::default() }), true),
            "mac.edca.VI.cw_min"
        );
        assert_eq!(
            key(with(AcOverride { cw_max: Some(65535), ..Default::default() }), true),
            "mac.edca.VI.cw_max"
        );
        // VI's default cw_max is 15: a cw_min of 31 alone crosses it.
        assert_eq!(
            key(with(AcOverride { cw_min: Some(31), ..Default::default() }), true),
            "mac.edca.VI.cw_min"
        );
        assert_eq!(
            key(with(AcOverride { txop_limit_us: Some(3000), ..Default::default() }), true),
            "mac.edca.VI.txop_limit_us"
        );
        let ok = with(AcOverride {
            cw_min: Some(31),
            cw_max: Some(63),
            txop_limit_us: Some(6016),
            aifsn: Some(15),
        });
        assert!(ok.check(&at, true, defaults()).is_ok());
    }
}
