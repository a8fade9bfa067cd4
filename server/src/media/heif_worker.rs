//! The HEIF decode worker: the child process `sitecast decode-heif` that turns one
//! iPhone photo (HEIC/HEIF) into its renditions. libheif and libde265 are C and C++
//! reading untrusted bytes, so they run here, not in the server: a crash or a runaway
//! loop in them ends this process only, under an address-space and CPU-time limit set
//! before any pixel is decoded, and the server's parent side (`media::heif`) refuses
//! the file with a reason.
//!
//! The exchange on stdin/stdout, each message MessagePack after its length (`Ask`,
//! `Answer`, `frame`):
//! the parent sends the file; the worker answers its size (or why it cannot be read);
//! the parent reserves that much of the decode budget and says go; the worker decodes,
//! renders and answers the renditions, then exits.

use std::io::{Read, Write};

use libheif_rs::{ColorSpace, DecodingOptions, HeifContext, LibHeif, RgbChroma, SecurityLimits};
use serde::{Deserialize, Serialize};

use super::renditions::{self, Made, RenditionError, MAX_PIXELS};

/// Address space the worker may map besides its picture: the program, its runtime, the
/// file itself (at most 30 MB) and libheif's bookkeeping.
const BASE_ADDRESS_SPACE: u64 = 768 * 1024 * 1024;
/// Per pixel at the decode's peak: libheif's RGB picture (3 B) and the copy the
/// renditions are made from (3 B); its 4:2:0 planes (1.5 B) are gone by then. What
/// the parent reserves of the decode budget (measured: loadtest/README.md).
pub const BYTES_PER_PIXEL: u64 = 6;
/// Per pixel of address space: room above the peak for 4:4:4 planes and the
/// allocator's slack, so only a file that is not what it claims runs out.
const ADDRESS_PER_PIXEL: u64 = 10;
/// CPU seconds one file may take: a 48-megapixel photo decodes in a few seconds.
const CPU_SECONDS: u64 = 60;

#[derive(Debug, Serialize, Deserialize)]
pub enum Ask {
    /// The file, whole.
    File(#[serde(with = "serde_bytes_vec")] Vec<u8>),
    /// The budget is reserved: decode.
    Go,
}

#[derive(Debug, Serialize, Deserialize)]
pub enum Answer {
    /// The primary image's size, before any decoding.
    Size { width: u32, height: u32 },
    Done {
        width: u32,
        height: u32,
        #[serde(with = "serde_bytes_vec")]
        display: Vec<u8>,
        #[serde(with = "serde_bytes_vec")]
        thumb: Vec<u8>,
        /// The worker's peak resident memory (KiB), for the logs and the load figures.
        peak_rss_kib: u64,
    },
    Refused(Refusal),
}

/// Why a file was refused, as the parent maps it to a `RenditionError`.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub enum Refusal {
    /// Not a valid HEIF file (libheif's reason).
    Damaged(String),
    /// Megapixels, as `RenditionError::TooManyPixels`.
    TooManyPixels(u64),
    /// It parsed but would not decode or render (libheif's or the encoder's reason).
    Undecodable(String),
}

impl From<Refusal> for RenditionError {
    fn from(refusal: Refusal) -> RenditionError {
        match refusal {
            Refusal::Damaged(_) => RenditionError::Damaged("HEIC"),
            Refusal::TooManyPixels(mp) => RenditionError::TooManyPixels(mp),
            Refusal::Undecodable(why) => RenditionError::Decode(why),
        }
    }
}

/// MessagePack `bin` for byte vectors (serde writes a `Vec<u8>` as an array of numbers).
mod serde_bytes_vec {
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(bytes)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct Bytes;
        impl serde::de::Visitor<'_> for Bytes {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(v)
            }
        }
        d.deserialize_byte_buf(Bytes)
    }
}

/// A parsed HEIF file whose primary image has been checked against the limits.
pub struct Parsed<'a> {
    lib: LibHeif,
    context: HeifContext<'a>,
    pub width: u32,
    pub height: u32,
}

