// One bulk TCP transfer over a static chain of 802.11b nodes in ns-3 (3.44), the scenario
// `python -m hopsim.crosscheck.ns3run` sets beside hopsim's chain. Every setting comes from the
// command line, written by the driver from a resolved hopsim scenario (the translation and the
// differences that remain are listed in docs/validation.md, "Side by side with ns-3"); this
// file holds no defaults of its own that matter. Prints one JSON object on stdout.
//
// Build (the driver does it): g++ -std=c++20 -O2 -I<ns3>/include chain_tcp.cc
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
#include <iostream>
#include <limits>
#include <string>

using namespace ns3;

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

// Connects a trace source of every node's Wi-Fi device; a path that matches nothing is an
// error (Config::ConnectWithoutContext would let it pass silently).
template <typename Cb>
void
ConnectAll(const std::string& path, Cb cb)
{
    const std::string full = "/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/" + path;
    NS_ABORT_MSG_IF(!Config::ConnectWithoutContextFailSafe(full, cb), "no trace source " << full);
}

double
DbmOf(double watts)
{
    return 10.0 * std::log10(watts * 1e3);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t hops = 1;
    double spacingM = 200.0;
    std::string variant = "newreno"; // newreno | cubic | bbr
    std::string recovery = "classic"; // classic | prr
    bool sack = false;
    double durationS = 100.0;
    double warmupS = 10.0;
    double startS = 0.0;
    uint64_t run = 1;
    std::string dataMode = "DsssRate2Mbps";
    std::string controlMode = "DsssRate1Mbps";
    uint32_t rtsThresholdBytes = 0;
    uint32_t retryLimit = 7;
    uint32_t queuePackets = 50;
    double txPowerW = 0.28183815;
    std::string standard = "80211b";
    uint32_t channelWidthMhz = 20;
    bool shortGi = false;
    uint32_t antennas = 1;
    uint32_t streams = 1;
    uint32_t maxAmpduBytes = 0;
    uint32_t maxAmsduBytes = 0;
    double msduLifetimeS = 0.0;
    std::string propagation = "two_ray_ground";
    double exponent = 3.0;
    double referenceDistanceM = 1.0;
    double referenceLossDb = 46.6777;
    double frequencyHz = 914e6;
    double antennaHeightM = 1.5;
    double antennaGain = 1.0;
    double systemLoss = 1.0;
    double rxThresholdW = 3.652e-10;
    double csThresholdW = 1.559e-11;
    double preambleSnrDb = 4.0;
    double noiseFigureDb = 7.0;
    uint32_t mssBytes = 1460;
    uint32_t initialWindow = 2;
    uint32_t delAckCount = 1;
    double delAckTimeoutS = 0.1;
    double minRtoS = 0.2;
    double clockGranularityS = 0.01;
    uint32_t receiverWindowBytes = 20 * 1460;
    uint32_t dupackThreshold = 3;
    double initialRtoS = 3.0;

    CommandLine cmd(__FILE__);
    cmd.AddValue("hops", "hops of the chain (hops + 1 nodes)", hops);
    cmd.AddValue("spacingM", "distance between neighbours (m)", spacingM);
    cmd.AddValue("variant", "newreno, cubic or bbr", variant);
    cmd.AddValue("recovery", "classic (RFC 6582 / 5681) or prr (RFC 6937)", recovery);
    cmd.AddValue("sack", "SACK option (RFC 2018)", sack);
    cmd.AddValue("durationS", "simulated time (s)", durationS);
    cmd.AddValue("warmupS", "goodput is measured over [warmupS, durationS]", warmupS);
    cmd.AddValue("startS", "the bulk sender starts (connects) at this time (s)", startS);
    cmd.AddValue("run", "RngSeedManager run number (the replication)", run);
    cmd.AddValue("dataMode", "WifiMode of DATA frames", dataMode);
    cmd.AddValue("controlMode", "WifiMode of RTS frames", controlMode);
    cmd.AddValue("rtsThresholdBytes", "RTS/CTS when the PSDU is longer than this", rtsThresholdBytes);
    cmd.AddValue("retryLimit", "WifiMac FrameRetryLimit (attempts)", retryLimit);
    cmd.AddValue("queuePackets", "WifiMacQueue size (packets)", queuePackets);
    cmd.AddValue("txPowerW", "transmit power (W)", txPowerW);
    cmd.AddValue("standard", "80211b, 80211a, 80211g, 80211n or 80211ac", standard);
    cmd.AddValue("channelWidthMhz", "80211n: 20 or 40; 80211ac: up to 160 (5 GHz band)",
                 channelWidthMhz);
    cmd.AddValue("shortGi", "80211n/ac: the 400 ns guard interval", shortGi);
    cmd.AddValue("antennas", "80211n/ac: antennas (80211n: and spatial streams)", antennas);
    cmd.AddValue("streams", "80211ac: spatial streams of DATA frames", streams);
    cmd.AddValue("maxAmpduBytes", "80211n: BE_MaxAmpduSize (0: every MPDU acknowledged alone)",
                 maxAmpduBytes);
    cmd.AddValue("maxAmsduBytes", "80211n/ac: BE_MaxAmsduSize (0: no A-MSDUs)", maxAmsduBytes);
    cmd.AddValue("msduLifetimeS", "WifiMacQueue MaxDelay (s); 0: none within the run",
                 msduLifetimeS);
    cmd.AddValue("propagation", "two_ray_ground or log_distance", propagation);
    cmd.AddValue("exponent", "log-distance path-loss exponent", exponent);
    cmd.AddValue("referenceDistanceM", "log-distance reference distance (m)", referenceDistanceM);
    cmd.AddValue("referenceLossDb", "path loss at the reference distance (dB)", referenceLossDb);
    cmd.AddValue("frequencyHz", "carrier frequency (Hz)", frequencyHz);
    cmd.AddValue("antennaHeightM", "antenna height above the ground (m)", antennaHeightM);
    cmd.AddValue("antennaGain", "antenna gain (linear, both ends)", antennaGain);
    cmd.AddValue("systemLoss", "system loss L (linear)", systemLoss);
    cmd.AddValue("rxThresholdW", "weakest frame whose preamble is detected (W)", rxThresholdW);
    cmd.AddValue("csThresholdW", "weakest signal that exists for a receiver (W)", csThresholdW);
    cmd.AddValue("preambleSnrDb", "preamble detection SNR threshold (dB)", preambleSnrDb);
    cmd.AddValue("noiseFigureDb", "receiver noise figure (dB)", noiseFigureDb);
    cmd.AddValue("mssBytes", "TCP segment size (payload bytes)", mssBytes);
    cmd.AddValue("initialWindow", "initial congestion window (segments)", initialWindow);
    cmd.AddValue("delAckCount", "segments per ACK (1 = no delayed ACK)", delAckCount);
    cmd.AddValue("delAckTimeoutS", "delayed-ACK timer (s)", delAckTimeoutS);
    cmd.AddValue("minRtoS", "minimum RTO (s)", minRtoS);
    cmd.AddValue("clockGranularityS", "RTO clock granularity G (s)", clockGranularityS);
    cmd.AddValue("receiverWindowBytes", "receive buffer = advertised window (bytes)", receiverWindowBytes);
    cmd.AddValue("dupackThreshold", "duplicate ACKs before fast retransmit", dupackThreshold);
    cmd.AddValue("initialRtoS", "RTO before the first RTT sample: the SYN's timer (s)", initialRtoS);
    cmd.Parse(argc, argv);

    NS_ABORT_MSG_IF(hops < 1, "hops must be at least 1");
    NS_ABORT_MSG_IF(warmupS >= durationS, "warmupS must be below durationS");
    g.warmupS = warmupS;
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);

    // ---------------------------------------------------------------- TCP
    std::string ccType;
    if (variant == "newreno")
    {
        ccType = "ns3::TcpNewReno";
    }
    else if (variant == "cubic")
    {
        ccType = "ns3::TcpCubic";
        // hopsim's CUBIC has RFC 5681 slow start (no HyStart); RFC 9438 constants.
        Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(false));
        Config::SetDefault("ns3::TcpCubic::Beta", DoubleValue(0.7));
        Config::SetDefault("ns3::TcpCubic::C", DoubleValue(0.4));
        Config::SetDefault("ns3::TcpCubic::FastConvergence", BooleanValue(true));
    }
    else if (variant == "bbr")
    {
        ccType = "ns3::TcpBbr";
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
    }
    else
    {
        NS_ABORT_MSG("variant must be newreno, cubic or bbr, not " << variant);
    }
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TypeId::LookupByName(ccType)));
    NS_ABORT_MSG_IF(recovery != "classic" && recovery != "prr",
                    "recovery must be classic or prr, not " << recovery);
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TypeId::LookupByName(recovery == "prr" ? "ns3::TcpPrrRecovery"
                                                                          : "ns3::TcpClassicRecovery")));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mssBytes));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialWindow));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAckCount));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(Seconds(delAckTimeoutS)));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(receiverWindowBytes));
    // The sender's buffer only holds data the application has written: large enough that the
    // bulk source never starves the window.
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 * 1024 * 1024));
    // The first RTT sample comes from the handshake, so the SYN's timer is the initial RTO.
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(initialRtoS)));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minRtoS)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(Seconds(clockGranularityS)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    // hopsim's segments carry a plain 20-byte TCP header and no limited transmit (RFC 3042).
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::ReTxThreshold", UintegerValue(dupackThreshold));

    // ---------------------------------------------------------------- MAC queue
    Config::SetDefault("ns3::WifiMacQueue::MaxSize",
                       QueueSizeValue(QueueSize(std::to_string(queuePackets) + "p")));
    // hopsim's queue has no deadline (ns-3 drops MPDUs older than 500 ms by default).
    Config::SetDefault("ns3::WifiMacQueue::MaxDelay",
                       TimeValue(Seconds(msduLifetimeS > 0 ? msduLifetimeS : 10 * durationS)));

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

    YansWifiChannelHelper channel;
    channel.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel");
    if (propagation == "log_distance")
    {
        channel.AddPropagationLoss("ns3::LogDistancePropagationLossModel",
                                   "Exponent", DoubleValue(exponent),
                                   "ReferenceDistance", DoubleValue(referenceDistanceM),
                                   "ReferenceLoss", DoubleValue(referenceLossDb));
    }
    else // the driver writes two_ray_ground or log_distance
    {
        channel.AddPropagationLoss("ns3::TwoRayGroundPropagationLossModel",
                                   "Frequency", DoubleValue(frequencyHz),
                                   "SystemLoss", DoubleValue(systemLoss),
                                   "HeightAboveZ", DoubleValue(antennaHeightM));
    }
    YansWifiPhyHelper phy;
    phy.SetChannel(channel.Create());
    const double gainDb = 10.0 * std::log10(antennaGain);
    const double txDbm = DbmOf(txPowerW);
    const double csDbm = DbmOf(csThresholdW);
    const double rxDbm = DbmOf(rxThresholdW);
    phy.Set("TxPowerStart", DoubleValue(txDbm));
    phy.Set("TxPowerEnd", DoubleValue(txDbm));
    phy.Set("TxPowerLevels", UintegerValue(1));
    phy.Set("TxGain", DoubleValue(gainDb));
    phy.Set("RxGain", DoubleValue(gainDb));
    phy.Set("RxNoiseFigure", DoubleValue(noiseFigureDb));
    if (csDbm <= rxDbm)
    {
        // Below the carrier-sense threshold a signal does not reach the PHY at all
        // (YansWifiChannel::Receive compares with RxSensitivity + 10 log10(width / 20 MHz); an
        // 802.11b signal is 22 MHz wide, hence the correction). Any signal that reaches the
        // PHY makes the medium busy (CCA), a Wi-Fi frame or the sum.
        phy.Set("RxSensitivity", DoubleValue(csDbm - 10.0 * std::log10(22.0 / 20.0)));
        phy.Set("CcaSensitivity", DoubleValue(csDbm));
        phy.Set("CcaEdThreshold", DoubleValue(csDbm));
    }
    else
    {
        // Energy detection above the decode threshold (the 802.11a/g defaults, -62 / -82 dBm):
        // a detected frame holds CCA from -82 dBm, other energy from the ED threshold.
        phy.Set("CcaSensitivity", DoubleValue(rxDbm));
        phy.Set("CcaEdThreshold", DoubleValue(csDbm));
    }
    if (standard != "80211b")
    {
        phy.SetErrorRateModel("ns3::NistErrorRateModel"); // as hopsim decodes OFDM
    }
    const bool vht = standard == "80211ac";
    const bool ht = standard == "80211n" || vht;
    if (ht)
    {
        // VHT: the constant-rate manager sends min(MaxSupportedTxSpatialStreams, the peer's
        // Rx streams); HT: the MCS gives them.
        phy.Set("ChannelSettings",
                StringValue("{0, " + std::to_string(channelWidthMhz) + ", BAND_5GHZ, 0}"));
        phy.Set("Antennas", UintegerValue(antennas));
        phy.Set("MaxSupportedTxSpatialStreams", UintegerValue(vht ? streams : antennas));
        phy.Set("MaxSupportedRxSpatialStreams", UintegerValue(vht ? streams : antennas));
    }
    // Only frames at or above the decode threshold are synchronised on (the decode range).
    phy.SetPreambleDetectionModel("ns3::ThresholdPreambleDetectionModel",
                                  "MinimumRssi", DoubleValue(rxDbm),
                                  "Threshold", DoubleValue(preambleSnrDb));

    WifiHelper wifi;
    // The driver writes 80211b, 80211a, 80211g, 80211n or 80211ac.
    wifi.SetStandard(standard == "80211a"   ? WIFI_STANDARD_80211a
                     : standard == "80211g" ? WIFI_STANDARD_80211g
                     : vht                  ? WIFI_STANDARD_80211ac
                     : ht                   ? WIFI_STANDARD_80211n
                                            : WIFI_STANDARD_80211b);
    wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager",
                                 "DataMode", StringValue(dataMode),
                                 "ControlMode", StringValue(controlMode),
                                 "NonUnicastMode", StringValue(controlMode),
                                 "RtsCtsThreshold", UintegerValue(rtsThresholdBytes));
    WifiMacHelper mac;
    // HT stations are QoS stations (best effort); A-MPDUs up to maxAmpduBytes, none at 0.
    mac.SetType("ns3::AdhocWifiMac", "QosSupported", BooleanValue(ht),
                "FrameRetryLimit", UintegerValue(retryLimit),
                "BE_MaxAmpduSize", UintegerValue(ht ? maxAmpduBytes : 65535),
                "BE_MaxAmsduSize", UintegerValue(ht ? maxAmsduBytes : 0));
    if (ht)
    {
        wifi.ConfigHtOptions("ShortGuardIntervalSupported", BooleanValue(shortGi));
    }
    NetDeviceContainer devices = wifi.Install(phy, mac, nodes);

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
    bulk.SetAttribute("SendSize", UintegerValue(mssBytes));
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
    ConnectAll(ht ? "Mac/BE_Txop/Queue/Enqueue" : "Mac/Txop/Queue/Enqueue",
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
                hops, variant.c_str(), static_cast<unsigned long long>(run),
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
