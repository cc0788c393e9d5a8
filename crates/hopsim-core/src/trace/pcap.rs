//! pcap writer (being written).
