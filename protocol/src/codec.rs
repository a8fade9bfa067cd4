//! MessagePack with named fields (maps, not arrays) so msgpackr decodes plain objects.
//! Decoding is bounded: a frame size cap and a nesting depth cap, so a hostile frame
//! costs at most a small, fixed amount of memory and never panics.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::messages::ClientMsg;

/// Largest client frame the server reads. Requests are small; uploads go over HTTP.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;
/// Deepest nesting of maps and arrays a client frame may have.
pub const MAX_DEPTH: usize = 16;

#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error("frame of {0} bytes exceeds the {MAX_FRAME_BYTES}-byte limit")]
    TooLarge(usize),
    #[error("malformed frame: {0}")]
    Malformed(String),
    #[error("could not encode: {0}")]
    Encode(String),
}

pub fn encode<T: Serialize>(msg: &T) -> Result<Vec<u8>, CodecError> {
    rmp_serde::to_vec_named(msg).map_err(|e| CodecError::Encode(e.to_string()))
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CodecError> {
    if bytes.len() > MAX_FRAME_BYTES {
        return Err(CodecError::TooLarge(bytes.len()));
    }
    let mut de = rmp_serde::Deserializer::from_read_ref(bytes);
    de.set_max_depth(MAX_DEPTH);
    T::deserialize(&mut de).map_err(|e| CodecError::Malformed(e.to_string()))
}

/// Decodes a client frame. On failure it still recovers the correlation id when the
/// frame had one, so the error reply can be matched to the request that caused it.
pub fn decode_client_msg(bytes: &[u8]) -> Result<ClientMsg, (Option<u32>, CodecError)> {
    decode::<ClientMsg>(bytes).map_err(|err| {
        #[derive(Deserialize)]
        struct IdOnly {
            id: Option<u32>,
        }
        let id = decode::<IdOnly>(bytes).ok().and_then(|m| m.id);
        (id, err)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::{Request, Response, ServerMsg};

    #[test]
    fn encodes_structs_as_maps_with_camel_case_names() {
        let bytes = encode(&ServerMsg::Reply { id: 7, response: Response::Pong })
            .unwrap_or_default();
        let value: rmpv::Value = rmp_serde::from_slice(&bytes).unwrap_or(rmpv::Value::Nil);
        let map = value.as_map().cloned().unwrap_or_default();
        let keys: Vec<String> =
            map.iter().filter_map(|(k, _)| k.as_str().map(str::to_owned)).collect();
        assert_eq!(keys, vec!["type", "id", "response"]);
        assert_eq!(map[0].1.as_str(), Some("reply"));
    }

    #[test]
    fn round_trips_a_client_message() {
        let msg = ClientMsg { id: 42, request: Request::Ping };
        let bytes = encode(&msg).unwrap_or_default();
        assert_eq!(decode_client_msg(&bytes).ok(), Some(msg));
    }

    #[test]
    fn malformed_frame_keeps_the_correlation_id() {
        #[derive(Serialize)]
        struct Bogus {
            id: u32,
            request: &'static str,
        }
        let bytes = encode(&Bogus { id: 9, request: "nonsense" }).unwrap_or_default();
        match decode_client_msg(&bytes) {
            Err((Some(9), CodecError::Malformed(_))) => {}
            other => panic!("expected malformed with id 9, got {other:?}"),
        }
    }

    #[test]
    fn garbage_bytes_are_malformed_without_id() {
        match decode_client_msg(&[0xc1, 0xff, 0x00, 0x13]) {
            Err((None, CodecError::Malformed(_))) => {}
            other => panic!("expected malformed without id, got {other:?}"),
        }
    }

    #[test]
    fn oversize_frame_is_refused_before_decoding() {
        let bytes = vec![0u8; MAX_FRAME_BYTES + 1];
        assert!(matches!(decode::<ClientMsg>(&bytes), Err(CodecError::TooLarge(n)) if n == MAX_FRAME_BYTES + 1));
    }

    #[test]
    fn deep_nesting_is_refused() {
        // 200 nested one-element arrays: [[[[...]]]]
        let mut bytes = vec![0x91u8; 200];
        bytes.push(0xc0);
        assert!(matches!(decode::<rmpv::Value>(&bytes), Err(CodecError::Malformed(_))));
    }

    #[test]
    fn huge_declared_length_does_not_allocate_it() {
        // A map claiming 4 billion entries in a 5-byte frame.
        let bytes = [0xdf, 0xff, 0xff, 0xff, 0xff];
        assert!(matches!(decode::<ClientMsg>(&bytes), Err(CodecError::Malformed(_))));
    }
}
