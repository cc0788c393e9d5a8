//! Loss recovery after a fast retransmit: one interface for Reno, NewReno and SACK, after
//! ns-3's TcpRecoveryOps (EnterRecovery, DoRecovery, ExitRecovery). The sender decides *when*
//! (duplicate ACKs, `recover`, timeouts: `sender/loss.rs`); this file says *how* each kind
//! treats the window and what a new ACK during recovery means. Window changes go through
//! `window.rs`; the SACK scoreboard is `scoreboard.rs`.

use super::cc::{CongestionControl, Loss};
use super::window::Window;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recovery {
    /// RFC 5681 3.2: inflate per duplicate ACK, the first new ACK ends recovery (also ns-2's
    /// Vegas agents, tcp-vegas.cc).
    Reno,
    /// RFC 6582: partial ACKs retransmit the next hole; recovery ends at `recover`.
    NewReno {
        /// Partial ACKs seen in this recovery (only the first restarts the timer).
        partial_acks: u32,
        /// ns2 profile: ns-2's `dupwnd_`, the part of the window in recovery that is inflation
        /// (tcp-newreno.cc: the window is cwnd_ + dupwnd_; `partial_window_deflation_` 1,
        /// `exit_recovery_fix_` 0): a full ACK leaves cwnd_, not min(ssthresh, FlightSize +
        /// 1). None: RFC 6582.
        ns2_dupwnd: Option<u32>,
    },
    /// RFC 6675: cwnd = ssthresh, segments chosen by pipe and NextSeg (ns-2 tcp-sack1.cc).
    Sack,
}

/// What a new ACK during recovery asks of the sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AckInRecovery {
    /// Recovery is over (the window has been set for the time after it).
    Exit,
    /// Still in recovery; resend the first unacknowledged segment now.
    RetransmitNext,
    /// Still in recovery; nothing to do beyond what the window allows.
    Stay,
}

impl Recovery {
    pub fn new_reno() -> Recovery {
        Recovery::NewReno { partial_acks: 0, ns2_dupwnd: None }
    }

    /// The ns2 profile's recovery of the same kind (ns-2's NewReno window arithmetic).
    pub fn for_ns2(self) -> Recovery {
        match self {
            Recovery::NewReno { partial_acks, .. } => {
                Recovery::NewReno { partial_acks, ns2_dupwnd: Some(0) }
            }
            other => other,
        }
    }

    /// EnterRecovery, on the fast retransmit. The algorithm sets ssthresh and, Reno-style,
    /// cwnd = ssthresh + DupThresh (RFC 5681 3.2 steps 2-3, RFC 6582 3.2 step 2) or its own
    /// cut (Vegas); SACK does not inflate: cwnd = ssthresh (RFC 6675 section 5 step 4.2).
    pub fn enter(&mut self, cc: &mut dyn CongestionControl, w: &mut Window, loss: &Loss) {
        match self {
            Recovery::Reno => cc.enter_recovery(w, loss),
            Recovery::NewReno { partial_acks, ns2_dupwnd } => {
                cc.enter_recovery(w, loss);
                *partial_acks = 0;
                if let Some(d) = ns2_dupwnd {
                    *d = loss.dupack_threshold; // `dupwnd_ = numdupacks_`
                }
            }
            Recovery::Sack => cc.enter_sack_recovery(w, loss),
        }
    }

    /// DoRecovery on a further duplicate ACK: Reno and NewReno inflate by one segment (RFC
    /// 5681 3.2 step 4, RFC 6582 3.2 step 3); SACK's pipe already counts the segment that left.
    pub fn on_dupack(&mut self, w: &mut Window) {
        match self {
            Recovery::Reno => w.inflate(),
            Recovery::NewReno { ns2_dupwnd, .. } => {
                w.inflate();
                if let Some(d) = ns2_dupwnd {
                    *d += 1;
                }
            }
            Recovery::Sack => {}
        }
    }

    /// A new cumulative ACK during recovery. `full`: it covers `recover`; `acked_segments`:
    /// newly acknowledged; `dupacks`: duplicates counted before it; `flight_segments`: still
    /// outstanding after it.
    pub fn on_ack(
        &mut self,
        cc: &mut dyn CongestionControl,
        w: &mut Window,
        full: bool,
        acked_segments: u32,
        dupacks: u32,
        flight_segments: u32,
    ) -> AckInRecovery {
        match self {
            // RFC 5681 3.2 step 6: Reno's recovery ends with the first new ACK.
            Recovery::Reno => {}
            _ if full => {}
            Recovery::NewReno { .. } => return self.on_partial_ack(w, acked_segments),
            // RFC 6675 section 5: a partial ACK only updates the scoreboard and pipe.
            Recovery::Sack => return AckInRecovery::Stay,
        }
        self.exit(cc, w, dupacks, flight_segments);
        AckInRecovery::Exit
    }

