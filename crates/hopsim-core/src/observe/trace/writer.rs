//! Trace files of a run: one radiotap + 802.11 pcap per node (`node-<id>.pcap`, every frame the
//! node sent or received correctly) and/or one raw-IPv4 pcap per flow endpoint
//! (`flow-<flow>-node-<id>.pcap`, every IP packet of the flow the endpoint sent or received).
//!
//! Files are created on first use and written through a `BufWriter`; frames are encoded into one
//! reused buffer, so tracing allocates nothing per frame. The first I/O error is kept, further
//! trace calls are then ignored, and [`PcapTracer::finish`] returns it: tracing never panics.
//! Records go to each file in call order, so calls must come in non-decreasing time per file.

use crate::ids::{FlowId, NodeId};
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufWriter};
use std::path::PathBuf;

use super::pcap::{
    encode_ipv4, encode_radiotap_80211, PcapWriter, LINKTYPE_IEEE802_11_RADIOTAP, LINKTYPE_RAW,
};
use super::{TraceFrame, TraceIp};

type FileWriter = PcapWriter<BufWriter<File>>;

/// Buffer size of each trace file.
const FILE_BUFFER: usize = 64 * 1024;

/// Writer of the pcap traces of one run.
pub struct PcapTracer {
    node_dir: Option<PathBuf>,
    flow_dir: Option<PathBuf>,
    /// Per-node files, indexed by node id (created on first use).
    nodes: Vec<Option<FileWriter>>,
    /// Per-(flow, node) files.
    flows: BTreeMap<(FlowId, NodeId), FileWriter>,
    scratch: Vec<u8>,
    /// The packets of an A-MSDU being written (ip_image.rs).
    pub(super) amsdu: Vec<TraceIp>,
    /// The body of the Mesh action frame, or the OLSR packet, being recorded.
    pub(super) body: Vec<u8>,
    error: Option<io::Error>,
    channel_mhz: u16,
    qos: bool,
}

/// A forked run traces nothing (`World::fork` refuses a run whose traces are on): the copy
/// has no folders and no files.
impl Clone for PcapTracer {
    fn clone(&self) -> Self {
        PcapTracer {
            node_dir: None,
            flow_dir: None,
            nodes: Vec::new(),
            flows: BTreeMap::new(),
            scratch: Vec::new(),
            amsdu: Vec::new(),
            body: Vec::new(),
            error: None,
            channel_mhz: self.channel_mhz,
            qos: self.qos,
        }
    }
}

impl PcapTracer {
    /// A tracer writing per-node radiotap traces into `per_node_dir` and per-flow-endpoint IP
    /// traces into `per_flow_ip_dir` (either may be absent); creates the directories.
    pub fn new(
        per_node_dir: Option<PathBuf>,
        per_flow_ip_dir: Option<PathBuf>,
    ) -> io::Result<Self> {
        for dir in per_node_dir.iter().chain(per_flow_ip_dir.iter()) {
            fs::create_dir_all(dir)
                .map_err(|e| with_path(e, "cannot create trace directory", dir))?;
        }
        Ok(PcapTracer {
            node_dir: per_node_dir,
            flow_dir: per_flow_ip_dir,
            nodes: Vec::new(),
            flows: BTreeMap::new(),
            scratch: Vec::with_capacity(2400),
            amsdu: Vec::new(),
            body: Vec::new(),
            error: None,
            channel_mhz: 2412,
            qos: false,
        })
    }

    /// The channel the radiotap headers name (802.11 channel 1, 2412 MHz, unless set).
    pub fn set_channel_mhz(&mut self, mhz: u16) {
        self.channel_mhz = mhz;
    }

    pub fn channel_mhz(&self) -> u16 {
        self.channel_mhz
    }

    /// Whether data frames are written as QoS Data (a QoS station's, 802.11n).
    pub fn set_qos(&mut self, qos: bool) {
        self.qos = qos;
    }

    pub fn qos(&self) -> bool {
        self.qos
    }

    /// Whether per-node (radiotap) traces are written.
    pub fn traces_frames(&self) -> bool {
        self.node_dir.is_some()
    }

    /// Whether per-flow-endpoint IP traces are written.
    pub fn traces_ip(&self) -> bool {
        self.flow_dir.is_some()
    }

    /// The first I/O error met so far, if any (tracing has stopped since).
    pub fn error(&self) -> Option<&io::Error> {
        self.error.as_ref()
    }

    /// Records a frame `node` transmitted (`f.time_ns` = start of transmission) or received
    /// correctly (`f.time_ns` = end of reception).
    /// A data frame's A-MSDU, if it carries one: `amsdu`, its packets in order; a Mesh
    /// action frame's body, or the UDP payload of a data frame's packet: `body`.
    pub fn frame(&mut self, node: NodeId, f: &TraceFrame, amsdu: &[TraceIp], body: &[u8]) {
        let Some(dir) = &self.node_dir else { return };
        if self.error.is_some() {
            return;
        }
        let idx = node.index();
        if self.nodes.len() <= idx {
            self.nodes.resize_with(idx + 1, || None);
        }
        let slot = &mut self.nodes[idx];
        if slot.is_none() {
            let path = dir.join(format!("node-{node}.pcap"));
            match open(path, LINKTYPE_IEEE802_11_RADIOTAP) {
                Ok(w) => *slot = Some(w),
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            }
        }
        let w = slot.as_mut().expect("opened above");
        encode_radiotap_80211(&mut self.scratch, f, amsdu, body);
        if let Err(e) = w.write_record(f.time_ns, &self.scratch, self.scratch.len() as u32) {
            self.error = Some(e);
        }
    }

