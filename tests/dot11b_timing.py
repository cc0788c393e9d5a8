"""IEEE 802.11b (DSSS / HR-DSSS, long preamble) timing, written from the standard.

This module is test code: it is an independent, from-first-principles statement of the
timing that the simulator must reproduce, used by ``test_theory_tmt.py`` (one sender, no
contention) and ``test_theory_bianchi.py`` (n senders, Bianchi's model).  It deliberately
imports nothing from ``hopsim``.

All times are in microseconds (floats), all sizes in bytes, all rates in Mbit/s.

Sources (see docs/models.md for the full table):

* PLCP: long preamble (128-bit SYNC + 16-bit SFD = 144 bits) and 48-bit PLCP header, both
  sent at 1 Mbit/s whatever the data rate -> 192 us  (IEEE 802.11-1999 15.2.2, 802.11b-1999
  18.2.2; ns-2.35 ``PreambleLength_ 144``, ``PLCPHeaderLength_ 48``, ``PLCPDataRate_ 1Mb``).
* aSlotTime 20 us, aSIFSTime 10 us, aCWmin 31, aCWmax 1023 (DSSS PHY characteristics,
  802.11-1999 15.3.3 / 802.11b-1999 18.3.3).
* DIFS = SIFS + 2 slots (802.11-1999 9.2.10).
* EIFS = SIFS + (ACK frame at 1 Mbit/s incl. PLCP) + DIFS (802.11-1999 9.2.3.4 and 9.2.10).
* RTS 20 B, CTS 14 B, ACK 14 B (802.11-1999 7.2.1.1-7.2.1.3); data MPDU = 24 B 3-address MAC
  header (7.2.2) + 8 B LLC/SNAP (RFC 1042) + IP 20 B (RFC 791) + UDP 8 B (RFC 768) + payload
  + 4 B FCS.
"""

from __future__ import annotations

import math

# --- PHY (DSSS, long preamble) ---------------------------------------------------------
PLCP_PREAMBLE_BITS = 144
PLCP_HEADER_BITS = 48
PLCP_RATE_MBPS = 1.0
PLCP_US = (PLCP_PREAMBLE_BITS + PLCP_HEADER_BITS) / PLCP_RATE_MBPS  # 192 us

SLOT_US = 20.0
SIFS_US = 10.0
DIFS_US = SIFS_US + 2 * SLOT_US  # 50 us
CW_MIN = 31
CW_MAX = 1023

SPEED_OF_LIGHT_M_S = 299_792_458.0

# --- MAC frame sizes (bytes) -----------------------------------------------------------
RTS_BYTES = 20
CTS_BYTES = 14
ACK_BYTES = 14
MAC_HEADER_BYTES = 24  # frame control, duration, 3 addresses, sequence control
LLC_SNAP_BYTES = 8
FCS_BYTES = 4
IP_HEADER_BYTES = 20
UDP_HEADER_BYTES = 8
TCP_HEADER_BYTES = 20

DATA_RATES_MBPS = (1.0, 2.0, 5.5, 11.0)

#: ``rts_threshold_bytes`` values: RTS/CTS is used when the MPDU is longer than the threshold.
RTS_ALWAYS = 0
RTS_NEVER = 3000


def frame_us(mpdu_bytes: float, rate_mbps: float, *, ceil_us: bool = True) -> float:
    """Air time of one PPDU: PLCP preamble + header at 1 Mbit/s, then the MPDU at ``rate``.

    TXTIME = aPreambleLength + aPLCPHeaderLength + Ceiling(8 * LENGTH / DATARATE) us
    (802.11-2007 18.3.4, long preamble): the MPDU part is rounded up to a whole microsecond,
    which matters only at 5.5 and 11 Mbit/s.  ``ceil_us=False`` gives the exact quotient (as
    ns-2 computes it)."""
    mpdu_us = 8.0 * mpdu_bytes / rate_mbps
    if ceil_us:
        mpdu_us = math.ceil(mpdu_us - 1e-9)
    return PLCP_US + mpdu_us


def udp_mpdu_bytes(payload_bytes: int) -> int:
    """MPDU length of a UDP datagram: MAC header + LLC/SNAP + IP + UDP + payload + FCS."""
    return (
        MAC_HEADER_BYTES
        + LLC_SNAP_BYTES
        + IP_HEADER_BYTES
        + UDP_HEADER_BYTES
        + payload_bytes
        + FCS_BYTES
    )


def rts_us(basic_rate_mbps: float = 1.0) -> float:
    return frame_us(RTS_BYTES, basic_rate_mbps)


def cts_us(basic_rate_mbps: float = 1.0) -> float:
    return frame_us(CTS_BYTES, basic_rate_mbps)


def ack_us(basic_rate_mbps: float = 1.0) -> float:
    return frame_us(ACK_BYTES, basic_rate_mbps)


def eifs_us() -> float:
    """EIFS = SIFS + ACK at the lowest mandatory rate (1 Mbit/s, with PLCP) + DIFS = 364 us."""
    return SIFS_US + frame_us(ACK_BYTES, 1.0) + DIFS_US


def propagation_us(distance_m: float) -> float:
    """One-way propagation delay at the speed of light."""
    return distance_m / SPEED_OF_LIGHT_M_S * 1e6


def uses_rts(mpdu_bytes: int, rts_threshold_bytes: int) -> bool:
    """RTS/CTS precedes a unicast MPDU longer than dot11RTSThreshold."""
    return mpdu_bytes > rts_threshold_bytes
