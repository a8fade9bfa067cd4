//! Sitecast's wire contract. The server and the load tools use these types directly;
//! `web/src/protocol/types.ts` is generated from them (see `typescript`).

pub mod codec;
pub mod error;
pub mod messages;
pub mod replies;
pub mod text;
pub mod types;
pub mod typescript;

pub use codec::{decode, decode_client_msg, encode, CodecError, MAX_DEPTH, MAX_FRAME_BYTES};
pub use error::{ApiError, ErrorCode, FieldError};
pub use messages::*;
pub use replies::{answers, reply, Pairing, RequestMessage, REPLIES};
pub use types::*;