    /// Records an IP packet of `flow` that endpoint `node` sent or received at `time_ns`.
    pub fn ip_packet(&mut self, flow: FlowId, node: NodeId, time_ns: u64, ip: &TraceIp) {
        let Some(dir) = &self.flow_dir else { return };
        if self.error.is_some() {
            return;
        }
        let w = match self.flows.entry((flow, node)) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => {
                let path = dir.join(format!("flow-{flow}-node-{node}.pcap"));
                match open(path, LINKTYPE_RAW) {
                    Ok(w) => e.insert(w),
                    Err(err) => {
                        self.error = Some(err);
                        return;
                    }
                }
            }
        };
        encode_ipv4(&mut self.scratch, ip);
        if let Err(e) = w.write_record(time_ns, &self.scratch, self.scratch.len() as u32) {
            self.error = Some(e);
        }
    }

    /// Flushes every file; returns the first error met while tracing or flushing.
    pub fn finish(mut self) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        for w in self.nodes.iter_mut().flatten() {
            w.flush()?;
        }
        // Flush in a fixed order so that an error report does not depend on hashing.
        let mut keys: Vec<_> = self.flows.keys().copied().collect();
        keys.sort_unstable();
        for k in keys {
            self.flows.get_mut(&k).expect("key listed").flush()?;
        }
        Ok(())
    }
}

fn with_path(e: io::Error, what: &str, path: &std::path::Path) -> io::Error {
    io::Error::new(e.kind(), format!("{what} {}: {e}", path.display()))
}

fn open(path: PathBuf, linktype: u32) -> io::Result<FileWriter> {
    let file = File::create(&path).map_err(|e| with_path(e, "cannot create trace file", &path))?;
    PcapWriter::new(BufWriter::with_capacity(FILE_BUFFER, file), linktype)
        .map_err(|e| with_path(e, "cannot write trace file", &path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::trace::{TraceKind, TraceTransport};

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hopsim-writer-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn ip() -> TraceIp {
        TraceIp {
            src_node: NodeId(0),
            dst_node: NodeId(1),
            ttl: 64,
            tos: 0,
            ident: 1,
            transport: TraceTransport::Udp { src_port: 1, dst_port: 2 },
            payload_len: 10,
            head: [0; 24],
            head_len: 0,
        }
    }

    fn ack() -> TraceFrame {
        TraceFrame {
            time_ns: 1,
            kind: TraceKind::Ack,
            ra: NodeId(0),
            ta: NodeId(1),
            duration_us: 0,
            seq: 0,
            retry: false,
            rate_500kbps: 2,
            mcs: None,
            qos: false,
            bitmap: 0,
            ampdu: None,
            channel_mhz: 2412,
            ip: None,
        }
    }

    #[test]
    fn writes_files_lazily() {
        let base = temp_dir("lazy");
        let (nd, fd) = (base.join("nodes"), base.join("flows"));
        let mut t = PcapTracer::new(Some(nd.clone()), Some(fd.clone())).unwrap();
        assert!(nd.is_dir() && fd.is_dir());
        t.frame(NodeId(3), &ack(), &[], &[]);
        t.frame(NodeId(3), &ack(), &[], &[]);
        t.ip_packet(FlowId(2), NodeId(1), 5, &ip());
        t.finish().unwrap();
        let node3 = fs::read(nd.join("node-3.pcap")).unwrap();
        assert_eq!(node3.len(), 24 + 2 * (16 + 14 + 14));
        let flow = fs::read(fd.join("flow-2-node-1.pcap")).unwrap();
        assert_eq!(flow.len(), 24 + 16 + 38);
        assert_eq!(fs::read_dir(&nd).unwrap().count(), 1);
        fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn disabled_outputs_write_nothing() {
        let mut t = PcapTracer::new(None, None).unwrap();
        assert!(!t.traces_frames() && !t.traces_ip());
        t.frame(NodeId(0), &ack(), &[], &[]);
        t.ip_packet(FlowId(0), NodeId(0), 0, &ip());
        t.finish().unwrap();
    }

    #[test]
    fn unusable_directory_is_an_error_not_a_panic() {
        let base = temp_dir("bad");
        fs::create_dir_all(&base).unwrap();
        let file = base.join("plain-file");
        fs::write(&file, b"x").unwrap();
        // A directory below a regular file cannot be created (even as root).
        let err = PcapTracer::new(Some(file.join("sub")), None).err().unwrap();
        assert!(err.to_string().contains("plain-file"), "{err}");

        // The directory disappears after creation: the error comes back from finish().
        let dir = base.join("gone");
        let mut t = PcapTracer::new(None, Some(dir.clone())).unwrap();
        fs::remove_dir(&dir).unwrap();
        t.ip_packet(FlowId(0), NodeId(0), 0, &ip());
        assert!(t.error().is_some());
        t.ip_packet(FlowId(0), NodeId(0), 1, &ip());
        assert!(t.finish().is_err());
        fs::remove_dir_all(&base).unwrap();
    }
}