    /// RFC 6582 3.2 step 4: a partial ACK retransmits the first unacknowledged segment and
    /// deflates the window by what it acknowledged, plus one.
    pub fn on_partial_ack(&mut self, w: &mut Window, acked_segments: u32) -> AckInRecovery {
        if let Recovery::NewReno { partial_acks, ns2_dupwnd } = self {
            *partial_acks += 1;
            match ns2_dupwnd {
                // tcp-newreno.cc `partialnewack`: out of dupwnd_ while it lasts, then out of
                // cwnd_ (at least 1), leaving dupwnd_ = 1.
                Some(d) if *d <= acked_segments => {
                    let base = (w.cwnd() - f64::from(*d) - f64::from(acked_segments - *d)).max(1.0);
                    *d = 1;
                    w.deflate_to(base + 1.0);
                }
                Some(d) => {
                    *d -= acked_segments - 1;
                    w.deflate_partial(acked_segments);
                }
                None => w.deflate_partial(acked_segments),
            }
            return AckInRecovery::RetransmitNext;
        }
        AckInRecovery::Stay
    }

    /// ExitRecovery: the window for the time after recovery.
    pub fn exit(
        &mut self,
        cc: &mut dyn CongestionControl,
        w: &mut Window,
        dupacks: u32,
        flight_segments: u32,
    ) {
        match self {
            // RFC 5681 3.2 step 6, deflate to ssthresh (Vegas: to its own reduced window).
            Recovery::Reno => cc.exit_recovery(w, dupacks),
            // RFC 6582 3.2 step 3, option (1); ns-2: `dupwnd_ = 0`, cwnd_ as it is.
            Recovery::NewReno { ns2_dupwnd: Some(d), .. } => {
                w.deflate_to((w.cwnd() - f64::from(*d)).max(1.0));
                *d = 0;
            }
            Recovery::NewReno { ns2_dupwnd: None, .. } => w.deflate_full(flight_segments),
            // RFC 6675 section 5: cwnd has been ssthresh throughout.
            Recovery::Sack => {}
        }
    }

    /// RFC 6675 section 5: with SACK the scoreboard may declare snd_una lost (IsLost) before
    /// DupThresh duplicate ACKs have arrived.
    pub fn uses_scoreboard(&self) -> bool {
        matches!(self, Recovery::Sack)
    }

