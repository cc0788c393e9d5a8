//! ns-2's one-way connection start (ns2 profile; ns-default.tcl `syn_` true and
//! `delay_growth_` true for every `Agent/TCP`). The window is one segment at first
//! (`set_initial_window`) and becomes `windowInit_` (`initial_window()`) on the new ACK that
//! finds or leaves `last_ack_` at 0. The Reno, NewReno and Sack1 agents send a SYN as
//! segment 0: 40 bytes, no data (`tcpip_base_hdr_size_`, tcp.cc `output`), so their data are
//! segments 1, 2, ...; the Vegas agent has its own `output` without it, and its segment 0
//! carries data. The SYN is otherwise a segment like another: timed, resent on a timeout.
//!
//! Where the window is reset differs by agent: the Reno agents after taking in the ACK that
//! leaves `last_ack_` at 0, the SYN's (tcp-reno.cc, tcp-newreno.cc, tcp-sack1.cc `recv`); the
//! Vegas agent before taking in the next new ACK (tcp-vegas.cc `recv` tests `last_ack_ == 0`
//! first), so it sends segment 0 alone, then segment 1 alone, then three.

use super::*;

impl TcpSender {
    /// The window before the first ACK: one segment with `delay_growth_`.
    pub(super) fn opening_window(cfg: &SenderConfig) -> f64 {
        if cfg.delay_growth {
            1.0
        } else {
            cfg.initial_window
        }
    }

    /// The first data segment: 1 after a SYN, else 0.
    pub fn first_data(&self) -> SeqNo {
        SeqNo::ZERO + u32::from(self.cfg.syn)
    }

    /// `delay_growth_`: with `una` at 1 (ns-2's `last_ack_` = snd_una - 1 at 0), the window
    /// becomes the initial window.
    pub(super) fn syn_growth(&mut self, una: SeqNo) {
        if self.cfg.delay_growth && una == SeqNo::ZERO + 1 {
            self.w.set_cwnd(self.cfg.initial_window);
        }
    }
}
