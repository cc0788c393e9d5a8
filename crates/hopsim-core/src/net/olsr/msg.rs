//! OLSR's messages (RFC 3626 section 3.3, 6.1, 9.1) and their sizes on the wire (IPv4): what a
//! node sends is what its neighbours' state is built from. One interface per node, its
//! address the node's main address, so no MID messages are ever needed (section 5).

use crate::ids::NodeId;

/// RFC 3626 6.1.1 link types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinkType {
    Unspec,
    Asym,
    Sym,
    Lost,
}

/// RFC 3626 6.1.1 neighbour types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NeighborType {
    Not,
    Sym,
    Mpr,
}

/// RFC 3626 18.8 willingness values (scenario key `routing.olsr_willingness`).
pub const WILL_NEVER: u8 = 0;
pub const WILL_LOW: u8 = 1;
pub const WILL_DEFAULT: u8 = 3;
pub const WILL_HIGH: u8 = 6;
pub const WILL_ALWAYS: u8 = 7;

/// A HELLO (section 6.1): the sender's links and neighbours, each with its link code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hello {
    pub willingness: u8,
    pub links: Vec<(NodeId, LinkType, NeighborType)>,
}

/// A TC (section 9.1): the originator's advertised neighbours (its MPR selectors) with the
/// advertised neighbour sequence number.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tc {
    pub ansn: u16,
    pub advertised: Vec<NodeId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    Hello(Hello),
    Tc(Tc),
}

/// A message with its header (section 3.3.2): originator, sequence number, TTL and hop
/// count, and the validity time the receivers give what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub originator: NodeId,
    pub seq: u16,
    pub ttl: u8,
    pub hops: u8,
    pub vtime_ns: u64,
    pub body: Body,
}

/// IPv4 address bytes.
const ADDR: u32 = 4;
/// Section 3.3: the packet header (length, sequence number).
pub const PACKET_HEADER_BYTES: u32 = 4;
/// Section 3.3.2: a message header (type, Vtime, size, originator, TTL, hops, sequence).
pub const MESSAGE_HEADER_BYTES: u32 = 12;

impl Message {
    /// Bytes of the message on the wire, its header included (section 6.1: a HELLO's fixed
    /// 4 bytes, then per link code a 4-byte header and the addresses; section 9.1: a TC's 4
    /// bytes and the addresses).
    pub fn bytes(&self) -> u32 {
        MESSAGE_HEADER_BYTES
            + match &self.body {
                Body::Hello(h) => {
                    let mut codes: Vec<(LinkType, NeighborType)> =
                        h.links.iter().map(|&(_, l, n)| (l, n)).collect();
                    codes.sort_by_key(|c| (c.0 as u8, c.1 as u8));
                    codes.dedup();
                    4 + 4 * codes.len() as u32 + ADDR * h.links.len() as u32
                }
                Body::Tc(t) => 4 + ADDR * t.advertised.len() as u32,
            }
    }
}
