//! MessagePack with named fields (maps, not arrays) so msgpackr decodes plain objects.
//! Decoding is bounded: a frame size cap and a nesting depth cap, so a hostile frame
//! costs at most a small, fixed amount of memory and never panics.

use rmpv::ValueRef;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::messages::ClientMsg;

/// Largest client frame the server reads. Requests are small; uploads go over HTTP.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;
/// Deepest nesting of maps and arrays a client frame may have. A markup's freehand
/// point is the deepest legitimate value: rmp-serde counts it past 16, as it
/// also counts the tagged enums it buffers on the way down.
pub const MAX_DEPTH: usize = 24;

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

/// Decodes a client frame, in the documented shape only: structs as maps with string
/// keys, enums tagged by a string `type` (DESIGN.md §3). rmp-serde alone would also take
/// a struct as a positional array, a field or variant by its index, so the wire format
/// would be whatever serde happens to accept rather than what we publish. On failure it
/// still recovers the correlation id when the frame had one, so the error reply can be
/// matched to the request that caused it.
pub fn decode_client_msg(bytes: &[u8]) -> Result<ClientMsg, (Option<u32>, CodecError)> {
    check_shape(bytes).and_then(|()| decode::<ClientMsg>(bytes)).map_err(|err| {
        #[derive(Deserialize)]
        struct IdOnly {
            id: Option<u32>,
        }
        let id = decode::<IdOnly>(bytes).ok().and_then(|m| m.id);
        (id, err)
    })
}

/// Reads the frame as a generic value (bounded like `decode`, borrowing its strings)
/// and refuses any shape outside the documented one.
fn check_shape(bytes: &[u8]) -> Result<(), CodecError> {
    if bytes.len() > MAX_FRAME_BYTES {
        return Err(CodecError::TooLarge(bytes.len()));
    }
    let value = rmpv::decode::read_value_ref_with_max_depth(&mut &bytes[..], MAX_DEPTH)
        .map_err(|e| CodecError::Malformed(e.to_string()))?;
    documented_shape(&value).map_err(|reason| CodecError::Malformed(reason.to_owned()))
}

/// The only fields of client requests that carry lists of structs (a test below keeps
/// it so): a markup's shapes and a freehand stroke's points, a report's
/// before/after pairs, a published site visit's files. Any other array
/// in a client frame is a struct or a tagged enum sent positionally.
pub const LIST_FIELDS: [&str; 4] = ["shapes", "points", "pairs", "files"];

/// The only fields of client requests that carry lists of strings (tagging,
/// a report's choices, a project's crew, a published site visit's tags).
pub const STRING_LIST_FIELDS: [&str; 7] = ["imageIds", "addTags", "removeTags", "milestoneIds", "picked", "userIds", "tags"];

