"""IEEE 802.11ac VHT SU PPDU timing, written from the standard (test code).

Like ``dot11ht_timing``, an independent statement of the timing the simulator must
reproduce, importing nothing from ``hopsim``. Times in microseconds, sizes in bytes.

Sources (IEEE 802.11-2016, clause 21):

* VHT SU PPDU (21.3.4, Table 21-5, eq. 21-105): L-STF 8 + L-LTF 8 + L-SIG 4 + VHT-SIG-A 8
  + VHT-STF 4 + one 4 us VHT-LTF per stream (four for three streams, Table 21-13) +
  VHT-SIG-B 4, then N_SYM = ceil((16 + 8 LENGTH + 6 N_ES) / N_DBPS) DATA symbols of 4 us
  (3.6 us short GI; the PPDU then ends on the next 4 us boundary).
* N_DBPS = N_SD x N_BPSCS x R x N_SS with N_SD = 52, 108, 234, 468 data subcarriers at 20, 40,
  80, 160 MHz (Table 21-5) and MCS 0-9's modulation and coding (Table 21-30: BPSK 1/2, QPSK
  1/2, 3/4, 16-QAM 1/2, 3/4, 64-QAM 2/3, 3/4, 5/6, 256-QAM 3/4, 5/6). The combinations whose
  N_DBPS is not whole are left out of Tables 21-30 to 21-61 (MCS 9 at 20 MHz with 1, 2 or 4
  streams; MCS 6 at 80 MHz with 3).
* N_ES, the BCC encoders, as the N_ES column of those tables gives it: for the long-GI rates,
  one per started 540 Mbit/s, except 160 MHz, four streams, MCS 7 (2340 Mbit/s): six.
* A VHT PPDU always carries an A-MPDU (10.13.1): a lone MPDU is an S-MPDU behind a 4-octet
  delimiter (10.13.8).
* The control response to a VHT frame: a non-HT OFDM frame at the highest mandatory rate
  (6, 12, 24) not above the non-HT reference rate of its modulation (10.7.6.5.2); 256-QAM
  refers to 54 Mbit/s, so MCS 3-9 are answered at 24.
"""

from __future__ import annotations

import math

PREAMBLE_US = 16.0 + 4.0 + 8.0 + 4.0 + 4.0  # L-STF/LTF, L-SIG, VHT-SIG-A, VHT-STF, VHT-SIG-B
VHT_LTF_US = 4.0
S_MPDU_DELIMITER_BYTES = 4

DATA_SUBCARRIERS = {20: 52, 40: 108, 80: 234, 160: 468}
# (bits per subcarrier, code rate numerator, denominator) of MCS 0-9.
MODULATION = (
    (1, 1, 2),
    (2, 1, 2),
    (2, 3, 4),
    (4, 1, 2),
    (4, 3, 4),
    (6, 2, 3),
    (6, 3, 4),
    (6, 5, 6),
    (8, 3, 4),
    (8, 5, 6),
)
NON_HT_REFERENCE_MBPS = (6, 12, 18, 24, 36, 48, 54, 54, 54, 54)


def valid(mcs: int, width_mhz: int, nss: int) -> bool:
    bits, num, den = MODULATION[mcs]
    coded = DATA_SUBCARRIERS[width_mhz] * bits * nss
    return coded * num % den == 0 and (coded * num // den) % n_es(mcs, width_mhz, nss) == 0


def ndbps(mcs: int, width_mhz: int, nss: int) -> int:
    bits, num, den = MODULATION[mcs]
    return DATA_SUBCARRIERS[width_mhz] * bits * nss * num // den


def rate_mbps(mcs: int, width_mhz: int, nss: int, short_gi: bool = False) -> float:
    return ndbps(mcs, width_mhz, nss) / (3.6 if short_gi else 4.0)


def n_es(mcs: int, width_mhz: int, nss: int) -> int:
    if (mcs, width_mhz, nss) == (7, 160, 4):
        return 6
    bits, num, den = MODULATION[mcs]
    long_gi_mbps = DATA_SUBCARRIERS[width_mhz] * bits * nss * num / den / 4.0
    return math.ceil(long_gi_mbps / 540.0 - 1e-9)


def ppdu_us(psdu_bytes: int, mcs: int, width_mhz: int, nss: int, short_gi: bool = False) -> float:
    """TXTIME of a VHT SU PPDU of a ``psdu_bytes`` PSDU (BCC, no STBC)."""
    n_sym = math.ceil(
        (16 + 8 * psdu_bytes + 6 * n_es(mcs, width_mhz, nss)) / ndbps(mcs, width_mhz, nss)
    )
    ltf = {1: 1, 2: 2, 3: 4, 4: 4}[nss]
    data = n_sym * (3.6 if short_gi else 4.0)
    return PREAMBLE_US + VHT_LTF_US * ltf + 4.0 * math.ceil(data / 4.0 - 1e-9)


def ack_rate_mbps(mcs: int) -> float:
    return max(r for r in (6, 12, 24) if r <= NON_HT_REFERENCE_MBPS[mcs])
