//! The event trace: one row per event at every layer, streamed to a CSV file as the run goes
//! (a buffered writer: memory stays bounded whatever the run's length). Python turns it into
//! Parquet (`hopsim.run(..., trace=...)`, `hopsim run --trace`). Off unless asked for: the
//! world then holds no trace and each place that could report an event tests one `Option`.

use crate::engine::time::SimTime;
use crate::ids::NodeId;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Where an event happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    Phy,
    Mac,
    /// The interface queue.
    Ifq,
    Net,
    Transport,
    App,
}

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// A frame starts or ends on the air at its transmitter (`frame_kind`: rts, cts, data,
    /// ack).
    FrameStart,
    FrameEnd,
    /// A listener's reception ended: decoded, or lost (`reason`).
    RxOk,
    RxError,
    /// ns-2 capture: a stronger frame arriving took the receiver from the one it was on.
    Capture,
    /// The MAC drew a backoff (`value`: slots) or set its NAV (`value`: until, s).
    Backoff,
    Nav,
    Enqueue,
    Dequeue,
    Drop,
    /// An AQM marked the packet Congestion Experienced (`reason`: the discipline).
    Mark,
    /// Routing control sent.
    RouteRequest,
    RouteReply,
    RouteError,
    /// A HELLO or an ETX probe.
    RouteBeacon,
    /// The MAC gave up on the next hop (retry limit): routing hears of a broken link.
    LinkFailure,
    /// A packet waits for a route at this node, or goes on once one is found.
    Hold,
    Release,
    /// A transport endpoint sends: a new segment or datagram, a retransmission, an ACK.
    Send,
    Retransmission,
    Ack,
    /// A transport endpoint receives a packet of its flow.
    Receive,
    Timeout,
    /// The sender's congestion window changed (`value`: segments).
    Window,
}

/// Why a frame or packet was lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Decodable, but lost to overlap with another frame.
    Collision,
    /// Injected frame error (`radio.frame_error_rate`).
    FrameError,
    /// Lost to the link's Gilbert-Elliott state (`[radio.gilbert_elliott]`).
    ChannelLoss,
    /// Too weak to decode (carrier sense only), or the receiver was busy with another frame.
    NotDecoded,
    RetryLimit,
    QueueFull,
    /// Taken out of the queue after a link failure (ns-2 AODV's and DSR's queue filters).
    QueuePurge,
    NoRoute,
    /// A DSR source route that does not pass through the node holding the packet.
    BadSourceRoute,
    Ttl,
    /// Waited for a route longer than the limit, or the discovery failed.
    RouteTimeout,
    /// ns-2 DSR: salvaged too often.
    SalvageLimit,
    /// A TCP segment that had already arrived; at the MAC, a frame its receiver took for a
    /// retransmission of one it had (node/forward.rs `on_mac_done`).
    Duplicate,
    /// The AQM's drop or mark: RED (at enqueue), CoDel or FQ-CoDel (at dequeue).
    Red,
    Codel,
    FqCodel,
}

/// One row of the trace. `NONE` marks an empty id column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    pub time_ns: SimTime,
    pub node: u32,
    pub layer: Layer,
    pub event: EventKind,
    /// The frame on the air: transmitter and its frame counter (0: none).
    pub frame: u64,
    pub frame_kind: Option<FrameTag>,
    /// The packet's id, the same at every hop (0: none).
    pub packet: u64,
    /// What the packet carries: tcp, ack, udp, aodv, dsr, etx.
    pub packet_kind: Option<PacketTag>,
    pub flow: u32,
    pub seq: u32,
    pub peer: u32,
    /// The packet's IP source and destination (`NONE` for broadcast) and its TTL.
    pub src: u32,
    pub dst: u32,
    pub ttl: u32,
    pub reason: Option<Reason>,
    pub bytes: u32,
    pub value: f64,
}

pub const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameTag {
    Rts,
    Cts,
    Data,
    Ack,
    BlockAckReq,
    BlockAck,
    /// An ADDBA Request or Response (Block Ack Action frames).
    Action,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PacketTag {
    Tcp,
    /// A TCP ACK (no payload).
    Ack,
    Udp,
    Aodv,
    Dsr,
    Etx,
    Olsr,
    Hwmp,
}

impl Row {
    /// A row with every optional column empty.
    pub fn new(time_ns: SimTime, node: NodeId, layer: Layer, event: EventKind) -> Row {
        Row {
            time_ns,
            node: node.0,
            layer,
            event,
            frame: 0,
            frame_kind: None,
            packet: 0,
            packet_kind: None,
            flow: NONE,
            seq: NONE,
            peer: NONE,
            src: NONE,
            dst: NONE,
            ttl: NONE,
            reason: None,
            bytes: 0,
            value: f64::NAN,
        }
    }
}

/// The CSV header: the columns, in order (their meaning in docs/interfaces.md).
pub const COLUMNS: [&str; 18] = [
    "time_s",
    "node",
    "layer",
    "event",
    "frame",
    "frame_kind",
    "packet",
    "packet_kind",
    "flow",
    "seq",
    "peer",
    "src",
    "dst",
    "ttl",
    "reason",
    "bytes",
    "value",
    "time_ns",
];

/// Streams rows to a CSV file; the first write error is kept and reported at the end (the
/// run itself goes on: its results never depend on the trace).
pub struct EventTrace {
    out: BufWriter<File>,
    rows: u64,
    error: Option<std::io::Error>,
}

impl EventTrace {
    pub fn create(path: &Path) -> std::io::Result<EventTrace> {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
        writeln!(out, "{}", COLUMNS.join(","))?;
        Ok(EventTrace { out, rows: 0, error: None })
    }

    pub fn rows(&self) -> u64 {
        self.rows
    }

    pub fn write(&mut self, r: &Row) {
        if self.error.is_some() {
            return;
        }
        self.rows += 1;
        if let Err(e) = write_row(&mut self.out, r) {
            self.error = Some(e);
        }
    }

    /// Flush the file; the first error of the run, if any.
    pub fn finish(mut self) -> std::io::Result<u64> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.rows)
    }
}

