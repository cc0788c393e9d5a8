// Bulk TCP flows over static 802.11 nodes placed anywhere (a grid, say), routed by ns-3's AODV
// or by host routes the driver gives: the scenario `python -m hopsim.crosscheck.ns3mesh` sets
// beside hopsim's. Every setting comes from the command line, written by the driver from a
// resolved hopsim scenario (the radio, MAC and TCP as chain_tcp.cc's, hopsim_common.h). Prints
// one JSON object on stdout: per flow, and totals over all nodes.

#include "hopsim_common.h"

#include "ns3/aodv-module.h"
#include "ns3/olsr-module.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/wifi-module.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using hopsim::ConnectAll;

namespace
{

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
    std::map<std::string, uint64_t> ipDrops;
    std::map<std::string, uint64_t> phyRxDrops;
    double warmupS = 0.0;
};

std::vector<FlowCounters> flows;
Totals tot;

void
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

void
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

void
OnLastRtt(size_t f, Time, Time now)
{
    if (now.IsStrictlyPositive())
    {
        flows[f].rttSumMs += now.GetSeconds() * 1e3;
        flows[f].rttSamples++;
    }
}

void
OnSinkRx(size_t f, Ptr<const Packet> p, const Address&)
{
    flows[f].bytesTotal += p->GetSize();
    if (Simulator::Now().GetSeconds() >= tot.warmupS)
    {
        flows[f].bytesInWindow += p->GetSize();
    }
}

void
HookSocket(size_t f, Ptr<BulkSendApplication> app)
{
    Ptr<TcpSocketBase> s = DynamicCast<TcpSocketBase>(app->GetSocket());
    NS_ABORT_MSG_IF(!s, "the bulk sender of flow " << f << " has no TCP socket");
    s->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, f));
    s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, f));
    s->TraceConnectWithoutContext("LastRTT", MakeBoundCallback(&OnLastRtt, f));
}

void
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

void
OnMacTx(Ptr<const Packet>)
{
    tot.macTx++;
}

void
OnMacTxFailed(Mac48Address)
{
    tot.macRetries++;
}

void
OnTcDrop(Ptr<const Packet>)
{
    tot.tcDrops++;
}

void
OnEnqueue(Ptr<const WifiMpdu> mpdu)
{
    if (mpdu->GetHeader().IsData())
    {
        tot.enqueued++;
    }
}

// Every IP packet a node sends (originated or forwarded): AODV's messages counted, and which
// nodes carry each flow's data segments (its routes).
void
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
        if (copy->GetSize() > 0 && tcp.GetDestinationPort() >= FIRST_PORT && f < flows.size())
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
void
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

void
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

void
OnPhyRxDrop(Ptr<const Packet>, WifiPhyRxfailureReason reason)
{
    std::ostringstream name;
    name << reason;
    tot.phyRxDrops[name.str()]++;
}

// "a,b,c;d,e,f" as rows of numbers.
std::vector<std::vector<double>>
ParseRows(const std::string& text, size_t width, const std::string& what)
{
    std::vector<std::vector<double>> rows;
    std::stringstream all(text);
    std::string row;
    while (std::getline(all, row, ';'))
    {
        if (row.empty())
        {
            continue;
        }
        std::vector<double> values;
        std::stringstream cells(row);
        std::string cell;
        while (std::getline(cells, cell, ','))
        {
            values.push_back(std::stod(cell));
        }
        NS_ABORT_MSG_IF(values.size() != width,
                        what << ": \"" << row << "\" has " << values.size() << " values, not "
                             << width);
        rows.push_back(values);
    }
    return rows;
}

