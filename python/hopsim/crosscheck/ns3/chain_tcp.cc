// One bulk TCP transfer over a static chain of 802.11b nodes in ns-3 (3.44), the scenario
// `python -m hopsim.crosscheck.ns3run` sets beside hopsim's chain. Every setting comes from the
// command line, written by the driver from a resolved hopsim scenario (the translation and the
// differences that remain are listed in docs/validation.md, "Side by side with ns-3"); this
// file holds no defaults of its own that matter. Prints one JSON object on stdout.
//
// Build (the driver does it): g++ -std=c++20 -O2 -I<ns3>/include chain_tcp.cc
//   -L<ns3>/lib64 -lns3.44-{wifi,internet,applications,mobility,propagation,network,core}
//   -Wl,-rpath,<ns3>/lib64

#include "hopsim_common.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/propagation-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/wifi-module.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>

using namespace ns3;
using hopsim::ConnectAll;

namespace
{

// What the sender's socket and the sink record (filled by the trace sinks below).
struct Counters
{
    uint64_t segmentsSent = 0;   // data segments handed to IP, retransmissions included
    uint64_t retransmissions = 0; // data segments starting below the highest byte sent so far
    uint32_t highestSentEnd = 0;  // one past the highest sequence sent (relative to the ISN)
    bool anySent = false;
    uint32_t isn = 0;
    uint64_t fastRecoveries = 0; // entries into CA_RECOVERY
    uint64_t timeouts = 0;       // entries into CA_LOSS
    double rttSumMs = 0.0;       // samples of the LastRTT trace (one per new (S)ACK value)
    uint64_t rttSamples = 0;
    uint64_t bytesInWindow = 0; // bytes the sink received in [warmup, duration]
    uint64_t bytesTotal = 0;
    uint64_t retryLimitDrops = 0; // MPDUs dropped at the retry limit, all nodes
    uint64_t macTx = 0;           // packets handed to the MACs by IP, all nodes
    uint64_t enqueued = 0;        // of them, taken by the MAC queues (the rest: queue full)
    uint64_t macRetries = 0;      // failed RTS and DATA attempts (CTS / ACK timeouts), all nodes
    uint64_t tcDrops = 0;         // refused above the device: its queue was full (stopped)
    uint64_t expiredDrops = 0;    // MPDUs past the queue's MaxDelay (none expected)
    uint64_t ampdus = 0;          // A-MPDUs of two or more QoS Data MPDUs sent, all nodes
    uint64_t ampduMpdus = 0;      // the MPDUs in them
    double warmupS = 0.0;
};

Counters g;

void
OnTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    const uint32_t len = p->GetSize();
    if (len == 0)
    {
        return; // SYN, pure ACK, FIN: not data
    }
    const uint32_t seq = h.GetSequenceNumber().GetValue();
    if (!g.anySent)
    {
        g.anySent = true;
        g.isn = seq; // the first data byte
    }
    const uint32_t rel = seq - g.isn; // wraps correctly: the flow sends far less than 4 GB
    g.segmentsSent++;
    if (rel < g.highestSentEnd)
    {
        g.retransmissions++;
    }
    if (rel + len > g.highestSentEnd)
    {
        g.highestSentEnd = rel + len;
    }
}

void
OnCongState(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    if (now == TcpSocketState::CA_RECOVERY)
    {
        g.fastRecoveries++;
    }
    else if (now == TcpSocketState::CA_LOSS)
    {
        g.timeouts++;
    }
}

void
OnLastRtt(Time, Time now)
{
    if (now.IsStrictlyPositive())
    {
        g.rttSumMs += now.GetSeconds() * 1e3;
        g.rttSamples++;
    }
}

void
OnSinkRx(Ptr<const Packet> p, const Address&)
{
    g.bytesTotal += p->GetSize();
    if (Simulator::Now().GetSeconds() >= g.warmupS)
    {
        g.bytesInWindow += p->GetSize();
    }
}

void
OnMacDrop(WifiMacDropReason reason, Ptr<const WifiMpdu>)
{
    // Retry-limit drops and lifetime expiry (off: MaxDelay below) are reported here.
    if (reason == WIFI_MAC_DROP_REACHED_RETRY_LIMIT)
    {
        g.retryLimitDrops++;
    }
    else if (reason == WIFI_MAC_DROP_EXPIRED_LIFETIME)
    {
        g.expiredDrops++;
    }
}

