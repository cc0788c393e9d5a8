//! TCP over the chain: every run checks the invariants (conservation, in-order delivery).

mod common;

fn chain_tcp(hops: u32, tcp: &str, extra: &str) -> String {
    format!(
        "duration_s = 100.0\nwarmup_s = 10.0\n{extra}\n[topology]\nkind = \"chain\"\nhops = {hops}\nspacing_m = 200.0\n\
         [[flows]]\nsrc = 0\ndst = {hops}\ntransport = \"tcp\"\n[flows.tcp]\n{tcp}\n"
    )
}

#[test]
fn print_chain() {
    for hops in [1u32, 2, 4, 7, 8, 12, 16] {
        for tcp in [
            "variant = \"newreno\"",
            "variant = \"newreno\"\nmax_window = 2",
            "variant = \"sack\"",
            "variant = \"reno\"",
            "ack_thinning = true",
        ] {
            let r = common::run_checked(&chain_tcp(hops, tcp, ""));
            let f = &r.flows[0];
            let t = f.tcp.as_ref().unwrap();
            println!(
                "h {hops:2} {:<32} {:7.1} kbps retx {:5} to {:3} fr {:4} cwnd {:5.2} acks {:6} rtt {:?} ss {:?} coll {} drops {}",
                tcp.replace('\n', " "), f.goodput_kbps, t.retransmissions, t.timeouts, t.fast_retransmits, t.avg_cwnd.unwrap_or(0.0), t.acks_sent, t.rtt_ms.mean, t.slow_start_fraction, r.totals.collisions, r.totals.retry_limit_drops
            );
        }
    }
}