/// Reads the container and the primary image's size; nothing is decoded yet. The
/// limits (libheif's own security limits, tightened to ours) refuse bombs here.
pub fn parse(bytes: &[u8]) -> Result<Parsed<'_>, Refusal> {
    let lib = LibHeif::new();
    let mut context = HeifContext::new().map_err(|e| Refusal::Undecodable(e.to_string()))?;
    let mut limits = SecurityLimits::new();
    limits.set_max_image_size_pixels(MAX_PIXELS);
    // The largest block is the picture itself: 64 megapixels of interleaved RGB(A).
    limits.set_max_memory_block_size(MAX_PIXELS * 4);
    limits.set_max_total_memory(MAX_PIXELS * ADDRESS_PER_PIXEL);
    context.set_security_limits(&limits).map_err(|e| Refusal::Undecodable(e.to_string()))?;
    // One thread per decode: the server runs one worker per core.
    context.set_max_decoding_threads(1);
    context.read_bytes(bytes).map_err(|e| Refusal::Damaged(e.to_string()))?;
    let handle = context.primary_image_handle().map_err(|e| Refusal::Damaged(e.to_string()))?;
    let (width, height) = (handle.width(), handle.height());
    if width == 0 || height == 0 {
        return Err(Refusal::Damaged("the image has no size".to_owned()));
    }
    renditions::check_pixels(width, height).map_err(|_| Refusal::TooManyPixels(u64::from(width) * u64::from(height) / 1_000_000))?;
    Ok(Parsed { lib, context, width, height })
}

impl Parsed<'_> {
    /// Decodes the primary image to 8-bit RGB, with the file's rotation, mirroring and
    /// crop applied (HEIF says how to show a photo in its `irot`/`imir` boxes, which
    /// libheif applies; its EXIF orientation is informative only), and renders it.
    pub fn render(self) -> Result<Made, Refusal> {
        let undecodable = |e: libheif_rs::HeifError| Refusal::Undecodable(e.to_string());
        let handle = self.context.primary_image_handle().map_err(undecodable)?;
        let mut options = DecodingOptions::new().ok_or_else(|| Refusal::Undecodable("libheif has no decoding options".to_owned()))?;
        options.set_convert_hdr_to_8bit(true);
        let image = self.lib.decode(&handle, ColorSpace::Rgb(RgbChroma::Rgb), Some(options)).map_err(undecodable)?;
        let plane = image.planes().interleaved.ok_or_else(|| Refusal::Undecodable("no RGB plane".to_owned()))?;
        let (w, h) = (plane.width, plane.height);
        let row = w as usize * 3;
        let mut rgb = Vec::new();
        rgb.try_reserve_exact(row * h as usize).map_err(|_| Refusal::Undecodable("out of memory".to_owned()))?;
        for y in 0..h as usize {
            let start = y * plane.stride;
            let line = plane.data.get(start..start + row).ok_or_else(|| Refusal::Undecodable("a short RGB plane".to_owned()))?;
            rgb.extend_from_slice(line);
        }
        drop(image);
        let img = image::RgbImage::from_raw(w, h, rgb).ok_or_else(|| Refusal::Undecodable("a short RGB image".to_owned()))?;
        renditions::from_pixels(img, image::metadata::Orientation::NoTransforms).map_err(|e| Refusal::Undecodable(e.to_string()))
    }
}

/// `sitecast decode-heif`: one file in, its renditions out. The exit status is 0 when
/// an answer was written, whatever it says.
pub fn run() -> i32 {
    match serve(&mut std::io::stdin().lock(), &mut std::io::stdout().lock()) {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("decode-heif: {err}");
            2
        }
    }
}

