// Bulk TCP flows over static 802.11 nodes placed anywhere (a grid, say), routed by ns-3's AODV,
// OLSR or 802.11s HWMP (hopsim_mesh.h) or by host routes the driver gives: the scenario
// `python -m hopsim.crosscheck.ns3mesh` sets beside hopsim's. Every setting comes from the
// command line, written by the driver from a resolved hopsim scenario (the radio, MAC and TCP
// as chain_tcp.cc's, hopsim_common.h). Prints one JSON object on stdout: per flow, and totals
// over all nodes (mesh_counters.h).

#include "hopsim_common.h"
#include "hopsim_mesh.h"
#include "mesh_counters.h"

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
using hopsim::JsonCounts;
using hopsim::ParseRows;
using namespace hopsim::mesh;

namespace
{

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

} // namespace

int
main(int argc, char* argv[])
{
    std::string positions = "0,0;200,0";
    std::string flowList;    // "src,dst,startS;...": bulk TCP flows
    std::string udpFlowList; // "src,dst,startS,intervalS,bytes;...": paced UDP flows
    std::string routing = "aodv"; // aodv | olsr | hwmp | static
    std::string olsrAttributes;   // "Name=value;...": attributes of ns3::olsr::RoutingProtocol
    std::string hwmpAttributes;   // "Name=value;...": attributes of ns3::dot11s::HwmpProtocol
    std::string defaults;         // "ns3::Type::Name=value;...": any other attribute defaults
    std::string routes;           // static: "node,destination,next hop;..."
    std::string aodvAttributes; // "Name=value;...": attributes of ns3::aodv::RoutingProtocol
    bool arp = false;       // ARP exchanges (hopsim has none)
    bool groupMgmtAsVo = false; // hwmp diagnostic: PREQs contend as voice (hopsim_mesh.h)
    bool queueDisc = false; // ns-3's default queue disc above the MAC queue (hopsim has none)
    double durationS = 100.0;
    double warmupS = 10.0;
    uint64_t run = 1;
    hopsim::WifiArgs w;
    hopsim::TcpArgs t;

    CommandLine cmd(__FILE__);
    cmd.AddValue("positions", "node positions, \"x,y;x,y;...\" (m)", positions);
    cmd.AddValue("flows", "bulk TCP flows, \"src,dst,startS;...\"", flowList);
    cmd.AddValue("udpFlows", "paced UDP flows after them, \"src,dst,startS,intervalS,bytes;...\"",
                 udpFlowList);
    cmd.AddValue("routing", "aodv, olsr or hwmp (ns-3's) or static (the routes given)", routing);
    cmd.AddValue("hwmp", "hwmp: \"Name=value;...\" attributes of ns3::dot11s::HwmpProtocol",
                 hwmpAttributes);
    cmd.AddValue("olsr", "olsr: \"Name=value;...\" attributes of ns3::olsr::RoutingProtocol",
                 olsrAttributes);
    cmd.AddValue("defaults", "\"ns3::Type::Name=value;...\": attribute defaults (diagnostics)",
                 defaults);
    cmd.AddValue("routes", "static: host routes \"node,destination,nextHop;...\"", routes);
    cmd.AddValue("aodv", "aodv: \"Name=value;...\" attributes of ns3::aodv::RoutingProtocol "
                 "(the rest at ns-3's defaults)", aodvAttributes);
    cmd.AddValue("groupMgmtAsVo", "hwmp, a diagnostic: group-addressed management frames contend "
                 "with voice's EDCA parameters (ns-3 queues them as background)", groupMgmtAsVo);
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
    const bool mesh = routing == "hwmp";
    NS_ABORT_MSG_IF(routing != "aodv" && routing != "olsr" && !mesh && routing != "static",
                    "routing must be aodv, olsr, hwmp or static, not " << routing);
    tot.warmupS = warmupS;
    for (const auto& [name, value] : hopsim::ParsePairs(defaults, "defaults"))
    {
        Config::SetDefault(name, StringValue(value));
    }
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
    // HWMP routes below IP, on mesh points: IP sees one link (static routing, one subnet).
    NetDeviceContainer devices =
        mesh ? hopsim::InstallMesh(nodes, w, durationS, hwmpAttributes, groupMgmtAsVo)
             : hopsim::InstallWifi(nodes, w, durationS);

    // ---------------------------------------------------------------- IP and routing
    InternetStackHelper internet;
    Ipv4StaticRoutingHelper staticRouting;
    AodvHelper aodv;
    OlsrHelper olsr;
    if (routing == "aodv")
    {
        for (const auto& [name, value] : hopsim::ParsePairs(aodvAttributes, "aodv"))
        {
            aodv.Set(name, StringValue(value));
        }
        internet.SetRoutingHelper(aodv);
    }
    else if (routing == "olsr")
    {
        for (const auto& [name, value] : hopsim::ParsePairs(olsrAttributes, "olsr"))
        {
            olsr.Set(name, StringValue(value));
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
    // (A mesh point has no queue disc: it is not a queue-aware device.)
    if (!queueDisc && !mesh)
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
    auto rows = ParseRows(flowList, 3, "flows");
    for (auto& r : ParseRows(udpFlowList, 5, "udpFlows"))
    {
        rows.push_back(r);
    }
    NS_ABORT_MSG_IF(rows.empty(), "at least one flow");
    for (const auto& r : rows)
    {
        FlowCounters c;
        c.src = static_cast<uint32_t>(r[0]);
        c.dst = static_cast<uint32_t>(r[1]);
        c.startS = r[2];
        if (r.size() == 5)
        {
            c.intervalS = r[3];
            c.datagramBytes = static_cast<uint32_t>(r[4]);
            NS_ABORT_MSG_IF(c.intervalS <= 0 || c.datagramBytes < 12, "udpFlows: bad pacing");
        }
        NS_ABORT_MSG_IF(c.src >= n || c.dst >= n || c.src == c.dst, "flows: bad node");
        flows.push_back(c);
    }
    // Flow f's receiver: a sink on its port, counted by OnSinkRx.
    auto installSink = [&](const std::string& factory, size_t f) {
        PacketSinkHelper sinkHelper(factory, InetSocketAddress(Ipv4Address::GetAny(),
                                                               FIRST_PORT + f));
        ApplicationContainer sink = sinkHelper.Install(nodes.Get(flows[f].dst));
        sink.Start(Seconds(0.0));
        sink.Stop(Seconds(durationS));
        sink.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnSinkRx, f));
    };
    for (size_t f = 0; f < flows.size(); ++f)
    {
        FlowCounters& c = flows[f];
        const uint16_t port = FIRST_PORT + f;
        if (c.intervalS > 0)
        {
            // UdpClient's datagrams carry its 12-byte sequence header inside the payload.
            UdpClientHelper paced(ifs.GetAddress(c.dst), port);
            paced.SetAttribute("MaxPackets", UintegerValue(0)); // no limit
            paced.SetAttribute("Interval", TimeValue(Seconds(c.intervalS)));
            paced.SetAttribute("PacketSize", UintegerValue(c.datagramBytes));
            ApplicationContainer src = paced.Install(nodes.Get(c.src));
            src.Start(Seconds(c.startS));
            src.Stop(Seconds(durationS));
            c.udpSource = DynamicCast<UdpClient>(src.Get(0));
            installSink("ns3::UdpSocketFactory", f);
            continue;
        }
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(ifs.GetAddress(c.dst), port));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.SetAttribute("SendSize", UintegerValue(t.mssBytes));
        ApplicationContainer src = bulk.Install(nodes.Get(c.src));
        src.Start(Seconds(c.startS));
        src.Stop(Seconds(durationS));
        installSink("ns3::TcpSocketFactory", f);
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
    ConnectAll(w.Ht() || mesh ? "Mac/BE_Txop/Queue/Enqueue" : "Mac/Txop/Queue/Enqueue",
               MakeCallback(&OnEnqueue));
    if (mesh)
    {
        ConnectAll("Phy/PhyTxPsduBegin", MakeCallback(&hopsim::OnMeshPhyTx));
        carriersOnAir = true;
        for (uint32_t i = 0; i < n; ++i)
        {
            const std::string path = "/NodeList/" + std::to_string(i) +
                                     "/DeviceList/*/$ns3::WifiNetDevice/Phy/PhyTxPsduBegin";
            Config::ConnectWithoutContext(path, MakeBoundCallback(&OnMeshDataTx, i));
        }
    }

    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(Seconds(durationS));
    Simulator::Run();
    const double wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const uint64_t events = Simulator::GetEventCount();
    if (mesh)
    {
        const hopsim::HwmpSent sent = hopsim::CountHwmp(devices);
        for (const auto& [kind, frames] : sent.frames)
        {
            tot.routingMessages[kind].first += frames; // bytes: only their sum is counted
            tot.routingPackets += frames;
        }
        tot.routingBytes = sent.bodyBytes;
        tot.hwmpReport = sent.report;
    }
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
        if (c.udpSource)
        {
            o << ", \"transport\": \"udp\", \"packets_sent\": "
              << c.udpSource->GetTotalTx() / c.datagramBytes
              << ", \"packets_delivered\": " << c.packetsReceived;
        }
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
      << ", \"mesh_upkeep\": " << JsonCounts(hopsim::MeshUpkeep())
      << ", \"hwmp_report\": " << JsonCounts(tot.hwmpReport)
      << ", \"ip_drops\": " << JsonCounts(tot.ipDrops)
      << ", \"phy_rx_drops\": " << JsonCounts(tot.phyRxDrops) << ", \"events\": " << events
      << ", \"wall_s\": " << wallS << "}";
    std::printf("%s\n", o.str().c_str());
    return 0;
}
