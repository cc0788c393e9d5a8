// What mesh_tcp.cc counts, and the trace sinks that count it: per flow (its sender socket
// and sink) and over all nodes (MAC, queue, IP and routing traffic).
#pragma once

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mesh-module.h"
#include "ns3/network-module.h"
#include "ns3/olsr-module.h"
#include "ns3/wifi-module.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace hopsim::mesh
{

using namespace ns3;

// AODV's UDP port (RFC 3561 section 4).
constexpr uint16_t AODV_PORT = 654;
constexpr uint16_t OLSR_PORT = 698; // RFC 3626 section 3.1
constexpr uint16_t FIRST_PORT = 5000;

// What one flow's sender socket and sink record.
struct FlowCounters
{
    uint32_t src = 0;
    uint32_t dst = 0;
    double startS = 0.0;
    uint64_t segmentsSent = 0;    // data segments handed to IP, retransmissions included
    uint64_t retransmissions = 0; // data segments starting below the highest byte sent so far
    uint32_t highestSentEnd = 0;  // one past the highest sequence sent (relative to the ISN)
    bool anySent = false;
    uint32_t isn = 0;
    uint64_t fastRecoveries = 0; // entries into CA_RECOVERY
    uint64_t timeouts = 0;       // entries into CA_LOSS
    double rttSumMs = 0.0;
    uint64_t rttSamples = 0;
    uint64_t bytesInWindow = 0; // bytes the sink received in [warmup, duration]
    uint64_t bytesTotal = 0;
    std::map<uint32_t, uint64_t> sentBy; // data segments each node sent (originated or relayed)
    // A paced UDP flow (intervalS > 0): a datagram of `datagramBytes` every intervalS.
    double intervalS = 0.0;
    uint32_t datagramBytes = 0;
    uint64_t packetsReceived = 0;
    Ptr<UdpClient> udpSource;
};

// Totals over all nodes.
struct Totals
{
    uint64_t retryLimitDrops = 0;
    uint64_t expiredDrops = 0; // MPDUs past the queue's MaxDelay (msduLifetimeS)
    uint64_t macTx = 0;
    uint64_t enqueued = 0;
    uint64_t macRetries = 0;
    uint64_t tcDrops = 0;
    uint64_t routingPackets = 0; // AODV or OLSR packets sent, each hop of a relayed one counted
    uint64_t routingBytes = 0;   // their IP bytes
    // OLSR messages sent by kind (olsr_hello, olsr_tc, ...): count and bytes with headers.
    std::map<std::string, std::pair<uint64_t, uint64_t>> routingMessages;
    std::map<std::string, uint64_t> hwmpReport; // HwmpProtocol's counters, summed
    std::map<std::string, uint64_t> ipDrops;
    std::map<std::string, uint64_t> phyRxDrops;
    double warmupS = 0.0;
};

inline std::vector<FlowCounters> flows;
// Mesh points relay below IP: each flow's carriers are then counted on the air (OnMeshDataTx).
inline bool carriersOnAir = false;
inline Totals tot;

inline void
OnTx(size_t f, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    FlowCounters& c = flows[f];
    const uint32_t len = p->GetSize();
    if (len == 0)
    {
        return; // SYN, pure ACK, FIN: not data
    }
    const uint32_t seq = h.GetSequenceNumber().GetValue();
    if (!c.anySent)
    {
        c.anySent = true;
        c.isn = seq;
    }
    const uint32_t rel = seq - c.isn;
    c.segmentsSent++;
    if (rel < c.highestSentEnd)
    {
        c.retransmissions++;
    }
    if (rel + len > c.highestSentEnd)
    {
        c.highestSentEnd = rel + len;
    }
}

inline void
OnCongState(size_t f, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    if (now == TcpSocketState::CA_RECOVERY)
    {
        flows[f].fastRecoveries++;
    }
    else if (now == TcpSocketState::CA_LOSS)
    {
        flows[f].timeouts++;
    }
}

inline void
OnLastRtt(size_t f, Time, Time now)
{
    if (now.IsStrictlyPositive())
    {
        flows[f].rttSumMs += now.GetSeconds() * 1e3;
        flows[f].rttSamples++;
    }
}

inline void
OnSinkRx(size_t f, Ptr<const Packet> p, const Address&)
{
    flows[f].bytesTotal += p->GetSize();
    flows[f].packetsReceived++;
    if (Simulator::Now().GetSeconds() >= tot.warmupS)
    {
        flows[f].bytesInWindow += p->GetSize();
    }
}

inline void
HookSocket(size_t f, Ptr<BulkSendApplication> app)
{
    Ptr<TcpSocketBase> s = DynamicCast<TcpSocketBase>(app->GetSocket());
    NS_ABORT_MSG_IF(!s, "the bulk sender of flow " << f << " has no TCP socket");
    s->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, f));
    s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, f));
    s->TraceConnectWithoutContext("LastRTT", MakeBoundCallback(&OnLastRtt, f));
}

inline void
OnMacDrop(WifiMacDropReason reason, Ptr<const WifiMpdu>)
{
    if (reason == WIFI_MAC_DROP_REACHED_RETRY_LIMIT)
    {
        tot.retryLimitDrops++;
    }
    else if (reason == WIFI_MAC_DROP_EXPIRED_LIFETIME)
    {
        tot.expiredDrops++;
    }
}

