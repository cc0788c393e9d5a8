//! ns-2.35's DSR flow state (dsragent.cc `dsragent_enable_flowstate`, on), at the source:
//! a flow is a (destination, source route); the first packets of a flow and one every
//! `min_adv_interval` carry the source route, the others travel without one (the
//! forwarders' flow tables carry them), so that nobody on the way or listening learns from
//! them. `sendOutPacketWithRoute`, flowstruct.cc `FlowTable`. The forwarders' tables are not
//! modelled: such a packet keeps its route inside hopsim, off the air (`Packet::flow_only`).

use super::{DsrNode, SrcRoute};
use crate::engine::time::{SimDuration, SimTime};
use crate::ids::NodeId;

/// flowstruct.h `END_TO_END_COUNT`: packets after the first that still carry the route.
const END_TO_END_COUNT: u32 = 2;
/// dsragent.cc `min_adv_interval`: the route is carried again after 5 s.
const MIN_ADV_INTERVAL_NS: SimDuration = 5_000_000_000;
/// dsragent.cc `default_flow_timeout`: a flow unused for 60 s is forgotten.
const FLOW_TIMEOUT_NS: SimDuration = 60_000_000_000;

#[derive(Debug, Clone, Copy)]
struct Flow {
    dst: NodeId,
    route: SrcRoute,
    id: u32,
    count: u32,
    last_adv: SimTime,
    timeout: SimTime,
    /// flowstruct.cc `noticeDeadLink` expired it.
    dead: bool,
}

impl Flow {
    fn live(&self, now: SimTime) -> bool {
        !self.dead && self.timeout >= now
    }
}

/// The source's flow table (flowstruct.cc `FlowTable`, `DRTable`).
#[derive(Debug, Clone, Default)]
pub(super) struct FlowTable {
    flows: Vec<Flow>,
    /// The default flow per destination: the newest one created (`DRTable::insert`).
    defaults: Vec<(NodeId, u32)>,
    next_id: u32,
}

/// How a packet of this node leaves on a route (ns-2 `sendOutPacketWithRoute`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlowSend {
    /// The route to use (the default flow's when it is no longer than the cache's).
    pub route: SrcRoute,
    /// The route is on the air (`num_addrs` kept), else the packet is flow-only.
    pub carried: bool,
    /// ns-2's DSR header bytes (`hdr_sr::size`): SR_HDR_SZ 4, 4 per address after the
    /// first, 4 for the flow timeout and 4 for the flow header; 0 on the default flow.
    pub header_bytes: u32,
}

impl FlowTable {
    fn default_of(&self, dst: NodeId) -> Option<u32> {
        self.defaults.iter().find(|d| d.0 == dst).map(|d| d.1)
    }

    /// The newest flow to `dst` on `route` (`FlowTable::find` searches from the end).
    fn find(&self, dst: NodeId, route: &SrcRoute) -> Option<usize> {
        self.flows.iter().rposition(|f| f.dst == dst && f.route.nodes().eq(route.nodes()))
    }

    fn send(&mut self, dst: NodeId, mut route: SrcRoute, now: SimTime) -> FlowSend {
        // dsragent_prefer_default_flow, dsragent_prefer_shorter_over_default.
        if let Some(id) = self.default_of(dst) {
            if let Some(f) = self.flows.iter().rev().find(|f| f.dst == dst && f.id == id) {
                if f.live(now) && f.route.len() <= route.len() {
                    route = f.route;
                }
            }
        }
        let carried = match self.find(dst, &route) {
            Some(i) if self.flows[i].live(now) => {
                let f = &mut self.flows[i];
                if f.count <= END_TO_END_COUNT || f.last_adv + MIN_ADV_INTERVAL_NS < now {
                    f.count += 1;
                    f.last_adv = now;
                    true
                } else {
                    false
                }
            }
            _ => {
                // A new flow (generateNextFlowId with allowDefault): it becomes the default.
                self.flows.retain(|f| f.live(now));
                self.next_id += 1;
                let id = self.next_id;
                let flow =
                    Flow { dst, route, id, count: 1, last_adv: now, timeout: 0, dead: false };
                self.flows.push(flow);
                match self.defaults.iter_mut().find(|d| d.0 == dst) {
                    Some(d) => d.1 = id,
                    None => self.defaults.push((dst, id)),
                }
                true
            }
        };
        let i = self.find(dst, &route).expect("the flow exists");
        self.flows[i].timeout = now + FLOW_TIMEOUT_NS; // dsragent_always_reestablish
        let default = self.default_of(dst) == Some(self.flows[i].id);
        let header_bytes = if carried {
            (4 + 4 * (route.len() as u32 - 1) + 4 + 4).next_multiple_of(4)
        } else if default {
            0
        } else {
            4 + 4 // SR_HDR_SZ and the flow header (flow id)
        };
        FlowSend { route, carried, header_bytes }
    }

    /// flowstruct.cc `noticeDeadLink`: flows over the link `a -> b` expire.
    fn dead_link(&mut self, a: NodeId, b: NodeId) {
        for f in self.flows.iter_mut() {
            if f.route.has_directed_link(a, b).is_some() {
                f.dead = true;
            }
        }
    }
}

impl DsrNode {
    /// ns2: a packet of this node leaves on `route` to `dst`: the flow state decides the
    /// route and whether it is on the air.
    pub fn flow_send(&mut self, dst: NodeId, route: SrcRoute, now: SimTime) -> FlowSend {
        self.flows.send(dst, route, now)
    }

    pub(super) fn flows_dead_link(&mut self, a: NodeId, b: NodeId) {
        self.flows.dead_link(a, b);
    }
}