void
OnMacTx(Ptr<const Packet>)
{
    g.macTx++;
}

void
OnMacTxFailed(Mac48Address)
{
    g.macRetries++;
}

void
OnTcDrop(Ptr<const Packet>)
{
    g.tcDrops++;
}

void
OnEnqueue(Ptr<const WifiMpdu> mpdu)
{
    // The queue also holds nothing but data MPDUs here (no management frames in an IBSS
    // without beacons; RTS/CTS/ACK never pass through it).
    if (mpdu->GetHeader().IsData())
    {
        g.enqueued++;
    }
}

void
HookSocket(Ptr<BulkSendApplication> app)
{
    Ptr<TcpSocketBase> s = DynamicCast<TcpSocketBase>(app->GetSocket());
    NS_ABORT_MSG_IF(!s, "the bulk sender has no TCP socket");
    s->TraceConnectWithoutContext("Tx", MakeCallback(&OnTx));
    s->TraceConnectWithoutContext("CongState", MakeCallback(&OnCongState));
    s->TraceConnectWithoutContext("LastRTT", MakeCallback(&OnLastRtt));
}

// Every PSDU a PHY starts: A-MPDUs of QoS Data counted with their MPDUs.
void
OnPsduBegin(WifiConstPsduMap psdus, WifiTxVector, double)
{
    for (const auto& [staId, psdu] : psdus)
    {
        if (psdu->GetNMpdus() > 1 && psdu->GetHeader(0).IsQosData())
        {
            ++g.ampdus;
            g.ampduMpdus += psdu->GetNMpdus();
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t hops = 1;
    double spacingM = 200.0;
    double durationS = 100.0;
    double warmupS = 10.0;
    double startS = 0.0;
    uint64_t run = 1;
    hopsim::WifiArgs w;
    hopsim::TcpArgs t;

    CommandLine cmd(__FILE__);
    cmd.AddValue("hops", "hops of the chain (hops + 1 nodes)", hops);
    cmd.AddValue("spacingM", "distance between neighbours (m)", spacingM);
    cmd.AddValue("durationS", "simulated time (s)", durationS);
    cmd.AddValue("warmupS", "goodput is measured over [warmupS, durationS]", warmupS);
    cmd.AddValue("startS", "the bulk sender starts (connects) at this time (s)", startS);
    cmd.AddValue("run", "RngSeedManager run number (the replication)", run);
    w.Add(cmd);
    t.Add(cmd);
    cmd.Parse(argc, argv);

    NS_ABORT_MSG_IF(hops < 1, "hops must be at least 1");
    NS_ABORT_MSG_IF(warmupS >= durationS, "warmupS must be below durationS");
    g.warmupS = warmupS;
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);

    hopsim::ConfigureTcp(t);

    // ---------------------------------------------------------------- nodes and radio
    const uint32_t n = hops + 1;
    NodeContainer nodes;
    nodes.Create(n);
    MobilityHelper mobility;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    for (uint32_t i = 0; i < n; ++i)
    {
        pos->Add(Vector(i * spacingM, 0.0, 0.0));
    }
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    NetDeviceContainer devices = hopsim::InstallWifi(nodes, w, durationS);

    // ---------------------------------------------------------------- IP and static routes
    InternetStackHelper internet;
    Ipv4StaticRoutingHelper staticRouting;
    internet.SetRoutingHelper(staticRouting);
    internet.Install(nodes);
    Ipv4AddressHelper addresses;
    addresses.SetBase("10.0.0.0", "255.255.0.0");
    Ipv4InterfaceContainer ifs = addresses.Assign(devices);
    // The MAC queue is the interface queue (as hopsim's): no queue disc above it.
    TrafficControlHelper tch;
    tch.Uninstall(devices);
    // No ARP exchanges: hopsim resolves neighbours without frames.
    NeighborCacheHelper neighbours;
    neighbours.PopulateNeighborCache();
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<Ipv4StaticRouting> rt = staticRouting.GetStaticRouting(nodes.Get(i)->GetObject<Ipv4>());
        if (i + 1 < n) // towards the sink, via the next node
        {
            rt->AddHostRouteTo(ifs.GetAddress(n - 1), ifs.GetAddress(i + 1), 1);
        }
        if (i > 0) // back to the sender, via the previous node
        {
            rt->AddHostRouteTo(ifs.GetAddress(0), ifs.GetAddress(i - 1), 1);
        }
    }

    // ---------------------------------------------------------------- the flow
    const uint16_t port = 5000;
    BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(ifs.GetAddress(n - 1), port));
    bulk.SetAttribute("MaxBytes", UintegerValue(0));
    bulk.SetAttribute("SendSize", UintegerValue(t.mssBytes));
    ApplicationContainer src = bulk.Install(nodes.Get(0));
    src.Start(Seconds(startS));
    src.Stop(Seconds(durationS));
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sink = sinkHelper.Install(nodes.Get(n - 1));
    sink.Start(Seconds(0.0));
    sink.Stop(Seconds(durationS));
    sink.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&OnSinkRx));
    // The socket exists once the application has started.
    Simulator::Schedule(Seconds(startS) + NanoSeconds(1), &HookSocket,
                        DynamicCast<BulkSendApplication>(src.Get(0)));
    ConnectAll("Mac/DroppedMpdu", MakeCallback(&OnMacDrop));
    // A full MAC queue stops the device's transmit queue (flow control) and the traffic control
    // layer, with no queue disc, drops what IP sends meanwhile (TcDrop); a MAC queue that is
    // full anyway refuses the MPDU without a trace of its own (the FCFS scheduler's
    // drop-newest policy): queue drops = TcDrop + packets given to the MAC - MPDUs enqueued.
    NS_ABORT_MSG_IF(!Config::ConnectWithoutContextFailSafe("/NodeList/*/$ns3::TrafficControlLayer/TcDrop",
                                                           MakeCallback(&OnTcDrop)),
                    "no TcDrop trace source");
    ConnectAll("Mac/MacTx", MakeCallback(&OnMacTx));
    ConnectAll("Phy/PhyTxPsduBegin", MakeCallback(&OnPsduBegin));
    ConnectAll("RemoteStationManager/MacTxRtsFailed", MakeCallback(&OnMacTxFailed));
    ConnectAll("RemoteStationManager/MacTxDataFailed", MakeCallback(&OnMacTxFailed));
    // A QoS (HT) station queues best effort at its BE EDCA function, the others at the DCF's.
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
    std::printf("{\"simulator\": \"ns-3\", \"version\": \"3.44\", \"hops\": %u, \"variant\": \"%s\", "
                "\"run\": %llu, \"goodput_kbps\": %.6f, \"bytes_delivered\": %llu, "
                "\"segments_sent\": %llu, \"retransmissions\": %llu, \"fast_retransmits\": %llu, "
                "\"timeouts\": %llu, \"rtt_ms_mean\": %s, \"rtt_samples\": %llu, "
                "\"mac_retries\": %llu, \"retry_limit_drops\": %llu, \"queue_drops\": %llu, \"expired_drops\": %llu, "
                "\"ampdus_sent\": %llu, \"ampdu_mpdus\": %llu, "
                "\"events\": %llu, "
                "\"wall_s\": %.6f}\n",
                hops, t.variant.c_str(), static_cast<unsigned long long>(run),
                g.bytesInWindow * 8.0 / windowS / 1e3,
                static_cast<unsigned long long>(g.bytesTotal),
                static_cast<unsigned long long>(g.segmentsSent),
                static_cast<unsigned long long>(g.retransmissions),
                static_cast<unsigned long long>(g.fastRecoveries),
                static_cast<unsigned long long>(g.timeouts),
                g.rttSamples ? std::to_string(g.rttSumMs / g.rttSamples).c_str() : "null",
                static_cast<unsigned long long>(g.rttSamples),
                static_cast<unsigned long long>(g.macRetries),
                static_cast<unsigned long long>(g.retryLimitDrops),
                static_cast<unsigned long long>(g.tcDrops + g.macTx - g.enqueued),
                static_cast<unsigned long long>(g.expiredDrops),
                static_cast<unsigned long long>(g.ampdus),
                static_cast<unsigned long long>(g.ampduMpdus),
                static_cast<unsigned long long>(events), wallS);
    return 0;
}
