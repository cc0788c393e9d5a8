//! Routing messages as control packets carry them, and their kinds: what the result's
//! overhead by type (`routing_messages`) counts.

use crate::net::aodv::AodvMsg;
use crate::net::dsr::DsrMsg;
use crate::net::hwmp::msg::{HwmpKind, HwmpRef};
use crate::net::olsr::OlsrRef;

/// A routing message (an OLSR packet of one or more messages), as carried by a control
/// packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    Aodv(AodvMsg),
    Dsr(DsrMsg),
    Olsr(OlsrRef),
    /// An HWMP element, in a mesh action frame rather than an IP packet.
    Hwmp(HwmpRef),
}

impl Control {
    /// Bytes of the routing payload (above UDP/IP, or DSR's options; HWMP: the action frame's
    /// body).
    pub fn bytes(&self) -> u32 {
        match self {
            Control::Aodv(m) => m.bytes(),
            Control::Dsr(m) => m.bytes(),
            Control::Olsr(r) => r.bytes,
            Control::Hwmp(r) => r.body_bytes,
        }
    }

    /// Each kind of message it holds, with the count and their bytes.
    pub fn tally(&self, t: &mut ControlTally) {
        match *self {
            Control::Aodv(m) => {
                let kind = match m {
                    AodvMsg::Rreq { .. } => ControlKind::AodvRreq,
                    // RFC 3561 6.9: a HELLO is an RREP for the sender itself, hop count 0.
                    AodvMsg::Rrep { dst, orig, hops: 0, .. } if dst == orig => {
                        ControlKind::AodvHello
                    }
                    AodvMsg::Rrep { .. } => ControlKind::AodvRrep,
                    AodvMsg::Rerr { .. } => ControlKind::AodvRerr,
                };
                t.add(kind, 1, m.bytes());
            }
            Control::Dsr(m) => {
                let kind = match m {
                    DsrMsg::Rreq { .. } => ControlKind::DsrRreq,
                    DsrMsg::Rrep { .. } => ControlKind::DsrRrep,
                    DsrMsg::Rerr { .. } => ControlKind::DsrRerr,
                };
                t.add(kind, 1, m.bytes());
            }
            Control::Olsr(r) => {
                t.add(ControlKind::OlsrHello, r.hellos.into(), r.hello_bytes.into());
                t.add(ControlKind::OlsrTc, r.tcs.into(), r.tc_bytes());
            }
            Control::Hwmp(r) => {
                let kind = match r.kind {
                    HwmpKind::Preq => ControlKind::HwmpPreq,
                    HwmpKind::Prep => ControlKind::HwmpPrep,
                    HwmpKind::Perr => ControlKind::HwmpPerr,
                    HwmpKind::Rann => ControlKind::HwmpRann,
                };
                t.add(kind, 1, r.body_bytes);
            }
        }
    }
}

/// The kinds of routing message, each with its name in results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlKind {
    AodvRreq,
    AodvRrep,
    AodvRerr,
    AodvHello,
    DsrRreq,
    DsrRrep,
    DsrRerr,
    OlsrHello,
    OlsrTc,
    HwmpPreq,
    HwmpPrep,
    HwmpPerr,
    HwmpRann,
}

impl ControlKind {
    pub const ALL: [ControlKind; 13] = [
        ControlKind::AodvRreq,
        ControlKind::AodvRrep,
        ControlKind::AodvRerr,
        ControlKind::AodvHello,
        ControlKind::DsrRreq,
        ControlKind::DsrRrep,
        ControlKind::DsrRerr,
        ControlKind::OlsrHello,
        ControlKind::OlsrTc,
        ControlKind::HwmpPreq,
        ControlKind::HwmpPrep,
        ControlKind::HwmpPerr,
        ControlKind::HwmpRann,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ControlKind::AodvRreq => "aodv_rreq",
            ControlKind::AodvRrep => "aodv_rrep",
            ControlKind::AodvRerr => "aodv_rerr",
            ControlKind::AodvHello => "aodv_hello",
            ControlKind::DsrRreq => "dsr_rreq",
            ControlKind::DsrRrep => "dsr_rrep",
            ControlKind::DsrRerr => "dsr_rerr",
            ControlKind::OlsrHello => "olsr_hello",
            ControlKind::OlsrTc => "olsr_tc",
            ControlKind::HwmpPreq => "hwmp_preq",
            ControlKind::HwmpPrep => "hwmp_prep",
            ControlKind::HwmpPerr => "hwmp_perr",
            ControlKind::HwmpRann => "hwmp_rann",
        }
    }
}

/// Messages and their bytes, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ControlTally {
    pub by_kind: [(u64, u64); ControlKind::ALL.len()],
}

impl ControlTally {
    fn add(&mut self, kind: ControlKind, messages: u64, bytes: u32) {
        let e = &mut self.by_kind[kind as usize];
        e.0 += messages;
        e.1 += u64::from(bytes) * u64::from(messages > 0);
    }

    pub fn merge(&mut self, o: &ControlTally) {
        for (a, b) in self.by_kind.iter_mut().zip(o.by_kind.iter()) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }

    /// (kind, messages, bytes) of every kind sent at least once, in `ControlKind::ALL`'s
    /// order.
    pub fn sent(&self) -> impl Iterator<Item = (ControlKind, u64, u64)> + '_ {
        ControlKind::ALL
            .iter()
            .zip(self.by_kind.iter())
            .filter(|(_, e)| e.0 > 0)
            .map(|(k, e)| (*k, e.0, e.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::NodeId;

    #[test]
    fn an_aodv_hello_is_told_from_a_reply_by_rfc_3561_6_9() {
        let mut t = ControlTally::default();
        let (a, b) = (NodeId(1), NodeId(2));
        let hello = AodvMsg::Rrep { dst: a, dst_seq: 1, orig: a, hops: 0, lifetime_ns: 1 };
        let reply = AodvMsg::Rrep { dst: a, dst_seq: 1, orig: b, hops: 0, lifetime_ns: 1 };
        Control::Aodv(hello).tally(&mut t);
        Control::Aodv(reply).tally(&mut t);
        Control::Aodv(reply).tally(&mut t);
        let sent: Vec<_> = t.sent().map(|(k, n, b)| (k.name(), n, b)).collect();
        assert_eq!(sent, [("aodv_rrep", 2, 40), ("aodv_hello", 1, 20)]);
    }
}
