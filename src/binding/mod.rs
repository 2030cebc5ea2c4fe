//! The thin layer between JS values and the core: argument conversion and
//! error mapping. No algorithm lives here.

pub mod archive;
mod compaction;
mod error;
pub mod js;
pub mod mask;
mod numbers;
pub mod params;
pub mod persistent_chat;
pub mod promise;
pub mod search;
pub mod shape;
pub mod store;
pub mod text;

pub use compaction::cap_options;
pub(crate) use error::error_value;
pub use error::{run, Failure};
pub use js::Js;
pub use numbers::{budget, count, count_of};