inline void
OnMacTx(Ptr<const Packet>)
{
    tot.macTx++;
}

inline void
OnMacTxFailed(Mac48Address)
{
    tot.macRetries++;
}

inline void
OnTcDrop(Ptr<const Packet>)
{
    tot.tcDrops++;
}

inline void
OnEnqueue(Ptr<const WifiMpdu> mpdu)
{
    if (mpdu->GetHeader().IsData())
    {
        tot.enqueued++;
    }
}

// Every IP packet a node sends (originated or forwarded): AODV's messages counted, and which
// nodes carry each flow's data segments (its routes).
inline void
OnIpTx(Ptr<const Packet> p, Ptr<Ipv4> ipv4, uint32_t)
{
    Ptr<Packet> copy = p->Copy();
    Ipv4Header ip;
    copy->RemoveHeader(ip);
    if (ip.GetProtocol() == TcpL4Protocol::PROT_NUMBER)
    {
        TcpHeader tcp;
        copy->RemoveHeader(tcp);
        const uint32_t f = tcp.GetDestinationPort() - FIRST_PORT;
        if (!carriersOnAir && copy->GetSize() > 0 && tcp.GetDestinationPort() >= FIRST_PORT &&
            f < flows.size())
        {
            flows[f].sentBy[ipv4->GetObject<Node>()->GetId()]++;
        }
        return;
    }
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
    {
        return;
    }
    UdpHeader udp;
    copy->PeekHeader(udp);
    if (udp.GetDestinationPort() == AODV_PORT || udp.GetDestinationPort() == OLSR_PORT)
    {
        tot.routingPackets++;
        tot.routingBytes += p->GetSize();
    }
}

// An OLSR packet sent (ns3::olsr::RoutingProtocol "Tx"): its messages counted by kind.
inline void
OnOlsrTx(const olsr::PacketHeader&, const olsr::MessageList& messages)
{
    for (const auto& m : messages)
    {
        const char* kind = m.GetMessageType() == olsr::MessageHeader::HELLO_MESSAGE ? "olsr_hello"
                           : m.GetMessageType() == olsr::MessageHeader::TC_MESSAGE  ? "olsr_tc"
                                                                                    : "olsr_other";
        auto& e = tot.routingMessages[kind];
        e.first++;
        e.second += m.GetSerializedSize();
    }
}

inline void
OnIpDrop(const Ipv4Header&, Ptr<const Packet>, Ipv4L3Protocol::DropReason reason, Ptr<Ipv4>,
         uint32_t)
{
    static const std::map<int, std::string> names = {
        {Ipv4L3Protocol::DROP_TTL_EXPIRED, "ttl_expired"},
        {Ipv4L3Protocol::DROP_NO_ROUTE, "no_route"},
        {Ipv4L3Protocol::DROP_BAD_CHECKSUM, "bad_checksum"},
        {Ipv4L3Protocol::DROP_INTERFACE_DOWN, "interface_down"},
        {Ipv4L3Protocol::DROP_ROUTE_ERROR, "route_error"},
        {Ipv4L3Protocol::DROP_FRAGMENT_TIMEOUT, "fragment_timeout"},
        {Ipv4L3Protocol::DROP_DUPLICATE, "duplicate"},
    };
    auto it = names.find(reason);
    tot.ipDrops[it == names.end() ? "other" : it->second]++;
}

inline void
OnPhyRxDrop(Ptr<const Packet>, WifiPhyRxfailureReason reason)
{
    std::ostringstream name;
    name << reason;
    tot.phyRxDrops[name.str()]++;
}

// A mesh data frame node `node` puts on the air for the first time (retries not counted): the
// TCP data segment inside it (Mesh Control, LLC/SNAP, IP, TCP) counted for its flow's
// carriers, as OnIpTx counts them where IP forwards.
inline void
OnMeshDataTx(uint32_t node, WifiConstPsduMap psdus, WifiTxVector, double)
{
    for (const auto& [id, psdu] : psdus)
    {
        for (auto it = psdu->begin(); it != psdu->end(); ++it)
        {
            const WifiMacHeader& h = (*it)->GetHeader();
            if (!h.IsData() || h.IsRetry())
            {
                continue;
            }
            Ptr<Packet> copy = (*it)->GetPacket()->Copy();
            dot11s::MeshHeader mesh;
            LlcSnapHeader llc;
            Ipv4Header ip;
            copy->RemoveHeader(mesh);
            copy->RemoveHeader(llc);
            if (llc.GetType() != Ipv4L3Protocol::PROT_NUMBER)
            {
                continue;
            }
            copy->RemoveHeader(ip);
            if (ip.GetProtocol() != TcpL4Protocol::PROT_NUMBER)
            {
                continue;
            }
            TcpHeader tcp;
            copy->RemoveHeader(tcp);
            const uint32_t f = tcp.GetDestinationPort() - FIRST_PORT;
            if (copy->GetSize() > 0 && tcp.GetDestinationPort() >= FIRST_PORT && f < flows.size())
            {
                flows[f].sentBy[node]++;
            }
        }
    }
}

} // namespace hopsim::mesh
