// Saturated UDP over a static chain of 802.11 nodes in ns-3 (3.44): the scenario the driver
// (`hopsim.crosscheck.ns3wifi`) sets beside hopsim's for the PHY standards (802.11b, a, g, n)
// with log-distance path loss and SINR reception. Every setting comes from the command line,
// written from a resolved hopsim scenario; this file holds no defaults of its own that
// matter. Prints one JSON object on stdout.
//
// With --acs=AC,AC,... (one hop only) the scenario is instead one saturated flow per entry,
// each between its own pair of nodes (sender 2j at (0, j * pairGapM), receiver 2j + 1 at
// (spacingM, j * pairGapM)), marked with a DS field whose user priority ns-3's wifi queue
// selection (SelectQueueByDSField: the field's top three bits) maps to that EDCA access
// category: CS1 -> UP 1 (BK), 0 (BE), AF41 -> UP 4 (VI), CS6 -> UP 6 (VO).
//
// Build (the driver does it): g++ -std=c++20 -O2 -I<ns3>/include wifi_udp.cc
//   -L<ns3>/lib64 -lns3.44-{wifi,internet,applications,mobility,propagation,network,core}
//   -Wl,-rpath,<ns3>/lib64

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
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct Counters
{
    uint64_t bytesInWindow = 0; // payload bytes the sink received in [warmup, duration]
    std::vector<uint64_t> flowBytesInWindow; // the same per flow (--acs)
    uint64_t packetsInWindow = 0;
    uint64_t macRetries = 0;      // failed RTS and DATA attempts, all nodes
    uint64_t retryLimitDrops = 0; // MPDUs dropped at the retry limit, all nodes
    double warmupS = 0.0;
    // Per node: failed DATA attempts, retry-limit drops, and PPDUs the PHY did not receive
    // by reason (WifiPhyRxfailureReason): where a chain loses its frames.
    std::vector<uint64_t> dataFailed;
    std::vector<uint64_t> rtsFailed;
    std::vector<uint64_t> limitDrops;
    std::vector<std::map<std::string, uint64_t>> rxDrops;
};

Counters g;
uint32_t NodeOf(const std::string& context);
// With --txLog: one line per transmission, "<start ns> <end ns> <node> <D|A|R|C>".
FILE* txLog = nullptr;
std::vector<std::pair<int64_t, char>> txOpen; // per node: the PPDU on the air

char
KindOf(Ptr<const Packet> p)
{
    WifiMacHeader h;
    p->PeekHeader(h);
    return h.IsData() ? 'D' : h.IsAck() ? 'A' : h.IsRts() ? 'R' : h.IsCts() ? 'C' : 'O';
}

void
OnPhyTxBegin(std::string context, Ptr<const Packet> p, double)
{
    txOpen[NodeOf(context)] = {Simulator::Now().GetNanoSeconds(), KindOf(p)};
}

void
OnPhyTxEnd(std::string context, Ptr<const Packet>)
{
    const uint32_t node = NodeOf(context);
    std::fprintf(txLog, "%lld %lld %u %c\n", static_cast<long long>(txOpen[node].first),
                 static_cast<long long>(Simulator::Now().GetNanoSeconds()), node, txOpen[node].second);
}

void
OnSinkRx(Ptr<const Packet> p, const Address&)
{
    if (Simulator::Now().GetSeconds() >= g.warmupS)
    {
        g.bytesInWindow += p->GetSize();
        g.packetsInWindow++;
    }
}

void
OnFlowSinkRx(size_t flow, Ptr<const Packet> p, const Address& from)
{
    if (Simulator::Now().GetSeconds() >= g.warmupS)
    {
        g.flowBytesInWindow[flow] += p->GetSize();
    }
    OnSinkRx(p, from);
}

// The DS field (IP TOS octet) ns-3 sends in access category `ac`.
uint8_t
TosOf(const std::string& ac)
{
    if (ac == "BK")
    {
        return 0x20;
    }
    if (ac == "VI")
    {
        return 0x88;
    }
    if (ac == "VO")
    {
        return 0xc0;
    }
    NS_ABORT_MSG_IF(ac != "BE", "an access category is BK, BE, VI or VO, not " << ac);
    return 0x00;
}

std::vector<std::string>
Split(const std::string& list)
{
    std::vector<std::string> out;
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');)
    {
        out.push_back(item);
    }
    return out;
}

