// What the ns-3 TCP scenarios (chain_tcp.cc, mesh_tcp.cc) share: the radio, MAC and TCP
// settings a resolved hopsim scenario gives on the command line, and how they are applied. Every
// default here is overwritten by the driver (python/hopsim/crosscheck/ns3translate.py); the
// translation and the differences that remain are in docs/validation.md, "Side by side with
// ns-3".
#pragma once

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/propagation-module.h"
#include "ns3/wifi-module.h"

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace hopsim
{

using namespace ns3;

// The PHY, channel and MAC of every node.
struct WifiArgs
{
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

    void Add(CommandLine& cmd)
    {
        cmd.AddValue("dataMode", "WifiMode of DATA frames", dataMode);
        cmd.AddValue("controlMode", "WifiMode of RTS frames", controlMode);
        cmd.AddValue("rtsThresholdBytes", "RTS/CTS when the PSDU is longer than this",
                     rtsThresholdBytes);
        cmd.AddValue("retryLimit", "WifiMac FrameRetryLimit (attempts)", retryLimit);
        cmd.AddValue("queuePackets", "WifiMacQueue size (packets)", queuePackets);
        cmd.AddValue("txPowerW", "transmit power (W)", txPowerW);
        cmd.AddValue("standard", "80211b, 80211a, 80211g, 80211n or 80211ac", standard);
        cmd.AddValue("channelWidthMhz", "80211n: 20 or 40; 80211ac: up to 160 (5 GHz band)",
                     channelWidthMhz);
        cmd.AddValue("shortGi", "80211n/ac: the 400 ns guard interval", shortGi);
        cmd.AddValue("antennas", "80211n/ac: antennas (80211n: and spatial streams)", antennas);
        cmd.AddValue("streams", "80211ac: spatial streams of DATA frames", streams);
        cmd.AddValue("maxAmpduBytes",
                     "80211n: BE_MaxAmpduSize (0: every MPDU acknowledged alone)", maxAmpduBytes);
        cmd.AddValue("maxAmsduBytes", "80211n/ac: BE_MaxAmsduSize (0: no A-MSDUs)",
                     maxAmsduBytes);
        cmd.AddValue("msduLifetimeS", "WifiMacQueue MaxDelay (s); 0: none within the run",
                     msduLifetimeS);
        cmd.AddValue("propagation", "two_ray_ground or log_distance", propagation);
        cmd.AddValue("exponent", "log-distance path-loss exponent", exponent);
        cmd.AddValue("referenceDistanceM", "log-distance reference distance (m)",
                     referenceDistanceM);
        cmd.AddValue("referenceLossDb", "path loss at the reference distance (dB)",
                     referenceLossDb);
        cmd.AddValue("frequencyHz", "carrier frequency (Hz)", frequencyHz);
        cmd.AddValue("antennaHeightM", "antenna height above the ground (m)", antennaHeightM);
        cmd.AddValue("antennaGain", "antenna gain (linear, both ends)", antennaGain);
        cmd.AddValue("systemLoss", "system loss L (linear)", systemLoss);
        cmd.AddValue("rxThresholdW", "weakest frame whose preamble is detected (W)",
                     rxThresholdW);
        cmd.AddValue("csThresholdW", "weakest signal that exists for a receiver (W)",
                     csThresholdW);
        cmd.AddValue("preambleSnrDb", "preamble detection SNR threshold (dB)", preambleSnrDb);
        cmd.AddValue("noiseFigureDb", "receiver noise figure (dB)", noiseFigureDb);
    }

    bool Ht() const
    {
        return standard == "80211n" || standard == "80211ac";
    }
};

// The TCP sockets of every node.
struct TcpArgs
{
    std::string variant = "newreno"; // newreno | cubic | bbr
    std::string recovery = "classic"; // classic | prr
    bool sack = false;
    uint32_t mssBytes = 1460;
    uint32_t initialWindow = 2;
    uint32_t delAckCount = 1;
    double delAckTimeoutS = 0.1;
    double minRtoS = 0.2;
    double clockGranularityS = 0.01;
    uint32_t receiverWindowBytes = 20 * 1460;
    uint32_t dupackThreshold = 3;
    double initialRtoS = 3.0;

    void Add(CommandLine& cmd)
    {
        cmd.AddValue("variant", "newreno, cubic or bbr", variant);
        cmd.AddValue("recovery", "classic (RFC 6582 / 5681) or prr (RFC 6937)", recovery);
        cmd.AddValue("sack", "SACK option (RFC 2018)", sack);
        cmd.AddValue("mssBytes", "TCP segment size (payload bytes)", mssBytes);
        cmd.AddValue("initialWindow", "initial congestion window (segments)", initialWindow);
        cmd.AddValue("delAckCount", "segments per ACK (1 = no delayed ACK)", delAckCount);
        cmd.AddValue("delAckTimeoutS", "delayed-ACK timer (s)", delAckTimeoutS);
        cmd.AddValue("minRtoS", "minimum RTO (s)", minRtoS);
        cmd.AddValue("clockGranularityS", "RTO clock granularity G (s)", clockGranularityS);
        cmd.AddValue("receiverWindowBytes", "receive buffer = advertised window (bytes)",
                     receiverWindowBytes);
        cmd.AddValue("dupackThreshold", "duplicate ACKs before fast retransmit",
                     dupackThreshold);
        cmd.AddValue("initialRtoS", "RTO before the first RTT sample: the SYN's timer (s)",
                     initialRtoS);
    }
};

inline double
DbmOf(double watts)
{
    return 10.0 * std::log10(watts * 1e3);
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

// The socket defaults of every TCP socket created afterwards.
inline void
ConfigureTcp(const TcpArgs& a)
{
    std::string ccType;
    if (a.variant == "newreno")
    {
        ccType = "ns3::TcpNewReno";
    }
    else if (a.variant == "cubic")
    {
        ccType = "ns3::TcpCubic";
        // hopsim's CUBIC has RFC 5681 slow start (no HyStart); RFC 9438 constants.
        Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(false));
        Config::SetDefault("ns3::TcpCubic::Beta", DoubleValue(0.7));
        Config::SetDefault("ns3::TcpCubic::C", DoubleValue(0.4));
        Config::SetDefault("ns3::TcpCubic::FastConvergence", BooleanValue(true));
    }
    else if (a.variant == "bbr")
    {
        ccType = "ns3::TcpBbr";
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
    }
    else
    {
        NS_ABORT_MSG("variant must be newreno, cubic or bbr, not " << a.variant);
    }
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TypeId::LookupByName(ccType)));
    NS_ABORT_MSG_IF(a.recovery != "classic" && a.recovery != "prr",
                    "recovery must be classic or prr, not " << a.recovery);
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TypeId::LookupByName(
                           a.recovery == "prr" ? "ns3::TcpPrrRecovery" : "ns3::TcpClassicRecovery")));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(a.mssBytes));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(a.initialWindow));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(a.delAckCount));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(Seconds(a.delAckTimeoutS)));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(a.receiverWindowBytes));
    // The sender's buffer only holds data the application has written: large enough that the
    // bulk source never starves the window.
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 * 1024 * 1024));
    // The first RTT sample comes from the handshake, so the SYN's timer is the initial RTO.
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(a.initialRtoS)));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(a.minRtoS)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity",
                       TimeValue(Seconds(a.clockGranularityS)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(a.sack));
    // hopsim's segments carry a plain 20-byte TCP header and no limited transmit (RFC 3042).
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::ReTxThreshold", UintegerValue(a.dupackThreshold));
}