fn serve(input: &mut impl Read, output: &mut impl Write) -> anyhow::Result<()> {
    let Ask::File(bytes) = read_frame(input)? else { anyhow::bail!("expected the file first") };
    // Until the size is known, the soft limit only (the hard one could not go back up).
    let (_, hard) = rlimit::Resource::AS.get()?;
    rlimit::Resource::AS.set((BASE_ADDRESS_SPACE + bytes.len() as u64).min(hard), hard)?;
    // SIGXCPU at the soft limit, SIGKILL a second later.
    limit(rlimit::Resource::CPU, CPU_SECONDS, CPU_SECONDS + 1)?;
    let parsed = match parse(&bytes) {
        Ok(parsed) => parsed,
        Err(refusal) => return answer(output, &Answer::Refused(refusal)),
    };
    // The picture's share of the address space, now that its size is known.
    let pixels = u64::from(parsed.width) * u64::from(parsed.height);
    let space = BASE_ADDRESS_SPACE + bytes.len() as u64 + pixels * ADDRESS_PER_PIXEL + renditions::RENDITION_BYTES;
    limit(rlimit::Resource::AS, space, space)?;
    answer(output, &Answer::Size { width: parsed.width, height: parsed.height })?;
    let Ask::Go = read_frame(input)? else { anyhow::bail!("expected go") };
    let reply = match parsed.render() {
        Ok(made) => Answer::Done {
            width: made.width,
            height: made.height,
            display: made.display,
            thumb: made.thumb,
            peak_rss_kib: peak_rss_kib(),
        },
        Err(refusal) => Answer::Refused(refusal),
    };
    answer(output, &reply)
}

fn answer(output: &mut impl Write, answer: &Answer) -> anyhow::Result<()> {
    output.write_all(&frame(answer)?)?;
    output.flush()?;
    Ok(())
}