// --edca=AC:aifsn:cwMin:cwMax:txopUs,...: each listed category's EDCA parameters on every
// device, set on its QosTxop after installation (ConfigureStandard has set the defaults); an
// empty field keeps the default.
void
SetEdca(const NetDeviceContainer& devices, const std::string& spec)
{
    for (const std::string& entry : Split(spec))
    {
        std::stringstream in(entry);
        std::string ac;
        std::string field;
        std::vector<std::string> v;
        std::getline(in, ac, ':');
        while (std::getline(in, field, ':'))
        {
            v.push_back(field);
        }
        v.resize(4);
        const AcIndex index = ac == "BK" ? AC_BK : ac == "VI" ? AC_VI : ac == "VO" ? AC_VO : AC_BE;
        NS_ABORT_MSG_IF(index == AC_BE && ac != "BE", "an access category is BK, BE, VI or VO");
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            Ptr<QosTxop> txop =
                DynamicCast<WifiNetDevice>(devices.Get(i))->GetMac()->GetQosTxop(index);
            if (!v[0].empty())
            {
                txop->SetAifsn(static_cast<uint8_t>(std::stoul(v[0])));
            }
            if (!v[1].empty())
            {
                txop->SetMinCw(std::stoul(v[1]));
            }
            if (!v[2].empty())
            {
                txop->SetMaxCw(std::stoul(v[2]));
            }
            if (!v[3].empty())
            {
                txop->SetTxopLimit(MicroSeconds(std::stoul(v[3])));
            }
        }
    }
}

// The node of a trace context "/NodeList/<i>/...".
uint32_t
NodeOf(const std::string& context)
{
    return std::stoul(context.substr(10, context.find('/', 10) - 10));
}

void
OnMacTxRtsFailed(std::string context, Mac48Address)
{
    g.macRetries++;
    g.rtsFailed[NodeOf(context)]++;
}

void
OnMacTxDataFailed(std::string context, Mac48Address)
{
    g.macRetries++;
    g.dataFailed[NodeOf(context)]++;
}

void
OnMacDrop(std::string context, WifiMacDropReason reason, Ptr<const WifiMpdu>)
{
    if (reason == WIFI_MAC_DROP_REACHED_RETRY_LIMIT)
    {
        g.retryLimitDrops++;
        g.limitDrops[NodeOf(context)]++;
    }
}

void
OnPhyRxDrop(std::string context, Ptr<const Packet>, WifiPhyRxfailureReason reason)
{
    std::ostringstream name;
    name << reason;
    g.rxDrops[NodeOf(context)][name.str()]++;
}

template <typename Cb>
void
ConnectAll(const std::string& path, Cb cb)
{
    const std::string full = "/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/" + path;
    NS_ABORT_MSG_IF(!Config::ConnectFailSafe(full, cb), "no trace source " << full);
}

std::string
JsonList(const std::vector<uint64_t>& v)
{
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i)
    {
        out += (i ? ", " : "") + std::to_string(v[i]);
    }
    return out + "]";
}

std::string
JsonDrops()
{
    std::string out = "[";
    for (size_t i = 0; i < g.rxDrops.size(); ++i)
    {
        out += i ? ", {" : "{";
        bool first = true;
        for (const auto& [reason, count] : g.rxDrops[i])
        {
            out += (first ? "\"" : ", \"") + reason + "\": " + std::to_string(count);
            first = false;
        }
        out += "}";
    }
    return out + "]";
}

std::string
JsonKbps(const std::vector<uint64_t>& bytes, double windowS)
{
    std::string out = "[";
    for (size_t i = 0; i < bytes.size(); ++i)
    {
        out += (i ? ", " : "") + std::to_string(bytes[i] * 8.0 / windowS / 1e3);
    }
    return out + "]";
}

