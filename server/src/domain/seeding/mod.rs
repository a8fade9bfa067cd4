//! Data made rather than entered: the demo installation, the test worlds
//! (docs/TESTING.md) and big data for benchmarks (docs/OPERATIONS.md, "Big data").

pub mod bulk;
pub mod demo;
pub mod world;