    /// RFC 6582 3.2 step 4: during recovery only the first partial ACK restarts the
    /// retransmission timer (the "Impatient" variant), so a window with many holes times out.
    pub fn restarts_timer(&self) -> bool {
        !matches!(self, Recovery::NewReno { partial_acks, .. } if *partial_acks > 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::tcp::cc::Aimd;

    /// A loss with 10 segments in flight: RFC 5681 eq. 4 gives ssthresh 5.
    fn loss() -> Loss {
        Loss {
            now: 0,
            flight: 10.0,
            usable: 10.0,
            dupack_threshold: 3,
            dupacks: 3,
            sent_ns: 0,
            retransmitted: false,
        }
    }

    #[test]
    fn enter_and_duplicates_per_kind() {
        // RFC 5681 3.2 steps 3-4 (Reno, and NewReno by RFC 6582 3.2): ssthresh + 3, +1 per
        // duplicate; RFC 6675 section 5: cwnd = ssthresh, no inflation.
        for (mut r, entered, after_dup) in [
            (Recovery::Reno, 8.0, 9.0),
            (Recovery::new_reno(), 8.0, 9.0),
            (Recovery::Sack, 5.0, 5.0),
        ] {
            let mut w = Window::new(10.0, f64::INFINITY);
            r.enter(&mut Aimd::default(), &mut w, &loss());
            assert_eq!((w.ssthresh(), w.cwnd()), (5.0, entered), "{r:?}");
            r.on_dupack(&mut w);
            assert_eq!(w.cwnd(), after_dup, "{r:?}");
        }
    }

    #[test]
    fn a_new_ack_below_recover_per_kind() {
        let mut cc = Aimd::default();
        let partial =
            |r: &mut Recovery, cc: &mut Aimd, w: &mut Window| r.on_ack(cc, w, false, 4, 5, 6);
        // Reno: any new ACK ends recovery, cwnd = ssthresh (RFC 5681 3.2 step 6).
        let (mut r, mut w) = (Recovery::Reno, Window::new(10.0, 5.0));
        assert_eq!(partial(&mut r, &mut cc, &mut w), AckInRecovery::Exit);
        assert_eq!(w.cwnd(), 5.0);
        // NewReno: retransmit, deflate by 4 and add one (RFC 6582 3.2 step 4); only the first
        // partial ACK restarts the timer.
        let (mut r, mut w) = (Recovery::new_reno(), Window::new(10.0, 5.0));
        assert_eq!(partial(&mut r, &mut cc, &mut w), AckInRecovery::RetransmitNext);
        assert_eq!(w.cwnd(), 7.0);
        assert!(r.restarts_timer());
        partial(&mut r, &mut cc, &mut w);
        assert!(!r.restarts_timer());
        // Full ACK: min(ssthresh, FlightSize + 1) (RFC 6582 3.2 step 3 option 1).
        assert_eq!(r.on_ack(&mut cc, &mut w, true, 4, 0, 2), AckInRecovery::Exit);
        assert_eq!(w.cwnd(), 3.0);
        // SACK: the scoreboard does the work; the window stays at ssthresh (RFC 6675 5).
        let (mut r, mut w) = (Recovery::Sack, Window::new(5.0, 5.0));
        assert_eq!(partial(&mut r, &mut cc, &mut w), AckInRecovery::Stay);
        assert_eq!(r.on_ack(&mut cc, &mut w, true, 4, 0, 2), AckInRecovery::Exit);
        assert_eq!(w.cwnd(), 5.0);
    }

    // tcp-newreno.cc with ns-default.tcl's `partial_window_deflation_` 1 and
    // `exit_recovery_fix_` 0: the window in recovery is cwnd_ + dupwnd_.
    //   cwnd 10 -> ssthresh 5, window 5 + 3; two duplicates: 5 + 5; partial ACK of 2
    //   segments: dupwnd_ 5 > 2, 5 + 4; partial ACK of 6: cwnd_ 5 - (6 - 4) = 3, dupwnd_ 1;
    //   full ACK: dupwnd_ 0, the window cwnd_ = 3 (RFC 6582 option 1 with FlightSize 1: 2).
    //   Without partial ACKs a recovery ends at ssthresh whatever the flight.
    #[test]
    fn ns2_newreno_window_is_cwnd_plus_dupwnd() {
        let mut cc = Aimd { window_basis: true, ..Aimd::default() };
        let mut r = Recovery::new_reno().for_ns2();
        let mut w = Window::new(10.0, f64::INFINITY);
        r.enter(&mut cc, &mut w, &loss());
        assert_eq!((w.ssthresh(), w.cwnd()), (5.0, 8.0));
        r.on_dupack(&mut w);
        r.on_dupack(&mut w);
        assert_eq!(w.cwnd(), 10.0);
        assert_eq!(r.on_ack(&mut cc, &mut w, false, 2, 0, 6), AckInRecovery::RetransmitNext);
        assert_eq!(w.cwnd(), 9.0, "5 + (5 - 1)");
        r.on_ack(&mut cc, &mut w, false, 6, 0, 1);
        assert_eq!(w.cwnd(), 4.0, "cwnd_ 5 - (6 - 4) = 3, dupwnd_ 1");
        assert_eq!(r.on_ack(&mut cc, &mut w, true, 1, 0, 1), AckInRecovery::Exit);
        assert_eq!(w.cwnd(), 3.0, "cwnd_ alone");
        let (mut rfc, mut w2) = (Recovery::new_reno(), Window::new(4.0, 5.0));
        rfc.on_ack(&mut cc, &mut w2, true, 1, 0, 1);
        assert_eq!(w2.cwnd(), 2.0, "RFC 6582: min(ssthresh, FlightSize + 1)");
        let mut w = Window::new(10.0, f64::INFINITY);
        r.enter(&mut cc, &mut w, &loss());
        r.on_dupack(&mut w);
        assert_eq!(r.on_ack(&mut cc, &mut w, true, 9, 0, 1), AckInRecovery::Exit);
        assert_eq!((w.cwnd(), w.ssthresh()), (5.0, 5.0), "ssthresh: no slow start after it");
    }
}
