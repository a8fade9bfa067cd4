//! Data made rather than entered: the demo installation and the test worlds
//! (docs/TESTING.md).

pub mod demo;
pub mod world;
