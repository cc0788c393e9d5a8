// IEEE 802.11s mesh points for mesh_tcp.cc (`--routing=hwmp`): one mesh interface per node
// with the radio of hopsim_common.h, HWMP and peering from ns-3's dot11s stack, and HWMP's
// own counts of the elements each node sent.
//
// ns-3.44's MeshHelper tunes every interface to channel 100 (5 GHz) and so aborts on an
// 802.11b PHY: the interfaces are built here instead, as MeshHelper::CreateInterface builds
// them (a QoS mesh MAC with its four access categories, the standard's frame exchange manager,
// the given PHY and station manager) but left on the PHY's default channel of its band.
#pragma once

#include "hopsim_common.h"

#include "ns3/mesh-module.h"

#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace hopsim
{

using namespace ns3;

// One mesh interface of `node` on `phyHelper`'s channel. `groupMgmtAsVo` (a diagnostic): the
// background access category, where ns-3's mesh MAC queues group-addressed management frames
// (PREQs; MeshWifiInterfaceMac::SendManagementFrame), gets voice's parameters (Table 9-155:
// AIFSN 2, CW (aCWmin + 1) / 4 - 1 to (aCWmin + 1) / 2 - 1), as if they were sent in voice.
inline Ptr<WifiNetDevice>
MakeMeshInterface(Ptr<Node> node,
                  const WifiPhyHelper& phyHelper,
                  const WifiArgs& a,
                  bool groupMgmtAsVo)
{
    const WifiStandard standard = StandardOf(a);
    Ptr<WifiNetDevice> device = CreateObject<WifiNetDevice>();
    ObjectFactory macFactory("ns3::MeshWifiInterfaceMac");
    macFactory.Set("QosSupported", BooleanValue(true)); // 802.11s: a mesh STA is a QoS STA
    macFactory.Set("FrameRetryLimit", UintegerValue(a.retryLimit));
    for (const std::string ac : {"BE", "BK", "VI", "VO"})
    {
        auto txop = CreateObjectWithAttributes<QosTxop>("AcIndex", StringValue("AC_" + ac));
        if (groupMgmtAsVo && ac == "BK")
        {
            const uint32_t cwMin = standard == WIFI_STANDARD_80211b ? 31 : 15; // aCWmin
            txop->SetMinCws({(cwMin + 1) / 4 - 1});
            txop->SetMaxCws({(cwMin + 1) / 2 - 1});
            txop->SetAifsns({2});
        }
        macFactory.Set(ac + "_Txop", PointerValue(txop));
    }
    std::vector<Ptr<WifiPhy>> phys = phyHelper.Create(node, device);
    NS_ABORT_MSG_IF(phys.size() != 1, "a mesh interface has one PHY");
    node->AddDevice(device);
    phys[0]->ConfigureStandard(standard);
    device->SetPhy(phys[0]);
    Ptr<MeshWifiInterfaceMac> mac = macFactory.Create<MeshWifiInterfaceMac>();
    mac->SetSsid(Ssid());
    mac->SetDevice(device);
    device->SetRemoteStationManager(StationManagerOf(a).Create<WifiRemoteStationManager>());
    mac->SetAddress(Mac48Address::Allocate());
    device->SetMac(mac);
    mac->SetMacQueueScheduler(CreateObject<FcfsWifiQueueScheduler>());
    mac->SetChannelAccessManagers({CreateObject<ChannelAccessManager>()});
    ObjectFactory femFactory;
    femFactory.SetTypeId(GetFrameExchangeManagerTypeIdName(standard, true));
    Ptr<FrameExchangeManager> fem = femFactory.Create<FrameExchangeManager>();
    mac->SetFrameExchangeManagers({fem});
    fem->SetAddress(mac->GetAddress());
    Ptr<WifiProtectionManager> protection = CreateObject<WifiDefaultProtectionManager>();
    protection->SetWifiMac(mac);
    fem->SetProtectionManager(protection);
    Ptr<WifiAckManager> acks = CreateObject<WifiDefaultAckManager>();
    acks->SetWifiMac(mac);
    fem->SetAckManager(acks);
    return device;
}

// A mesh point with HWMP and peering on every node; `hwmpAttributes` ("Name=value;...") set
// ns3::dot11s::HwmpProtocol's defaults first. Returns the mesh point devices (IP goes on
// them).
inline NetDeviceContainer
InstallMesh(NodeContainer& nodes,
            const WifiArgs& a,
            double durationS,
            const std::string& hwmpAttributes,
            bool groupMgmtAsVo)
{
    NS_ABORT_MSG_IF(a.Ht(), "hwmp: 802.11n/ac mesh interfaces are not translated");
    for (const auto& [name, value] : ParsePairs(hwmpAttributes, "hwmp"))
    {
        Config::SetDefault("ns3::dot11s::HwmpProtocol::" + name, StringValue(value));
    }
    YansWifiPhyHelper phy = MakePhy(a, durationS);
    NetDeviceContainer points;
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        Ptr<Node> node = nodes.Get(i);
        Ptr<MeshPointDevice> mp = CreateObject<MeshPointDevice>();
        node->AddDevice(mp);
        mp->AddInterface(MakeMeshInterface(node, phy, a, groupMgmtAsVo));
        Dot11sStack stack;
        NS_ABORT_MSG_IF(!stack.InstallStack(mp), "the dot11s stack did not install");
        points.Add(mp);
    }
    return points;
}