/// A message as sent: its MessagePack length (4 bytes, big-endian), then itself.
pub fn frame(message: &impl Serialize) -> Result<Vec<u8>, rmp_serde::encode::Error> {
    let body = rmp_serde::to_vec(message)?;
    let len = u32::try_from(body.len()).map_err(|_| rmp_serde::encode::Error::Syntax("message too long".to_owned()))?;
    let mut out = Vec::with_capacity(body.len() + 4);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

/// The most a message may be: a 30 MB file with room to spare.
pub const MAX_FRAME: u32 = 64 * 1024 * 1024;

fn read_frame<T: serde::de::DeserializeOwned>(input: &mut impl Read) -> anyhow::Result<T> {
    let mut len = [0u8; 4];
    input.read_exact(&mut len)?;
    let len = u32::from_be_bytes(len);
    anyhow::ensure!(len <= MAX_FRAME, "a message of {len} bytes");
    let mut body = vec![0u8; len as usize];
    input.read_exact(&mut body)?;
    Ok(rmp_serde::from_slice(&body)?)
}

/// Sets a limit for good: the hard limit can only ever go down for this process.
fn limit(resource: rlimit::Resource, soft: u64, hard: u64) -> std::io::Result<()> {
    let (_, current) = resource.get()?;
    resource.set(soft.min(current), hard.min(current))
}

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::fixtures::{app1, gps_app1, heic_from_jpeg, heif_with_rotation, jpeg_with_exif};

    /// 400×200, left half red, right half blue, as a camera JPEG with `exif`.
    fn halves_jpeg(exif: &[u8]) -> Vec<u8> {
        let img = image::RgbImage::from_fn(400, 200, |x, _| if x < 200 { image::Rgb([220, 30, 30]) } else { image::Rgb([30, 30, 220]) });
        jpeg_with_exif(&renditions::encode_jpeg(&img, 90).unwrap(), exif)
    }

    #[test]
    fn an_iphone_style_heic_is_shown_the_way_up_it_was_taken() {
        // Taken upright: the sensor's landscape pixels, an irot of 270° (90° clockwise)
        // and EXIF orientation 6 saying the same, as an iPhone writes them.
        let heic = heic_from_jpeg(&halves_jpeg(&app1(6, "2024:03:02 10:00:00", None))).unwrap();
        let iphone = heif_with_rotation(&heic, 3).unwrap();
        let parsed = parse(&iphone).unwrap();
        assert_eq!((parsed.width, parsed.height), (200, 400));
        let made = parsed.render().unwrap();
        assert_eq!((made.width, made.height), (200, 400));
        let display = image::load_from_memory(&made.display).unwrap().to_rgb8();
        assert_eq!(display.dimensions(), (200, 400));
        // Turned clockwise, the left (red) half is on top; EXIF's 6 is not applied again.
        let (top, bottom) = (display.get_pixel(100, 50).0, display.get_pixel(100, 350).0);
        assert!(top[0] > 170 && top[2] < 90, "top is red: {top:?}");
        assert!(bottom[2] > 170 && bottom[0] < 90, "bottom is blue: {bottom:?}");
        // Capture time from the HEIF's EXIF item.
        assert_eq!(crate::media::exif::taken_at(&iphone), Some(1_709_373_600_000));
        // Without the irot the same pixels are shown as stored.
        let flat = parse(&heic).unwrap();
        assert_eq!((flat.width, flat.height), (400, 200));
    }

    #[test]
    fn gps_is_read_from_a_heic() {
        let heic = heic_from_jpeg(&halves_jpeg(&gps_app1(47.6062, -122.3321))).unwrap();
        let (lat, lon) = crate::media::exif::location(&heic).unwrap();
        assert!((lat - 47.6062).abs() < 1e-4 && (lon + 122.3321).abs() < 1e-4, "{lat}, {lon}");
        assert!(parse(&heic).unwrap().render().is_ok());
    }

    #[test]
    fn damaged_and_hostile_heics_are_refused_not_decoded() {
        let heic = heic_from_jpeg(&halves_jpeg(&app1(1, "2024:03:02 10:00:00", None))).unwrap();
        // Cut in the middle of its picture: the container reads, the picture does not.
        let cut = &heic[..heic.len() - 200];
        let refused = match parse(cut) {
            Err(refusal) => refusal,
            Ok(parsed) => parsed.render().err().unwrap(),
        };
        assert!(matches!(refused, Refusal::Damaged(_) | Refusal::Undecodable(_)), "{refused:?}");
        // A HEIF signature followed by garbage.
        let mut garbage = heic[..32].to_vec();
        garbage.extend(std::iter::repeat_n(0xA5u8, 4000));
        assert!(matches!(parse(&garbage), Err(Refusal::Damaged(_))));
        // A file whose image claims 30000 × 30000 pixels (its ispe rewritten): refused
        // from its header, before a pixel is decoded.
        let ispe = heic.windows(4).position(|w| w == b"ispe").unwrap();
        let mut bomb = heic.clone();
        bomb[ispe + 8..ispe + 12].copy_from_slice(&30_000u32.to_be_bytes());
        bomb[ispe + 12..ispe + 16].copy_from_slice(&30_000u32.to_be_bytes());
        assert!(matches!(parse(&bomb), Err(Refusal::TooManyPixels(_) | Refusal::Damaged(_))));
    }

    #[test]
    fn the_exchange_frames_messages_by_length() {
        let sent = Answer::Done { width: 3, height: 2, display: vec![1, 2, 3], thumb: vec![4], peak_rss_kib: 9 };
        let bytes = frame(&sent).unwrap();
        assert_eq!(u32::from_be_bytes(bytes[..4].try_into().unwrap()) as usize, bytes.len() - 4);
        let back: Answer = read_frame(&mut &bytes[..]).unwrap();
        assert!(matches!(back, Answer::Done { width: 3, height: 2, ref display, ref thumb, peak_rss_kib: 9 } if display == &[1, 2, 3] && thumb == &[4]));
        // A length past the limit is refused before anything is allocated.
        let mut huge = (MAX_FRAME + 1).to_be_bytes().to_vec();
        huge.extend_from_slice(&[0; 16]);
        assert!(read_frame::<Answer>(&mut &huge[..]).is_err());
    }
}
