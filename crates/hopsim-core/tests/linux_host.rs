//! The linux host profile on a chain (issue 16): what its mechanisms must show in a whole run.

mod common;

use hopsim_core::RunResult;

fn run(hops: u32, tcp: &str, seed: u64) -> RunResult {
    common::run_checked(&format!(
        "duration_s = 60.0\nwarmup_s = 5.0\nseed = {seed}\n[tcp]\n{tcp}\n[topology]\n\
         kind = \"chain\"\nhops = {hops}\nspacing_m = 200.0\n\
         [[flows]]\nsrc = 0\ndst = {hops}\ntransport = \"tcp\"\n"
    ))
}

/// Delayed ACKs with quick-ACK: one ACK per two segments at least (Linux's
/// `__tcp_ack_snd_check`), more only by the quick ACKs and the immediate ACKs of
/// out-of-order data after losses; far from ns-2's one per segment. (Timestamps' RTT per ACK
/// is shown on scripted exchanges in `transport/tcp/linux_tests.rs`.)
#[test]
fn linux_host_samples_rtt_per_ack_and_acks_every_second_segment() {
    for variant in ["newreno", "cubic"] {
        let linux = run(4, &format!("host = \"linux\"\nvariant = \"{variant}\""), 1);
        let t = linux.flows[0].tcp.clone().unwrap();
        let no_ts =
            run(4, &format!("host = \"linux\"\nvariant = \"{variant}\"\ntimestamps = false"), 1);
        let u = no_ts.flows[0].tcp.clone().unwrap();
        let (acks, segs) = (t.acks_sent as f64, t.segments_sent as f64);
        println!(
            "{variant}: goodput {:.1} kbit/s, retx {}, acks/segs {:.3}, rtt samples {} of {} ACKs \
             (no timestamps: {} of {}), mean rtt {:.1} ms",
            linux.flows[0].goodput_kbps,
            t.retransmissions,
            acks / segs,
            t.rtt_ms.samples,
            t.acks_sent,
            u.rtt_ms.samples,
            u.acks_sent,
            t.rtt_ms.mean.unwrap_or(f64::NAN)
        );
        assert!(linux.flows[0].goodput_kbps > 100.0);
        assert!(acks / segs > 0.49 && acks / segs < 0.75, "{variant}: {acks} ACKs for {segs}");
        assert!(t.rtt_ms.samples > 0 && u.rtt_ms.samples > 0);
    }
}

/// HyStart (Linux CUBIC's default): on one hop the queue builds in slow start, the RTT rises
/// more than the threshold of minimum RTT / 8 (at least 4 ms) once the window passes 16, and
/// slow start ends there instead of at the first loss of an overflowing queue.
#[test]
fn hystart_leaves_slow_start_before_the_queue_overflows_on_one_hop() {
    let with = run(1, "host = \"linux\"\nvariant = \"cubic\"", 1);
    let without = run(1, "host = \"linux\"\nvariant = \"cubic\"\nhystart = false", 1);
    let (a, b) = (with.flows[0].tcp.clone().unwrap(), without.flows[0].tcp.clone().unwrap());
    println!(
        "hystart: goodput {:.1} retx {} avg cwnd {:.1} rtt {:.1}; without: {:.1} retx {} avg cwnd {:.1} rtt {:.1}",
        with.flows[0].goodput_kbps,
        a.retransmissions,
        a.avg_cwnd.unwrap(),
        a.rtt_ms.mean.unwrap(),
        without.flows[0].goodput_kbps,
        b.retransmissions,
        b.avg_cwnd.unwrap(),
        b.rtt_ms.mean.unwrap()
    );
    // Slow start's overshoot into a full 50-packet queue loses a burst; HyStart avoids it.
    assert!(
        2 * a.retransmissions < b.retransmissions,
        "{} vs {}",
        a.retransmissions,
        b.retransmissions
    );
}