// Every node's ARP cache holds every other node, as permanent entries. Not
// NeighborCacheHelper's: its entries are "auto-generated", which ns-3's AODV does not accept
// when it maps a failed frame's receiver to a neighbour (aodv::Neighbors::LookupMacAddress
// takes alive or permanent entries), so MAC drops would never break a link.
void
FillArpCaches(NodeContainer& nodes, NetDeviceContainer& devices, Ipv4InterfaceContainer& ifs)
{
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Ipv4L3Protocol> ip = nodes.Get(i)->GetObject<Ipv4L3Protocol>();
        Ptr<ArpCache> cache = ip->GetInterface(ip->GetInterfaceForDevice(devices.Get(i)))->GetArpCache();
        NS_ABORT_MSG_IF(!cache, "node " << i << " has no ARP cache");
        for (uint32_t j = 0; j < nodes.GetN(); ++j)
        {
            if (j != i)
            {
                ArpCache::Entry* e = cache->Add(ifs.GetAddress(j));
                e->SetMacAddress(devices.Get(j)->GetAddress());
                e->MarkPermanent();
            }
        }
    }
}

std::string
JsonCounts(const std::map<std::string, uint64_t>& m)
{
    std::ostringstream o;
    o << "{";
    bool first = true;
    for (const auto& [k, v] : m)
    {
        o << (first ? "" : ", ") << "\"" << k << "\": " << v;
        first = false;
    }
    o << "}";
    return o.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string positions = "0,0;200,0";
    std::string flowList = "0,1,0";
    std::string routing = "aodv"; // aodv | olsr | static
    std::string olsrAttributes;   // "Name=value;...": attributes of ns3::olsr::RoutingProtocol
    std::string routes;           // static: "node,destination,next hop;..."
    std::string aodvAttributes; // "Name=value;...": attributes of ns3::aodv::RoutingProtocol
    bool arp = false;       // ARP exchanges (hopsim has none)
    bool queueDisc = false; // ns-3's default queue disc above the MAC queue (hopsim has none)
    double durationS = 100.0;
    double warmupS = 10.0;
    uint64_t run = 1;
    hopsim::WifiArgs w;
    hopsim::TcpArgs t;

    CommandLine cmd(__FILE__);
    cmd.AddValue("positions", "node positions, \"x,y;x,y;...\" (m)", positions);
    cmd.AddValue("flows", "bulk TCP flows, \"src,dst,startS;...\"", flowList);
    cmd.AddValue("routing", "aodv or olsr (ns-3's) or static (the routes given)", routing);
    cmd.AddValue("olsr", "olsr: \"Name=value;...\" attributes of ns3::olsr::RoutingProtocol",
                 olsrAttributes);
    cmd.AddValue("routes", "static: host routes \"node,destination,nextHop;...\"", routes);
    cmd.AddValue("aodv", "aodv: \"Name=value;...\" attributes of ns3::aodv::RoutingProtocol "
                 "(the rest at ns-3's defaults)", aodvAttributes);
    cmd.AddValue("arp", "resolve neighbours by ARP (false: caches filled beforehand)", arp);
    cmd.AddValue("queueDisc", "keep ns-3's default queue disc (FqCoDel) above the MAC queue",
                 queueDisc);
    cmd.AddValue("durationS", "simulated time (s)", durationS);
    cmd.AddValue("warmupS", "goodput is measured over [warmupS, durationS]", warmupS);
    cmd.AddValue("run", "RngSeedManager run number (the replication)", run);
    w.Add(cmd);
    t.Add(cmd);
    cmd.Parse(argc, argv);

    NS_ABORT_MSG_IF(warmupS >= durationS, "warmupS must be below durationS");
    NS_ABORT_MSG_IF(routing != "aodv" && routing != "olsr" && routing != "static",
                    "routing must be aodv, olsr or static, not " << routing);
    tot.warmupS = warmupS;
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);
    hopsim::ConfigureTcp(t);

    // ---------------------------------------------------------------- nodes and radio
    const auto places = ParseRows(positions, 2, "positions");
    const uint32_t n = places.size();
    NS_ABORT_MSG_IF(n < 2, "at least two nodes");
    NodeContainer nodes;
    nodes.Create(n);
    MobilityHelper mobility;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    for (const auto& xy : places)
    {
        pos->Add(Vector(xy[0], xy[1], 0.0));
    }
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);
    NetDeviceContainer devices = hopsim::InstallWifi(nodes, w, durationS);

    // ---------------------------------------------------------------- IP and routing
    InternetStackHelper internet;
    Ipv4StaticRoutingHelper staticRouting;
    AodvHelper aodv;
    OlsrHelper olsr;
    if (routing == "aodv")
    {
        std::stringstream all(aodvAttributes);
        std::string pair;
        while (std::getline(all, pair, ';'))
        {
            const auto eq = pair.find('=');
            NS_ABORT_MSG_IF(eq == std::string::npos, "aodv: \"" << pair << "\" is not Name=value");
            aodv.Set(pair.substr(0, eq), StringValue(pair.substr(eq + 1)));
        }
        internet.SetRoutingHelper(aodv);
    }
    else if (routing == "olsr")
    {
        std::stringstream all(olsrAttributes);
        std::string pair;
        while (std::getline(all, pair, ';'))
        {
            const auto eq = pair.find('=');
            NS_ABORT_MSG_IF(eq == std::string::npos, "olsr: \"" << pair << "\" is not Name=value");
            olsr.Set(pair.substr(0, eq), StringValue(pair.substr(eq + 1)));
        }
        internet.SetRoutingHelper(olsr);
    }
    else
    {
        internet.SetRoutingHelper(staticRouting);
    }
    internet.Install(nodes);
    Ipv4AddressHelper addresses;
    addresses.SetBase("10.0.0.0", "255.255.0.0");
    Ipv4InterfaceContainer ifs = addresses.Assign(devices);
    // The MAC queue is the interface queue (as hopsim's): no queue disc above it.
    if (!queueDisc)
    {
        TrafficControlHelper tch;
        tch.Uninstall(devices);
    }
    // No ARP exchanges: hopsim resolves neighbours without frames.
    if (!arp)
    {
        FillArpCaches(nodes, devices, ifs);
    }
    if (routing == "static")
    {
        for (const auto& r : ParseRows(routes, 3, "routes"))
        {
            const auto node = static_cast<uint32_t>(r[0]);
            const auto dst = static_cast<uint32_t>(r[1]);
            const auto next = static_cast<uint32_t>(r[2]);
            NS_ABORT_MSG_IF(node >= n || dst >= n || next >= n, "routes: no such node");
            staticRouting.GetStaticRouting(nodes.Get(node)->GetObject<Ipv4>())
                ->AddHostRouteTo(ifs.GetAddress(dst), ifs.GetAddress(next), 1);
        }
    }

    // ---------------------------------------------------------------- the flows
    const auto flowRows = ParseRows(flowList, 3, "flows");
    NS_ABORT_MSG_IF(flowRows.empty(), "at least one flow");
    ApplicationContainer sources;
    for (size_t f = 0; f < flowRows.size(); ++f)
    {
        FlowCounters c;
        c.src = static_cast<uint32_t>(flowRows[f][0]);
        c.dst = static_cast<uint32_t>(flowRows[f][1]);
        c.startS = flowRows[f][2];
        NS_ABORT_MSG_IF(c.src >= n || c.dst >= n || c.src == c.dst, "flows: bad node");
        flows.push_back(c);
    }
    for (size_t f = 0; f < flows.size(); ++f)
    {
        const FlowCounters& c = flows[f];
        const uint16_t port = FIRST_PORT + f;
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(ifs.GetAddress(c.dst), port));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.SetAttribute("SendSize", UintegerValue(t.mssBytes));
        ApplicationContainer src = bulk.Install(nodes.Get(c.src));
        src.Start(Seconds(c.startS));
        src.Stop(Seconds(durationS));
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sink = sinkHelper.Install(nodes.Get(c.dst));
        sink.Start(Seconds(0.0));
        sink.Stop(Seconds(durationS));
        sink.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnSinkRx, f));
        Simulator::Schedule(Seconds(c.startS) + NanoSeconds(1), &HookSocket, f,
                            DynamicCast<BulkSendApplication>(src.Get(0)));
    }

    // ---------------------------------------------------------------- traces
    ConnectAll("Mac/DroppedMpdu", MakeCallback(&OnMacDrop));
    NS_ABORT_MSG_IF(!Config::ConnectWithoutContextFailSafe("/NodeList/*/$ns3::TrafficControlLayer/TcDrop",
                                                           MakeCallback(&OnTcDrop)),
                    "no TcDrop trace source");
    NS_ABORT_MSG_IF(!Config::ConnectWithoutContextFailSafe("/NodeList/*/$ns3::Ipv4L3Protocol/Tx",
                                                           MakeCallback(&OnIpTx)),
                    "no Ipv4L3Protocol Tx trace source");
    NS_ABORT_MSG_IF(!Config::ConnectWithoutContextFailSafe("/NodeList/*/$ns3::Ipv4L3Protocol/Drop",
                                                           MakeCallback(&OnIpDrop)),
                    "no Ipv4L3Protocol Drop trace source");
    Config::ConnectWithoutContextFailSafe("/NodeList/*/$ns3::olsr::RoutingProtocol/Tx",
                                          MakeCallback(&OnOlsrTx)); // absent without OLSR
    ConnectAll("Mac/MacTx", MakeCallback(&OnMacTx));
    ConnectAll("Phy/PhyRxDrop", MakeCallback(&OnPhyRxDrop));
    ConnectAll("RemoteStationManager/MacTxRtsFailed", MakeCallback(&OnMacTxFailed));
    ConnectAll("RemoteStationManager/MacTxDataFailed", MakeCallback(&OnMacTxFailed));
    ConnectAll(w.Ht() ? "Mac/BE_Txop/Queue/Enqueue" : "Mac/Txop/Queue/Enqueue",
               MakeCallback(&OnEnqueue));

    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(Seconds(durationS));
    Simulator::Run();
    const double wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const uint64_t events = Simulator::GetEventCount();
    Simulator::Destroy();

    const double windowS = durationS - warmupS;
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(6);
    o << "{\"simulator\": \"ns-3\", \"version\": \"3.44\", \"run\": " << run
      << ", \"routing\": \"" << routing << "\", \"flows\": [";
    for (size_t f = 0; f < flows.size(); ++f)
    {
        const FlowCounters& c = flows[f];
        o << (f ? ", " : "") << "{\"src\": " << c.src << ", \"dst\": " << c.dst
          << ", \"goodput_kbps\": " << c.bytesInWindow * 8.0 / windowS / 1e3
          << ", \"bytes_delivered\": " << c.bytesTotal << ", \"segments_sent\": " << c.segmentsSent
          << ", \"retransmissions\": " << c.retransmissions
          << ", \"fast_retransmits\": " << c.fastRecoveries << ", \"timeouts\": " << c.timeouts
          << ", \"rtt_ms_mean\": "
          << (c.rttSamples ? std::to_string(c.rttSumMs / c.rttSamples) : std::string("null"));
        std::map<std::string, uint64_t> by;
        for (const auto& [node, count] : c.sentBy)
        {
            by[std::to_string(node)] = count;
        }
        o << ", \"data_sent_by_node\": " << JsonCounts(by) << "}";
    }
    o << "], \"mac_retries\": " << tot.macRetries << ", \"retry_limit_drops\": " << tot.retryLimitDrops
      << ", \"expired_drops\": " << tot.expiredDrops
      << ", \"queue_drops\": " << tot.tcDrops + tot.macTx - tot.enqueued
      << ", \"routing_packets\": " << tot.routingPackets << ", \"routing_bytes\": " << tot.routingBytes
      << ", \"routing_messages\": [";
    const char* sep = "";
    for (const auto& [kind, e] : tot.routingMessages)
    {
        o << sep << "{\"kind\": \"" << kind << "\", \"messages\": " << e.first
          << ", \"bytes\": " << e.second << "}";
        sep = ", ";
    }
    o << "]"
      << ", \"ip_drops\": " << JsonCounts(tot.ipDrops)
      << ", \"phy_rx_drops\": " << JsonCounts(tot.phyRxDrops) << ", \"events\": " << events
      << ", \"wall_s\": " << wallS << "}";
    std::printf("%s\n", o.str().c_str());
    return 0;
}