fn write_row(out: &mut impl Write, r: &Row) -> std::io::Result<()> {
    // Seconds with nanosecond resolution, written from the integer (no float rounding).
    write!(out, "{}.{:09},{},", r.time_ns / 1_000_000_000, r.time_ns % 1_000_000_000, r.node)?;
    write!(out, "{},{},", layer_name(r.layer), event_name(r.event))?;
    id(out, r.frame)?;
    write!(out, "{},", r.frame_kind.map_or("", frame_name))?;
    id(out, r.packet)?;
    write!(out, "{},", r.packet_kind.map_or("", packet_name))?;
    for v in [r.flow, r.seq, r.peer, r.src, r.dst, r.ttl] {
        if v == NONE {
            write!(out, ",")?;
        } else {
            write!(out, "{v},")?;
        }
    }
    write!(out, "{},{},", r.reason.map_or("", reason_name), r.bytes)?;
    if r.value.is_nan() {
        write!(out, ",")?;
    } else {
        write!(out, "{},", r.value)?;
    }
    writeln!(out, "{}", r.time_ns)
}

fn id(out: &mut impl Write, v: u64) -> std::io::Result<()> {
    if v == 0 {
        write!(out, ",")
    } else {
        write!(out, "{v},")
    }
}

pub fn layer_name(l: Layer) -> &'static str {
    match l {
        Layer::Phy => "phy",
        Layer::Mac => "mac",
        Layer::Ifq => "ifq",
        Layer::Net => "net",
        Layer::Transport => "transport",
        Layer::App => "app",
    }
}

pub fn event_name(e: EventKind) -> &'static str {
    use EventKind::*;
    match e {
        FrameStart => "frame_start",
        FrameEnd => "frame_end",
        RxOk => "rx_ok",
        RxError => "rx_error",
        Capture => "capture",
        Backoff => "backoff",
        Nav => "nav",
        Enqueue => "enqueue",
        Dequeue => "dequeue",
        Drop => "drop",
        Mark => "mark",
        RouteRequest => "route_request",
        RouteReply => "route_reply",
        RouteError => "route_error",
        RouteBeacon => "route_beacon",
        LinkFailure => "link_failure",
        Hold => "hold",
        Release => "release",
        Send => "send",
        Retransmission => "retransmission",
        Ack => "ack",
        Receive => "receive",
        Timeout => "timeout",
        Window => "window",
    }
}

pub fn reason_name(r: Reason) -> &'static str {
    use Reason::*;
    match r {
        Collision => "collision",
        FrameError => "frame_error",
        ChannelLoss => "channel_loss",
        NotDecoded => "not_decoded",
        RetryLimit => "retry_limit",
        QueueFull => "queue_full",
        QueuePurge => "queue_purge",
        NoRoute => "no_route",
        BadSourceRoute => "bad_source_route",
        Ttl => "ttl",
        RouteTimeout => "route_timeout",
        SalvageLimit => "salvage_limit",
        Duplicate => "duplicate",
        Red => "red",
        Codel => "codel",
        FqCodel => "fq_codel",
    }
}

pub fn frame_name(k: FrameTag) -> &'static str {
    match k {
        FrameTag::Rts => "rts",
        FrameTag::Cts => "cts",
        FrameTag::Data => "data",
        FrameTag::Ack => "ack",
        FrameTag::BlockAckReq => "bar",
        FrameTag::BlockAck => "ba",
        FrameTag::Action => "action",
    }
}

pub fn packet_name(k: PacketTag) -> &'static str {
    match k {
        PacketTag::Tcp => "tcp",
        PacketTag::Ack => "ack",
        PacketTag::Udp => "udp",
        PacketTag::Aodv => "aodv",
        PacketTag::Dsr => "dsr",
        PacketTag::Etx => "etx",
        PacketTag::Olsr => "olsr",
        PacketTag::Hwmp => "hwmp",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_one_csv_line_with_every_column() {
        let mut r = Row::new(1_500_000_001, NodeId(3), Layer::Ifq, EventKind::Drop);
        r.packet = 42;
        r.packet_kind = Some(PacketTag::Tcp);
        r.flow = 0;
        r.seq = 17;
        r.reason = Some(Reason::QueueFull);
        r.bytes = 1500;
        let mut out = Vec::new();
        write_row(&mut out, &r).unwrap();
        let line = String::from_utf8(out).unwrap();
        assert_eq!(line, "1.500000001,3,ifq,drop,,,42,tcp,0,17,,,,,queue_full,1500,,1500000001\n");
        assert_eq!(line.trim_end().split(',').count(), COLUMNS.len());
    }
}
