mod common;

#[test]
fn one_hop_saturated_prints() {
    for rts in [0, 3000] {
        for rate in [1.0, 2.0, 5.5, 11.0] {
            let r = common::run_checked(&format!(
                "duration_s = 20.0\n[topology]\nkind=\"chain\"\nhops=1\nspacing_m=200.0\n[mac]\ndata_rate_mbps={rate}\nrts_threshold_bytes={rts}\n[[flows]]\nsrc=0\ndst=1\n"
            ));
            println!(
                "rts {rts} rate {rate}: {:.2} kbps, coll {} retries {}",
                r.flows[0].goodput_kbps, r.totals.collisions, r.totals.mac_retries
            );
        }
    }
}