fn documented_shape(value: &ValueRef<'_>) -> Result<(), &'static str> {
    match value {
        ValueRef::Array(_) => Err("arrays are not accepted; send maps with named fields"),
        ValueRef::Map(entries) => entries.iter().try_for_each(|(key, value)| {
            let key = match key {
                ValueRef::String(k) => k.as_str().ok_or("map keys must be UTF-8 strings")?,
                _ => return Err("map keys must be strings"),
            };
            if key == "type" && !matches!(value, ValueRef::String(tag) if tag.is_str()) {
                return Err("the `type` tag must be a string");
            }
            match value {
                // A list field holds named structs, never values sent positionally.
                ValueRef::Array(items) if LIST_FIELDS.contains(&key) => items.iter().try_for_each(|item| match item {
                    ValueRef::Map(_) => documented_shape(item),
                    _ => Err("list items must be maps with named fields"),
                }),
                ValueRef::Array(items) if STRING_LIST_FIELDS.contains(&key) => items.iter().try_for_each(|item| match item {
                    ValueRef::String(text) if text.is_str() => Ok(()),
                    _ => Err("list items must be strings"),
                }),
                value => documented_shape(value),
            }
        }),
        _ => Ok(()),
    }
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
        let msg = ClientMsg { id: 42, request: Request::Ping(crate::messages::Ping {}) };
        let bytes = encode(&msg).unwrap_or_default();
        assert_eq!(decode_client_msg(&bytes).ok(), Some(msg));
    }

    /// Encodes a hand-built value, for frames our own types would never produce.
    fn raw(value: rmpv::Value) -> Vec<u8> {
        let mut bytes = Vec::new();
        rmpv::encode::write_value(&mut bytes, &value).unwrap_or_default();
        bytes
    }

    fn map(entries: Vec<(rmpv::Value, rmpv::Value)>) -> rmpv::Value {
        rmpv::Value::Map(entries)
    }

    fn s(text: &str) -> rmpv::Value {
        rmpv::Value::from(text)
    }

    #[test]
    fn accepts_the_map_form_with_nested_requests() {
        let msg = ClientMsg {
            id: 3,
            request: Request::CreateUser(crate::messages::CreateUser {
                role: crate::types::Role::Builder,
                email: "b@example.com".into(),
                first_name: String::new(),
                last_name: String::new(),
                name: "Acme".into(),
                phone: "555".into(),
                builder_id: None,
            }),
        };
        assert_eq!(decode_client_msg(&encode(&msg).unwrap_or_default()).ok(), Some(msg));
        // Field order is free and unknown fields are ignored, as msgpackr objects may be.
        let frame = raw(map(vec![
            (s("request"), map(vec![(s("id"), s("p1")), (s("type"), s("get_project"))])),
            (s("extra"), rmpv::Value::from(1)),
            (s("id"), rmpv::Value::from(4)),
        ]));
        assert_eq!(
            decode_client_msg(&frame).ok(),
            Some(ClientMsg { id: 4, request: Request::GetProject(crate::messages::GetProject { id: "p1".into() }) })
        );
    }

    #[test]
    fn positional_arrays_are_refused() {
        // rmp-serde's plain `to_vec` writes structs as arrays: [5, ["get_project", "p1"]].
        let msg = ClientMsg { id: 5, request: Request::GetProject(crate::messages::GetProject { id: "p1".into() }) };
        let positional = rmp_serde::to_vec(&msg).unwrap_or_default();
        assert_eq!(decode::<ClientMsg>(&positional).ok(), Some(msg), "the lax decoder takes it");
        assert!(matches!(decode_client_msg(&positional), Err((_, CodecError::Malformed(_)))));
        // Only the request positional, inside a proper envelope.
        let frame = raw(map(vec![
            (s("id"), rmpv::Value::from(6)),
            (s("request"), rmpv::Value::Array(vec![s("get_project"), s("p1")])),
        ]));
        assert!(matches!(decode_client_msg(&frame), Err((Some(6), CodecError::Malformed(m))) if m.contains("arrays")));
    }

    #[test]
    fn markup_lists_are_taken_as_lists_of_maps_only() {
        use crate::messages::SaveMarkup;
        use crate::types::{Geometry, MarkupColor, Point, Shape, StrokeWidth};
        let shape = Shape {
            id: "s1".into(),
            color: MarkupColor::Red,
            width: StrokeWidth::Thin,
            geometry: Geometry::Pen { points: vec![Point { x: 0.1, y: 0.2 }, Point { x: 0.3, y: 0.4 }] },
            author_id: String::new(),
        };
        let msg = ClientMsg {
            id: 9,
            request: Request::SaveMarkup(SaveMarkup { image_id: "i1".into(), base_version: 0, shapes: vec![shape] }),
        };
        assert_eq!(decode_client_msg(&encode(&msg).unwrap_or_default()).map_err(|e| e.1.to_string()), Ok(msg));
        let save = |shapes: rmpv::Value| {
            raw(map(vec![
                (s("id"), rmpv::Value::from(10)),
                (s("request"), map(vec![(s("type"), s("save_markup")), (s("imageId"), s("i1")), (s("baseVersion"), rmpv::Value::from(0)), (s("shapes"), shapes)])),
            ]))
        };
        // A shape sent positionally inside the list, and a list under another name.
        let positional = rmpv::Value::Array(vec![rmpv::Value::Array(vec![s("s1"), s("red"), s("thin")])]);
        assert!(matches!(decode_client_msg(&save(positional)), Err((Some(10), CodecError::Malformed(m))) if m.contains("maps")));
        let frame = raw(map(vec![
            (s("id"), rmpv::Value::from(11)),
            (s("request"), map(vec![(s("type"), s("get_markup")), (s("imageId"), rmpv::Value::Array(vec![s("i1")]))])),
        ]));
        assert!(matches!(decode_client_msg(&frame), Err((Some(11), CodecError::Malformed(m))) if m.contains("arrays")));
    }

    #[test]
    fn integer_type_tags_are_refused() {
        let frame = |tag: i64| {
            raw(map(vec![(s("id"), rmpv::Value::from(1)), (s("request"), map(vec![(s("type"), rmpv::Value::from(tag))]))]))
        };
        // Variant 0 is `ping`: the lax decoder would answer it.
        assert_eq!(decode::<ClientMsg>(&frame(0)).ok(), Some(ClientMsg { id: 1, request: Request::Ping(crate::messages::Ping {}) }));
        for tag in [0, 3] {
            assert!(matches!(decode_client_msg(&frame(tag)), Err((Some(1), CodecError::Malformed(m))) if m.contains("`type`")));
        }
    }

    #[test]
    fn integer_keyed_maps_are_refused() {
        // Field 0 is `id`, field 1 `request`.
        let frame = raw(map(vec![
            (rmpv::Value::from(0), rmpv::Value::from(7)),
            (rmpv::Value::from(1), map(vec![(s("type"), s("ping"))])),
        ]));
        assert_eq!(decode::<ClientMsg>(&frame).ok(), Some(ClientMsg { id: 7, request: Request::Ping(crate::messages::Ping {}) }), "the lax decoder takes it");
        assert!(matches!(decode_client_msg(&frame), Err((_, CodecError::Malformed(m))) if m.contains("keys")));
        let inner = raw(map(vec![
            (s("id"), rmpv::Value::from(8)),
            (s("request"), map(vec![(s("type"), s("get_project")), (rmpv::Value::from(0), s("p1"))])),
        ]));
        assert!(matches!(decode_client_msg(&inner), Err((Some(8), CodecError::Malformed(_)))));
    }

    /// `documented_shape` refuses every array, which is right only while no client
    /// request has a list in it. Adding one means teaching the check where lists go.
    #[test]
    fn no_client_request_carries_a_list() {
        use std::any::TypeId;
        use std::collections::HashSet;
        use ts_rs::{Config, TypeVisitor, TS};

        struct Shapes {
            cfg: Config,
            seen: HashSet<TypeId>,
            inline: Vec<String>,
        }
        impl TypeVisitor for Shapes {
            fn visit<T: TS + 'static + ?Sized>(&mut self) {
                if self.seen.insert(TypeId::of::<T>()) {
                    self.inline.push(T::inline(&self.cfg));
                    T::visit_dependencies(self);
                }
            }
        }
        let shapes_of = |visit: fn(&mut Shapes)| {
            let mut shapes = Shapes { cfg: Config::new(), seen: HashSet::new(), inline: Vec::new() };
            visit(&mut shapes);
            shapes.inline
        };
        let has_list = |shape: &String| shape.contains("Array<") || shape.contains('[');
        // Lists only as the documented list fields: strike those out, and none remain.
        let undocumented = |shape: &String| {
            let mut rest = shape.clone();
            for field in LIST_FIELDS.iter().chain(&STRING_LIST_FIELDS) {
                while let Some(at) = rest.find(&format!("{field}: Array<")) {
                    let open = at + field.len() + ": Array<".len();
                    let close = rest[open..].find('>').map_or(rest.len(), |c| open + c + 1);
                    rest.replace_range(at..close, "");
                }
            }
            has_list(&rest)
        };

        let client = shapes_of(|v| v.visit::<ClientMsg>());
        assert!(client.iter().any(|s| s.contains("firstName")), "the walk reaches the request bodies");
        assert!(client.iter().any(|s| s.contains("shapes: Array<")), "the walk reaches the markup's shapes");
        // A list type visited on its own (`Array<…>`) is checked where a field holds it.
        let lists: Vec<&String> = client.iter().filter(|s| !s.starts_with("Array<") && undocumented(s)).collect();
        assert!(lists.is_empty(), "client messages with lists outside LIST_FIELDS: {lists:?}");
        let server = shapes_of(|v| v.visit::<crate::messages::Snapshot>());
        assert!(server.iter().any(has_list), "the check sees lists where there are some");
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
        assert!(matches!(decode_client_msg(&bytes), Err((None, CodecError::Malformed(_)))));
    }

    #[test]
    fn huge_declared_length_does_not_allocate_it() {
        // A map claiming 4 billion entries in a 5-byte frame.
        let bytes = [0xdf, 0xff, 0xff, 0xff, 0xff];
        assert!(matches!(decode::<ClientMsg>(&bytes), Err(CodecError::Malformed(_))));
        assert!(matches!(decode_client_msg(&bytes), Err((None, CodecError::Malformed(_)))));
    }
}
