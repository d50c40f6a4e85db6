//! Peer benchmarks.