WifiStandard
StandardOf(const std::string& name)
{
    if (name == "80211b")
    {
        return WIFI_STANDARD_80211b;
    }
    if (name == "80211a")
    {
        return WIFI_STANDARD_80211a;
    }
    if (name == "80211n")
    {
        return WIFI_STANDARD_80211n;
    }
    if (name == "80211ac")
    {
        return WIFI_STANDARD_80211ac;
    }
    NS_ABORT_MSG_IF(name != "80211g",
                    "standard must be 80211b, 80211a, 80211g, 80211n or 80211ac, not " << name);
    return WIFI_STANDARD_80211g;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t hops = 1;
    double spacingM = 10.0;
    double durationS = 10.0;
    double warmupS = 1.0;
    uint64_t run = 1;
    std::string standard = "80211a";
    std::string dataMode = "OfdmRate54Mbps";
    std::string controlMode = "OfdmRate6Mbps";
    uint32_t rtsThresholdBytes = 65535;
    uint32_t retryLimit = 7;
    uint32_t queuePackets = 50;
    uint32_t payloadBytes = 1460;
    double offeredMbps = 100.0;
    double txPowerDbm = 16.0206;
    double exponent = 3.0;
    double referenceDistanceM = 1.0;
    double referenceLossDb = 46.6777;
    double rxThresholdDbm = -82.0;
    double ccaEdThresholdDbm = -62.0;
    double preambleSnrDb = 4.0;
    double noiseFigureDb = 7.0;
    std::string txLogPath;
    uint32_t channelWidthMhz = 20;
    bool shortGi = false;
    uint32_t antennas = 1;
    uint32_t streams = 1;
    std::string rateManager = "constant";
    uint32_t maxAmpduBytes = 0;
    uint32_t maxAmsduBytes = 0;
    double msduLifetimeS = 0.0;
    std::string acs;
    double pairGapM = 1.0;
    std::string edca;
    std::string erpProtection = "none";

    CommandLine cmd(__FILE__);
    cmd.AddValue("hops", "hops of the chain (hops + 1 nodes)", hops);
    cmd.AddValue("spacingM", "distance between neighbours (m)", spacingM);
    cmd.AddValue("durationS", "simulated time (s)", durationS);
    cmd.AddValue("warmupS", "goodput is measured over [warmupS, durationS]", warmupS);
    cmd.AddValue("run", "RngSeedManager run number (the replication)", run);
    cmd.AddValue("standard", "80211b, 80211a, 80211g, 80211n or 80211ac", standard);
    cmd.AddValue("dataMode", "WifiMode of DATA frames", dataMode);
    cmd.AddValue("controlMode", "WifiMode of RTS and broadcast frames", controlMode);
    cmd.AddValue("rtsThresholdBytes", "RTS/CTS when the PSDU is longer than this", rtsThresholdBytes);
    cmd.AddValue("retryLimit", "WifiMac FrameRetryLimit (attempts)", retryLimit);
    cmd.AddValue("queuePackets", "WifiMacQueue size (packets)", queuePackets);
    cmd.AddValue("payloadBytes", "UDP payload (bytes)", payloadBytes);
    cmd.AddValue("offeredMbps", "the source's rate, above what the link carries (Mbit/s)", offeredMbps);
    cmd.AddValue("txPowerDbm", "transmit power (dBm)", txPowerDbm);
    cmd.AddValue("exponent", "log-distance path-loss exponent", exponent);
    cmd.AddValue("referenceDistanceM", "log-distance reference distance (m)", referenceDistanceM);
    cmd.AddValue("referenceLossDb", "path loss at the reference distance (dB)", referenceLossDb);
    cmd.AddValue("rxThresholdDbm", "weakest frame whose preamble is detected (dBm)", rxThresholdDbm);
    cmd.AddValue("ccaEdThresholdDbm", "energy-detection CCA threshold (dBm)", ccaEdThresholdDbm);
    cmd.AddValue("preambleSnrDb", "preamble detection SNR threshold (dB)", preambleSnrDb);
    cmd.AddValue("noiseFigureDb", "receiver noise figure (dB)", noiseFigureDb);
    cmd.AddValue("txLog", "write every transmission to this file (diagnosis)", txLogPath);
    cmd.AddValue("channelWidthMhz", "80211n: 20 or 40 (5 GHz band)", channelWidthMhz);
    cmd.AddValue("shortGi", "80211n: the 400 ns guard interval", shortGi);
    cmd.AddValue("antennas", "80211n/ac: antennas (80211n: and spatial streams)", antennas);
    cmd.AddValue("streams", "80211ac: spatial streams of DATA frames", streams);
    cmd.AddValue("rateManager",
                 "constant (dataMode), ideal (IdealWifiManager) or minstrelht", rateManager);
    cmd.AddValue("acs", "one flow per pair of nodes, of these access categories (BK,BE,VI,VO)",
                 acs);
    cmd.AddValue("pairGapM", "--acs: distance between the pairs (m)", pairGapM);
    cmd.AddValue("edca", "EDCA parameters AC:aifsn:cwMin:cwMax:txopUs,... (HT stations)", edca);
    cmd.AddValue("erpProtection", "80211g: none, cts_to_self or rts_cts before ERP-OFDM frames",
                 erpProtection);
    cmd.AddValue("maxAmpduBytes", "80211n: BE_MaxAmpduSize (0: every MPDU acknowledged alone)",
                 maxAmpduBytes);
    cmd.AddValue("maxAmsduBytes", "80211n/ac: {AC}_MaxAmsduSize (0: no A-MSDUs)", maxAmsduBytes);
    cmd.AddValue("msduLifetimeS", "WifiMacQueue MaxDelay (s); 0: none within the run",
                 msduLifetimeS);
    cmd.Parse(argc, argv);

    NS_ABORT_MSG_IF(hops < 1, "hops must be at least 1");
    NS_ABORT_MSG_IF(warmupS >= durationS, "warmupS must be below durationS");
    g.warmupS = warmupS;
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);

    Config::SetDefault("ns3::WifiMacQueue::MaxSize",
                       QueueSizeValue(QueueSize(std::to_string(queuePackets) + "p")));
    Config::SetDefault("ns3::WifiMacQueue::MaxDelay",
                       TimeValue(Seconds(msduLifetimeS > 0 ? msduLifetimeS : 10 * durationS)));

    const std::vector<std::string> flowAcs = Split(acs);
    const bool pairs = !flowAcs.empty();
    NS_ABORT_MSG_IF(pairs && hops != 1, "--acs needs hops = 1");
    g.flowBytesInWindow.assign(flowAcs.size(), 0);
    const uint32_t n = pairs ? 2 * flowAcs.size() : hops + 1;
    g.dataFailed.assign(n, 0);
    g.rtsFailed.assign(n, 0);
    g.limitDrops.assign(n, 0);
    g.rxDrops.assign(n, {});
    NodeContainer nodes;
    nodes.Create(n);
    MobilityHelper mobility;
    Ptr<ListPositionAllocator> pos = CreateObject<ListPositionAllocator>();
    for (uint32_t i = 0; i < n; ++i)
    {
        pos->Add(pairs ? Vector((i % 2) * spacingM, (i / 2) * pairGapM, 0.0)
                       : Vector(i * spacingM, 0.0, 0.0));
    }
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    YansWifiChannelHelper channel;
    channel.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel");
    channel.AddPropagationLoss("ns3::LogDistancePropagationLossModel",
                               "Exponent", DoubleValue(exponent),
                               "ReferenceDistance", DoubleValue(referenceDistanceM),
                               "ReferenceLoss", DoubleValue(referenceLossDb));
    YansWifiPhyHelper phy;
    phy.SetChannel(channel.Create());
    phy.Set("TxPowerStart", DoubleValue(txPowerDbm));
    phy.Set("TxPowerEnd", DoubleValue(txPowerDbm));
    phy.Set("TxPowerLevels", UintegerValue(1));
    phy.Set("RxNoiseFigure", DoubleValue(noiseFigureDb));
    phy.Set("CcaEdThreshold", DoubleValue(ccaEdThresholdDbm));
    phy.Set("CcaSensitivity", DoubleValue(rxThresholdDbm));
    // hopsim decodes OFDM with the NIST model (phy/error_rate/ofdm.rs); ns-3's Yans default
    // is the table-based model.
    phy.SetErrorRateModel("ns3::NistErrorRateModel");
    const bool ht = standard == "80211n" || standard == "80211ac";
    if (ht)
    {
        // A 20/40/80/160 MHz channel of the 5 GHz band (0: the default channel of that
        // width). HT: the MCS gives the streams, so every antenna may send one; VHT: the
        // constant-rate manager sends min(MaxSupportedTxSpatialStreams, the peer's Rx streams).
        phy.Set("ChannelSettings",
                StringValue("{0, " + std::to_string(channelWidthMhz) + ", BAND_5GHZ, 0}"));
        const uint32_t nss = standard == "80211ac" ? streams : antennas;
        phy.Set("Antennas", UintegerValue(antennas));
        phy.Set("MaxSupportedTxSpatialStreams", UintegerValue(nss));
        phy.Set("MaxSupportedRxSpatialStreams", UintegerValue(nss));
    }
    phy.SetPreambleDetectionModel("ns3::ThresholdPreambleDetectionModel",
                                  "MinimumRssi", DoubleValue(rxThresholdDbm),
                                  "Threshold", DoubleValue(preambleSnrDb));

    WifiHelper wifi;
    wifi.SetStandard(StandardOf(standard));
    if (rateManager == "ideal")
    {
        // SNR-ideal: the receiver's SNR of the last frame, told back in the ACK/CTS tag.
        wifi.SetRemoteStationManager("ns3::IdealWifiManager",
                                     "NonUnicastMode", StringValue(controlMode),
                                     "RtsCtsThreshold", UintegerValue(rtsThresholdBytes));
    }
    else if (rateManager == "minstrelht")
    {
        // ns-3's port of Linux's Minstrel-HT (the older, pre-5.11 sampling).
        wifi.SetRemoteStationManager("ns3::MinstrelHtWifiManager",
                                     "NonUnicastMode", StringValue(controlMode),
                                     "RtsCtsThreshold", UintegerValue(rtsThresholdBytes));
    }
    else
    {
        NS_ABORT_MSG_IF(rateManager != "constant",
                        "rateManager must be constant, ideal or minstrelht, not " << rateManager);
        wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager",
                                     "DataMode", StringValue(dataMode),
                                     "ControlMode", StringValue(controlMode),
                                     "NonUnicastMode", StringValue(controlMode),
                                     "RtsCtsThreshold", UintegerValue(rtsThresholdBytes));
    }
    WifiMacHelper mac;
    // HT stations are QoS stations (best effort); A-MPDUs up to maxAmpduBytes, none at 0.
    mac.SetType("ns3::AdhocWifiMac", "QosSupported", BooleanValue(ht),
                "FrameRetryLimit", UintegerValue(retryLimit));
    if (ht)
    {
        mac.SetType("ns3::AdhocWifiMac", "QosSupported", BooleanValue(true),
                    "FrameRetryLimit", UintegerValue(retryLimit),
                    "BE_MaxAmpduSize", UintegerValue(maxAmpduBytes),
                    "BK_MaxAmpduSize", UintegerValue(maxAmpduBytes),
                    "VI_MaxAmpduSize", UintegerValue(maxAmpduBytes),
                    "BE_MaxAmsduSize", UintegerValue(maxAmsduBytes),
                    "BK_MaxAmsduSize", UintegerValue(maxAmsduBytes),
                    "VI_MaxAmsduSize", UintegerValue(maxAmsduBytes),
                    "VO_MaxAmsduSize", UintegerValue(maxAmsduBytes));
        // A failed exchange inside a TXOP ends it with a backoff, as in hopsim
        // (mac/dcf/edcaf.rs), not with PIFS recovery. (ns-3.44's Duration fields cover the
        // rest of the TXOP and a CF-End frees it; hopsim's cover each exchange alone.)
        Config::SetDefault("ns3::QosFrameExchangeManager::PifsRecovery", BooleanValue(false));
        wifi.ConfigHtOptions("ShortGuardIntervalSupported", BooleanValue(shortGi));
    }
    NetDeviceContainer devices = wifi.Install(phy, mac, nodes);
    NS_ABORT_MSG_IF(!edca.empty() && !ht, "--edca needs a QoS (802.11n/ac) station");
    SetEdca(devices, edca);
    // ERP protection as if non-ERP stations were present (a STA learns that from beacons;
    // ad hoc stations are told here). CTS-to-self goes at the manager's default mode.
    NS_ABORT_MSG_IF(erpProtection != "none" && standard != "80211g",
                    "--erpProtection needs --standard=80211g");
    for (uint32_t i = 0; i < devices.GetN() && erpProtection != "none"; ++i)
    {
        Ptr<WifiRemoteStationManager> m =
            DynamicCast<WifiNetDevice>(devices.Get(i))->GetRemoteStationManager();
        NS_ABORT_MSG_IF(erpProtection != "cts_to_self" && erpProtection != "rts_cts",
                        "--erpProtection is none, cts_to_self or rts_cts");
        m->SetAttribute("ErpProtectionMode",
                        EnumValue(erpProtection == "rts_cts" ? WifiRemoteStationManager::RTS_CTS
                                                             : WifiRemoteStationManager::CTS_TO_SELF));
        m->SetUseNonErpProtection(true);
    }

    InternetStackHelper internet;
    Ipv4StaticRoutingHelper staticRouting;
    internet.SetRoutingHelper(staticRouting);
    internet.Install(nodes);
    Ipv4AddressHelper addresses;
    addresses.SetBase("10.0.0.0", "255.255.0.0");
    Ipv4InterfaceContainer ifs = addresses.Assign(devices);
    TrafficControlHelper tch;
    tch.Uninstall(devices);
    NeighborCacheHelper neighbours;
    neighbours.PopulateNeighborCache();
    for (uint32_t i = 0; i + 1 < n && !pairs; ++i)
    {
        Ptr<Ipv4StaticRouting> rt = staticRouting.GetStaticRouting(nodes.Get(i)->GetObject<Ipv4>());
        rt->AddHostRouteTo(ifs.GetAddress(n - 1), ifs.GetAddress(i + 1), 1);
    }

    for (size_t j = 0; j < flowAcs.size(); ++j)
    {
        const uint16_t flowPort = 6000 + j;
        OnOffHelper app("ns3::UdpSocketFactory",
                        InetSocketAddress(ifs.GetAddress(2 * j + 1), flowPort));
        app.SetConstantRate(DataRate(static_cast<uint64_t>(offeredMbps * 1e6)), payloadBytes);
        app.SetAttribute("Tos", UintegerValue(TosOf(flowAcs[j])));
        ApplicationContainer a = app.Install(nodes.Get(2 * j));
        a.Start(Seconds(0.0));
        a.Stop(Seconds(durationS));
        PacketSinkHelper sh("ns3::UdpSocketFactory",
                            InetSocketAddress(Ipv4Address::GetAny(), flowPort));
        ApplicationContainer k = sh.Install(nodes.Get(2 * j + 1));
        k.Start(Seconds(0.0));
        k.Stop(Seconds(durationS));
        k.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnFlowSinkRx, j));
    }
    const uint16_t port = 5000;
    OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(ifs.GetAddress(n - 1), port));
    onoff.SetConstantRate(DataRate(static_cast<uint64_t>(offeredMbps * 1e6)), payloadBytes);
    ApplicationContainer src = onoff.Install(nodes.Get(0));
    src.Start(Seconds(pairs ? 2 * durationS : 0.0)); // never, beside the pairs' flows
    src.Stop(Seconds(durationS));
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sink = sinkHelper.Install(nodes.Get(n - 1));
    sink.Start(Seconds(0.0));
    sink.Stop(Seconds(durationS));
    sink.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&OnSinkRx));
    ConnectAll("Mac/DroppedMpdu", MakeCallback(&OnMacDrop));
    ConnectAll("RemoteStationManager/MacTxRtsFailed", MakeCallback(&OnMacTxRtsFailed));
    ConnectAll("RemoteStationManager/MacTxDataFailed", MakeCallback(&OnMacTxDataFailed));
    ConnectAll("Phy/PhyRxDrop", MakeCallback(&OnPhyRxDrop));
    if (!txLogPath.empty())
    {
        txLog = std::fopen(txLogPath.c_str(), "w");
        NS_ABORT_MSG_IF(!txLog, "cannot write " << txLogPath);
        txOpen.assign(n, {0, 'O'});
        ConnectAll("Phy/PhyTxBegin", MakeCallback(&OnPhyTxBegin));
        ConnectAll("Phy/PhyTxEnd", MakeCallback(&OnPhyTxEnd));
    }

    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(Seconds(durationS));
    Simulator::Run();
    const double wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const uint64_t events = Simulator::GetEventCount();
    Simulator::Destroy();
    if (txLog)
    {
        std::fclose(txLog);
    }

    const double windowS = durationS - warmupS;
    std::printf("{\"simulator\": \"ns-3\", \"version\": \"3.44\", \"hops\": %u, \"run\": %llu, "
                "\"goodput_kbps\": %.6f, \"packets_delivered\": %llu, \"mac_retries\": %llu, "
                "\"retry_limit_drops\": %llu, \"events\": %llu, \"wall_s\": %.6f, "
                "\"data_failed_by_node\": %s, \"rts_failed_by_node\": %s, "
                "\"retry_limit_drops_by_node\": %s, "
                "\"phy_rx_drops_by_node\": %s, \"goodput_kbps_by_flow\": %s}\n",
                hops, static_cast<unsigned long long>(run), g.bytesInWindow * 8.0 / windowS / 1e3,
                static_cast<unsigned long long>(g.packetsInWindow),
                static_cast<unsigned long long>(g.macRetries),
                static_cast<unsigned long long>(g.retryLimitDrops),
                static_cast<unsigned long long>(events), wallS, JsonList(g.dataFailed).c_str(),
                JsonList(g.rtsFailed).c_str(), JsonList(g.limitDrops).c_str(), JsonDrops().c_str(),
                JsonKbps(g.flowBytesInWindow, windowS).c_str());
    return 0;
}
