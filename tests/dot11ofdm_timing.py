"""IEEE 802.11a OFDM and 802.11g ERP-OFDM timing, written from the standard (test code).

Like ``dot11b_timing``, an independent statement of the timing the simulator must reproduce,
importing nothing from ``hopsim``. Times in microseconds, sizes in bytes, rates in Mbit/s.

Sources (IEEE 802.11-2016):

* PPDU: 16 us preamble (short + long training), 4 us SIGNAL, then the DATA field of
  N_SYM = ceil((16 + 8 LENGTH + 6) / N_DBPS) 4-us symbols (17.3.5.4, eq. 17-11; TXTIME
  17.4.3 eq. 17-29). N_DBPS = 4 x the rate in Mbit/s (48 data subcarriers, 4 us symbols).
* 802.11a (Table 17-21): aSlotTime 9 us, aSIFSTime 16 us, aCWmin 15, aCWmax 1023.
* 802.11g with ERP stations only (Table 18-5): aSIFSTime 10 us, aCWmin 15, and the long
  slot of 20 us, since IBSS stations do not use the short one (9.4.1.4); every ERP-OFDM PPDU
  is followed by aSignalExtension = 6 us (18.3.2.4, 18.5.3).
* DIFS = SIFS + 2 slots (10.3.2.3.5).
* A CTS or ACK answers at the highest mandatory rate (6, 12, 24) not above the rate of the
  frame it answers (10.7.6.5.2).
"""

from __future__ import annotations

import math

PREAMBLE_US = 16.0
SIGNAL_US = 4.0
SYMBOL_US = 4.0
SERVICE_BITS = 16
TAIL_BITS = 6
SIGNAL_EXTENSION_US = 6.0

OFDM_RATES_MBPS = (6.0, 9.0, 12.0, 18.0, 24.0, 36.0, 48.0, 54.0)
MANDATORY_MBPS = (6.0, 12.0, 24.0)

#: (slot, SIFS, CWmin, signal extension) per standard.
PHY = {
    "80211a": (9.0, 16.0, 15, 0.0),
    "80211g": (20.0, 10.0, 15, SIGNAL_EXTENSION_US),
}

RTS_BYTES = 20
CTS_BYTES = 14
ACK_BYTES = 14


def ppdu_us(psdu_bytes: int, rate_mbps: float, standard: str = "80211a") -> float:
    """TXTIME of a PSDU: preamble + SIGNAL + whole data symbols (+ ERP signal extension)."""
    n_dbps = int(round(4 * rate_mbps))
    n_sym = math.ceil((SERVICE_BITS + 8 * psdu_bytes + TAIL_BITS) / n_dbps)
    return PREAMBLE_US + SIGNAL_US + SYMBOL_US * n_sym + PHY[standard][3]


def response_rate_mbps(eliciting_mbps: float) -> float:
    """10.7.6.5.2: the highest mandatory rate not above the eliciting frame's."""
    return max(r for r in MANDATORY_MBPS if r <= eliciting_mbps)


def difs_us(standard: str) -> float:
    slot, sifs, _, _ = PHY[standard]
    return sifs + 2 * slot