// Every HWMP element frame the nodes sent (HwmpProtocolMac's statistics: one per frame handed
// to the MAC, not per attempt) by kind: hwmp_preq, hwmp_prep, hwmp_perr, with the frames' body
// bytes over all kinds; and every counter of HwmpProtocol's reports summed over the nodes
// (initiatedPreq: discoveries started, totalDropped: data HWMP dropped, ...).
struct HwmpSent
{
    std::map<std::string, uint64_t> frames;
    uint64_t bodyBytes = 0;
    std::map<std::string, uint64_t> report;
};

inline HwmpSent
CountHwmp(const NetDeviceContainer& points)
{
    HwmpSent sent;
    static const std::regex field("([A-Za-z]+)= ?\"([0-9]+)\"");
    static const std::map<std::string, std::string> kinds = {
        {"txPreq", "hwmp_preq"}, {"txPrep", "hwmp_prep"}, {"txPerr", "hwmp_perr"}};
    for (uint32_t i = 0; i < points.GetN(); ++i)
    {
        Ptr<dot11s::HwmpProtocol> hwmp = DynamicCast<dot11s::HwmpProtocol>(
            DynamicCast<MeshPointDevice>(points.Get(i))->GetRoutingProtocol());
        NS_ABORT_MSG_IF(!hwmp, "node " << i << " has no HWMP");
        std::ostringstream report;
        hwmp->Report(report);
        const std::string text = report.str();
        for (auto it = std::sregex_iterator(text.begin(), text.end(), field);
             it != std::sregex_iterator(); ++it)
        {
            const std::string name = (*it)[1];
            const uint64_t value = std::stoull((*it)[2]);
            sent.report[name] += value;
            if (name == "txMgtBytes")
            {
                sent.bodyBytes += value;
            }
            else if (kinds.count(name))
            {
                sent.frames[kinds.at(name)] += value;
            }
        }
    }
    return sent;
}

// Beacons and peering frames on the air (each attempt): what ns-3's mesh sends beside HWMP
// and hopsim does not (its peerings stand from the start).
inline std::map<std::string, uint64_t>&
MeshUpkeep()
{
    static std::map<std::string, uint64_t> counts;
    return counts;
}

inline void
OnMeshPhyTx(WifiConstPsduMap psdus, WifiTxVector, double)
{
    for (const auto& [id, psdu] : psdus)
    {
        for (auto it = psdu->begin(); it != psdu->end(); ++it)
        {
            const WifiMacHeader& h = (*it)->GetHeader();
            if (h.IsBeacon())
            {
                MeshUpkeep()["mesh_beacon"]++;
            }
            else if (h.IsAction())
            {
                Ptr<Packet> body = (*it)->GetPacket()->Copy();
                WifiActionHeader action;
                body->RemoveHeader(action);
                if (action.GetCategory() == WifiActionHeader::SELF_PROTECTED)
                {
                    MeshUpkeep()["mesh_peering"]++;
                }
            }
        }
    }
}

} // namespace hopsim