// The channel and PHY of every node (the queue's defaults too); `durationS` bounds the
// queue's deadline when the scenario has none.
inline YansWifiPhyHelper
MakePhy(const WifiArgs& a, double durationS)
{
    Config::SetDefault("ns3::WifiMacQueue::MaxSize",
                       QueueSizeValue(QueueSize(std::to_string(a.queuePackets) + "p")));
    // hopsim's queue has no deadline (ns-3 drops MPDUs older than 500 ms by default).
    Config::SetDefault("ns3::WifiMacQueue::MaxDelay",
                       TimeValue(Seconds(a.msduLifetimeS > 0 ? a.msduLifetimeS : 10 * durationS)));

    YansWifiChannelHelper channel;
    channel.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel");
    if (a.propagation == "log_distance")
    {
        channel.AddPropagationLoss("ns3::LogDistancePropagationLossModel",
                                   "Exponent", DoubleValue(a.exponent),
                                   "ReferenceDistance", DoubleValue(a.referenceDistanceM),
                                   "ReferenceLoss", DoubleValue(a.referenceLossDb));
    }
    else // the driver writes two_ray_ground or log_distance
    {
        channel.AddPropagationLoss("ns3::TwoRayGroundPropagationLossModel",
                                   "Frequency", DoubleValue(a.frequencyHz),
                                   "SystemLoss", DoubleValue(a.systemLoss),
                                   "HeightAboveZ", DoubleValue(a.antennaHeightM));
    }
    YansWifiPhyHelper phy;
    phy.SetChannel(channel.Create());
    const double gainDb = 10.0 * std::log10(a.antennaGain);
    const double txDbm = DbmOf(a.txPowerW);
    const double csDbm = DbmOf(a.csThresholdW);
    const double rxDbm = DbmOf(a.rxThresholdW);
    phy.Set("TxPowerStart", DoubleValue(txDbm));
    phy.Set("TxPowerEnd", DoubleValue(txDbm));
    phy.Set("TxPowerLevels", UintegerValue(1));
    phy.Set("TxGain", DoubleValue(gainDb));
    phy.Set("RxGain", DoubleValue(gainDb));
    phy.Set("RxNoiseFigure", DoubleValue(a.noiseFigureDb));
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
    if (a.standard != "80211b")
    {
        phy.SetErrorRateModel("ns3::NistErrorRateModel"); // as hopsim decodes OFDM
    }
    const bool vht = a.standard == "80211ac";
    const bool ht = a.Ht();
    if (ht)
    {
        // VHT: the constant-rate manager sends min(MaxSupportedTxSpatialStreams, the peer's
        // Rx streams); HT: the MCS gives them.
        phy.Set("ChannelSettings",
                StringValue("{0, " + std::to_string(a.channelWidthMhz) + ", BAND_5GHZ, 0}"));
        phy.Set("Antennas", UintegerValue(a.antennas));
        phy.Set("MaxSupportedTxSpatialStreams", UintegerValue(vht ? a.streams : a.antennas));
        phy.Set("MaxSupportedRxSpatialStreams", UintegerValue(vht ? a.streams : a.antennas));
    }
    // Only frames at or above the decode threshold are synchronised on (the decode range).
    phy.SetPreambleDetectionModel("ns3::ThresholdPreambleDetectionModel",
                                  "MinimumRssi", DoubleValue(rxDbm),
                                  "Threshold", DoubleValue(a.preambleSnrDb));
    return phy;
}

