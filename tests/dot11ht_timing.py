"""IEEE 802.11n HT-mixed PPDU timing and HT station (QoS) MAC timing, written from the
standard (test code).

Like ``dot11ofdm_timing``, an independent statement of the timing the simulator must
reproduce, importing nothing from ``hopsim``. Times in microseconds, sizes in bytes.

Sources (IEEE 802.11-2016):

* HT-mixed PPDU (19.3.9, Table 19-6 and eq. 19-135): L-STF 8 + L-LTF 8 + L-SIG 4 + HT-SIG 8
  + HT-STF 4 + one 4 us HT-LTF per stream (four for three streams, Table 19-13), then
  N_SYM = ceil((16 + 8 LENGTH + 6 N_ES) / N_DBPS) DATA symbols of 4 us, or 3.6 us with the
  short guard interval, the DATA field then ending on the next 4 us boundary (eq. 19-136).
* N_DBPS of one stream at MCS 0-7 (Tables 19-27 and 19-31): 26, 52, 78, 104, 156, 208, 234,
  260 at 20 MHz; 54, 108, 162, 216, 324, 432, 486, 540 at 40 MHz; MCS 8k+i sends k + 1
  streams of MCS i. N_ES = 2 above 300 Mbit/s (40 MHz, 3-4 streams), else 1.
* 5 GHz HT timing as 802.11a (Table 19-25): slot 9, SIFS 16, CWmin 15. HT stations are QoS
  stations: best effort waits AIFS = SIFS + AIFSN x slot with AIFSN 3 (10.22.2.2, Table
  9-137) and sends QoS Data frames, whose header has the 2-octet QoS Control (26 octets).
* An HT frame's ACK is a non-HT OFDM frame at the highest mandatory rate (6, 12, 24) not
  above the non-HT reference rate of its MCS (10.7.6.5.2): 6, 12, 18, 24, 36, 48, 54, 54.
"""

from __future__ import annotations

import math

PREAMBLE_US = 16.0 + 4.0 + 8.0 + 4.0  # L-STF, L-LTF, L-SIG, HT-SIG, HT-STF
HT_LTF_US = 4.0
SLOT_US = 9.0
SIFS_US = 16.0
CW_MIN = 15
AIFSN_BE = 3
QOS_HEADER_BYTES = 26

NDBPS_20 = (26, 52, 78, 104, 156, 208, 234, 260)
NDBPS_40 = (54, 108, 162, 216, 324, 432, 486, 540)
NON_HT_REFERENCE_MBPS = (6, 12, 18, 24, 36, 48, 54, 54)


def streams(mcs: int) -> int:
    return mcs // 8 + 1


def ndbps(mcs: int, width_mhz: int = 20) -> int:
    per_stream = (NDBPS_20 if width_mhz == 20 else NDBPS_40)[mcs % 8]
    return per_stream * streams(mcs)


def rate_mbps(mcs: int, width_mhz: int = 20, short_gi: bool = False) -> float:
    return ndbps(mcs, width_mhz) / (3.6 if short_gi else 4.0)


def ppdu_us(psdu_bytes: int, mcs: int, width_mhz: int = 20, short_gi: bool = False) -> float:
    """TXTIME of an HT-mixed PPDU (BCC, no STBC)."""
    n_es = 2 if rate_mbps(mcs, width_mhz, False) > 300 else 1
    n_sym = math.ceil((16 + 8 * psdu_bytes + 6 * n_es) / ndbps(mcs, width_mhz))
    ltf = {1: 1, 2: 2, 3: 4, 4: 4}[streams(mcs)]
    data = n_sym * (3.6 if short_gi else 4.0)
    return PREAMBLE_US + HT_LTF_US * ltf + 4.0 * math.ceil(data / 4.0 - 1e-9)


def ack_rate_mbps(mcs: int) -> float:
    ref = NON_HT_REFERENCE_MBPS[mcs % 8]
    return max(r for r in (6, 12, 24) if r <= ref)


def aifs_us() -> float:
    return SIFS_US + AIFSN_BE * SLOT_US


# A-MPDU (9.7): each MPDU behind a 4-octet delimiter, padded to 4 octets except the last;
# one PPDU lasts at most aPPDUMaxTime = 5484 us (Table 19-25). The compressed BlockAck is
# 32 octets (9.3.1.9.3) and goes at the ACK's rate.
DELIMITER_BYTES = 4
PPDU_MAX_US = 5484.0
BLOCK_ACK_BYTES = 32


def ampdu_bytes(n: int, mpdu_bytes: int) -> int:
    padded = DELIMITER_BYTES + 4 * math.ceil(mpdu_bytes / 4)
    return (n - 1) * padded + DELIMITER_BYTES + mpdu_bytes


def ampdu_mpdus(
    mpdu_bytes: int,
    mcs: int,
    width_mhz: int = 20,
    short_gi: bool = False,
    max_bytes: int = 65535,
    max_mpdus: int = 64,
) -> int:
    """The most MPDUs of ``mpdu_bytes`` one A-MPDU carries under the limits."""
    n = 1
    while n < max_mpdus:
        b = ampdu_bytes(n + 1, mpdu_bytes)
        if b > max_bytes or ppdu_us(b, mcs, width_mhz, short_gi) > PPDU_MAX_US:
            break
        n += 1
    return n
