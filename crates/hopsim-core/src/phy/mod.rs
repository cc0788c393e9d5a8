//! Physical layer: path loss and shadowing, who hears whom, receiver noise, and per-node
//! reception (ns-2 capture, or SINR with the DSSS/CCK and OFDM error-rate curves), and the
//! transmitters outside the network (`interferer.rs`).

pub mod busy;
pub mod channel;
pub mod config;
pub mod dsss;
pub mod dynamics;
pub mod error_rate;
pub mod ht;
pub mod interferer;
pub mod links;
pub mod mcs;
pub mod noise;
pub mod ofdm;
pub mod propagation;
pub mod radio;
pub mod receiver;
pub mod sinr;
pub mod standard;
pub mod vht;