// The driver writes 80211b, 80211a, 80211g, 80211n or 80211ac.
inline WifiStandard
StandardOf(const WifiArgs& a)
{
    return a.standard == "80211a"    ? WIFI_STANDARD_80211a
           : a.standard == "80211g"  ? WIFI_STANDARD_80211g
           : a.standard == "80211ac" ? WIFI_STANDARD_80211ac
           : a.Ht()                  ? WIFI_STANDARD_80211n
                                     : WIFI_STANDARD_80211b;
}

// The fixed rates of every node (hopsim's scenarios fix them for a side by side).
inline ObjectFactory
StationManagerOf(const WifiArgs& a)
{
    ObjectFactory f("ns3::ConstantRateWifiManager");
    f.Set("DataMode", StringValue(a.dataMode));
    f.Set("ControlMode", StringValue(a.controlMode));
    f.Set("NonUnicastMode", StringValue(a.controlMode));
    f.Set("RtsCtsThreshold", UintegerValue(a.rtsThresholdBytes));
    return f;
}

// Installs the channel, PHY and MAC on `nodes` (placed already).
inline NetDeviceContainer
InstallWifi(NodeContainer& nodes, const WifiArgs& a, double durationS)
{
    YansWifiPhyHelper phy = MakePhy(a, durationS);
    const bool ht = a.Ht();
    WifiHelper wifi;
    wifi.SetStandard(StandardOf(a));
    wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager",
                                 "DataMode", StringValue(a.dataMode),
                                 "ControlMode", StringValue(a.controlMode),
                                 "NonUnicastMode", StringValue(a.controlMode),
                                 "RtsCtsThreshold", UintegerValue(a.rtsThresholdBytes));
    WifiMacHelper mac;
    // HT stations are QoS stations (best effort); A-MPDUs up to maxAmpduBytes, none at 0.
    mac.SetType("ns3::AdhocWifiMac", "QosSupported", BooleanValue(ht),
                "FrameRetryLimit", UintegerValue(a.retryLimit),
                "BE_MaxAmpduSize", UintegerValue(ht ? a.maxAmpduBytes : 65535),
                "BE_MaxAmsduSize", UintegerValue(ht ? a.maxAmsduBytes : 0));
    if (ht)
    {
        wifi.ConfigHtOptions("ShortGuardIntervalSupported", BooleanValue(a.shortGi));
    }
    return wifi.Install(phy, mac, nodes);
}

// "a,b,c;d,e,f" as rows of numbers.
inline std::vector<std::vector<double>>
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

// "Name=value;Name=value" as pairs.
inline std::vector<std::pair<std::string, std::string>>
ParsePairs(const std::string& text, const std::string& what)
{
    std::vector<std::pair<std::string, std::string>> pairs;
    std::stringstream all(text);
    std::string pair;
    while (std::getline(all, pair, ';'))
    {
        const auto eq = pair.find('=');
        NS_ABORT_MSG_IF(eq == std::string::npos, what << ": \"" << pair << "\" is not Name=value");
        pairs.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
    }
    return pairs;
}

// {"a": 1, ...}
inline std::string
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

} // namespace hopsim
