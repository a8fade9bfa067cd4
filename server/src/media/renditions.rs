//! The display-size image and the thumbnail made from every stored photo, EXIF
//! orientation applied. Decoding runs under pixel and allocation limits, so a small
//! file that claims to be gigantic (a decompression bomb) is refused, not decoded.

use std::io::Cursor;

use fast_image_resize::{FilterType, ResizeAlg, ResizeOptions, Resizer};
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

use super::budget::{self, Reservation};

/// Longest edge of the display rendition (sharp on a laptop, light on a phone).
pub const DISPLAY_EDGE: u32 = 1600;
/// Longest edge of the thumbnail (gallery cells and project cards at 2x density).
pub const THUMB_EDGE: u32 = 480;
/// At most 64 megapixels per photo: above any phone camera, far below a bomb.
pub const MAX_PIXELS: u64 = 64_000_000;
const MAX_EDGE: u32 = 16_384;
const MAX_ALLOC: u64 = 512 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum RenditionError {
    #[error("not a supported image")]
    NotAnImage,
    /// Megapixels claimed (0 when an edge alone is past the limit).
    #[error("image exceeds the {limit} megapixel limit", limit = MAX_PIXELS / 1_000_000)]
    TooManyPixels(u64),
    #[error("could not decode image: {0}")]
    Decode(String),
    #[error("could not encode rendition: {0}")]
    Encode(String),
    /// The file ends before its picture does.
    #[error("the image is incomplete")]
    Truncated,
    /// It starts like this format but is not a valid file of it.
    #[error("not a valid {0} file")]
    Damaged(&'static str),
    /// Decoding would need more memory than all decodes together may hold (bytes).
    #[error("decoding would need {0} bytes")]
    TooMuchMemory(u64),
}

pub struct Renditions {
    pub content_type: &'static str,
    pub width: u32,
    pub height: u32,
    pub display: Vec<u8>,
    pub thumb: Vec<u8>,
    /// Capture time from EXIF, when the photo has one.
    pub taken_at: Option<i64>,
    /// Where it was taken (latitude, longitude), from EXIF GPS, when it says.
    pub location: Option<(f64, f64)>,
}

/// The formats we accept, recognised by their content, never by the file name.
pub fn sniff(bytes: &[u8]) -> Option<(ImageFormat, &'static str)> {
    match image::guess_format(bytes).ok()? {
        ImageFormat::Jpeg => Some((ImageFormat::Jpeg, "image/jpeg")),
        ImageFormat::Png => Some((ImageFormat::Png, "image/png")),
        ImageFormat::Gif => Some((ImageFormat::Gif, "image/gif")),
        ImageFormat::WebP => Some((ImageFormat::WebP, "image/webp")),
        _ => None,
    }
}

pub fn render(bytes: &[u8]) -> Result<Renditions, RenditionError> {
    let (format, content_type) = sniff(bytes).ok_or(RenditionError::NotAnImage)?;
    check_structure(format, bytes)?;
    // The picture's size as stored: a JPEG is decoded at a reduced scale.
    let (img, orientation, (w, h)) = match format {
        ImageFormat::Jpeg => decode_jpeg(bytes)?,
        ImageFormat::Png => with_size(decode_png(bytes)?),
        _ => with_size(decode_other(format, bytes)?),
    };
    let made = from_pixels(img, orientation)?;
    let (width, height) = if turns_sideways(orientation) { (h, w) } else { (w, h) };
    Ok(Renditions {
        content_type,
        width,
        height,
        display: made.display,
        thumb: made.thumb,
        taken_at: super::exif::taken_at(bytes),
        location: super::exif::location(bytes),
    })
}

fn with_size((img, orientation): (image::RgbImage, image::metadata::Orientation)) -> (image::RgbImage, image::metadata::Orientation, (u32, u32)) {
    let size = img.dimensions();
    (img, orientation, size)
}

/// The two JPEG renditions of a decoded picture and its size as shown (turned).
pub struct Made {
    pub width: u32,
    pub height: u32,
    pub display: Vec<u8>,
    pub thumb: Vec<u8>,
}

/// The renditions of a decoded picture, `orientation` applied: what every format
/// (and the HEIF decode worker, `media::heif_worker`) ends with.
pub fn from_pixels(img: image::RgbImage, orientation: image::metadata::Orientation) -> Result<Made, RenditionError> {
    let (w, h) = img.dimensions();
    // Scale first, turn second: a bound on the longest edge is the same either way
    // round, and turning the 2-megapixel display image is a sixth of the work of
    // turning the original. The thumbnail is made from the display image.
    let mut display_img = DynamicImage::ImageRgb8(scaled_down(&img, DISPLAY_EDGE)?.unwrap_or(img));
    display_img.apply_orientation(orientation);
    let display_img = display_img.into_rgb8();
    let thumb_img = scaled_down(&display_img, THUMB_EDGE)?;
    let thumb = encode_jpeg(thumb_img.as_ref().unwrap_or(&display_img), 78)?;
    let display = encode_jpeg(&display_img, 82)?;
    let (width, height) = if turns_sideways(orientation) { (h, w) } else { (w, h) };
    Ok(Made { width, height, display, thumb })
}

/// What rendering needs beside the decoded picture: the display image (at most
/// 1600×1600 RGB), turned once, and the thumbnail.
pub const RENDITION_BYTES: u64 = 3 * (DISPLAY_EDGE as u64 * DISPLAY_EDGE as u64 * 3);

pub fn check_pixels(w: u32, h: u32) -> Result<(), RenditionError> {
    let pixels = u64::from(w) * u64::from(h);
    if w > MAX_EDGE || h > MAX_EDGE {
        return Err(RenditionError::TooManyPixels(0));
    }
    if pixels > MAX_PIXELS {
        return Err(RenditionError::TooManyPixels(pixels / 1_000_000));
    }
    Ok(())
}

/// Reserves `bytes` of the process's decode budget, waiting for room.
fn reserve(bytes: u64) -> Result<Reservation<'static>, RenditionError> {
    budget::DECODES.reserve(bytes.saturating_add(RENDITION_BYTES)).ok_or(RenditionError::TooMuchMemory(bytes))
}

/// Files that sniff as an image but cannot be one whole picture are refused before
/// decoding, with what is wrong: a JPEG cut off before its end (which decoders fill
/// with grey), a GIF signature followed by something else (whose "screen size" is
/// then read from arbitrary bytes).
fn check_structure(format: ImageFormat, bytes: &[u8]) -> Result<(), RenditionError> {
    match format {
        ImageFormat::Jpeg if !jpeg_is_complete(bytes) => Err(RenditionError::Truncated),
        ImageFormat::Gif if !gif_starts_well(bytes) => Err(RenditionError::Damaged("GIF")),
        _ => Ok(()),
    }
}

/// Whether a JPEG's main picture ends with its end-of-image marker. Segments are
/// walked by their lengths up to the first scan (so the EXIF thumbnail inside APP1,
/// with its own end marker, is skipped); within scan data a 0xFF byte is always
/// followed by 0x00 or a marker, so an end marker after that point is the real end.
fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let mut i = 2;
    while i + 4 <= bytes.len() {
        if bytes[i] != 0xFF {
            return false;
        }
        let marker = bytes[i + 1];
        match marker {
            // Fill bytes before a marker.
            0xFF => i += 1,
            // Markers without a length.
            0x01 | 0xD0..=0xD7 => i += 2,
            0xD9 => return true,
            _ => {
                let len = usize::from(u16::from_be_bytes([bytes[i + 2], bytes[i + 3]]));
                if marker == 0xDA {
                    let scan = (i + 2 + len).min(bytes.len());
                    // memchr's SIMD search: a byte-by-byte scan of a 4 MB photo was 3%
                    // of its rendition time.
                    return memchr::memmem::find(&bytes[scan..], &[0xFF, 0xD9]).is_some();
                }
                i += 2 + len;
            }
        }
    }
    false
}

/// A GIF's header (6 bytes), logical screen (7) and global colour table are followed
/// by an extension, an image or the trailer.
fn gif_starts_well(bytes: &[u8]) -> bool {
    let Some(&flags) = bytes.get(10) else { return false };
    let table = if flags & 0x80 != 0 { 3usize << ((flags & 0x07) + 1) } else { 0 };
    matches!(bytes.get(13 + table), Some(0x21 | 0x2C | 0x3B))
}

/// A PNG decoded row by row into 8-bit RGB: 16-bit samples are reduced while decoding
/// and the alpha channel dropped per row, so an 8000×8000 16-bit RGBA file holds 192 MB
/// (its RGB picture), not the 512 MB of its samples plus that. Interlaced files are
/// decoded whole, at 8 bits, and then converted.
fn decode_png(bytes: &[u8]) -> Result<(image::RgbImage, image::metadata::Orientation), RenditionError> {
    use png::{BitDepth, ColorType, Transformations};
    let decode = |e: png::DecodingError| match e {
        png::DecodingError::LimitsExceeded => RenditionError::TooManyPixels(0),
        png::DecodingError::IoError(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => RenditionError::Truncated,
        other => RenditionError::Decode(other.to_string()),
    };
    let mut decoder = png::Decoder::new_with_limits(Cursor::new(bytes), png::Limits { bytes: MAX_ALLOC as usize });
    decoder.set_transformations(Transformations::EXPAND | Transformations::STRIP_16);
    let header = decoder.read_header_info().map_err(decode)?;
    let (w, h) = (header.width, header.height);
    check_pixels(w, h)?;
    let interlaced = header.interlaced;
    let mut reader = decoder.read_info().map_err(decode)?;
    let orientation = reader
        .info()
        .exif_metadata
        .as_deref()
        .and_then(image::metadata::Orientation::from_exif_chunk)
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let (color, depth) = reader.output_color_type();
    if depth != BitDepth::Eight {
        return Err(RenditionError::Decode(format!("unexpected PNG output depth {depth:?}")));
    }
    let channels = match color {
        ColorType::Grayscale => 1,
        ColorType::GrayscaleAlpha => 2,
        ColorType::Rgb => 3,
        ColorType::Rgba => 4,
        ColorType::Indexed => return Err(RenditionError::Decode("indexed PNG not expanded".to_owned())),
    };
    let rgb_bytes = u64::from(w) * u64::from(h) * 3;
    let whole_bytes = if interlaced { u64::from(w) * u64::from(h) * channels as u64 } else { 0 };
    let _held = reserve(rgb_bytes + whole_bytes)?;
    let row_len = w as usize * 3;
    let mut rgb = Vec::new();
    rgb.try_reserve_exact(row_len * h as usize).map_err(|_| RenditionError::TooMuchMemory(rgb_bytes))?;
    let to_rgb = |src: &[u8], out: &mut Vec<u8>| {
        for px in src.chunks_exact(channels) {
            match channels {
                1 | 2 => out.extend_from_slice(&[px[0], px[0], px[0]]),
                _ => out.extend_from_slice(&px[..3]),
            }
        }
    };
    if interlaced {
        let size = reader.output_buffer_size().ok_or(RenditionError::TooManyPixels(0))?;
        let mut whole = Vec::new();
        whole.try_reserve_exact(size).map_err(|_| RenditionError::TooMuchMemory(whole_bytes))?;
        whole.resize(size, 0u8);
        let info = reader.next_frame(&mut whole).map_err(decode)?;
        for row in whole[..info.buffer_size()].chunks_exact(info.line_size) {
            to_rgb(&row[..w as usize * channels], &mut rgb);
        }
    } else {
        while let Some(row) = reader.next_row().map_err(decode)? {
            to_rgb(row.data(), &mut rgb);
        }
    }
    if rgb.len() != row_len * h as usize {
        return Err(RenditionError::Truncated);
    }
    let img = image::RgbImage::from_raw(w, h, rgb).ok_or_else(|| RenditionError::Decode("short PNG".to_owned()))?;
    Ok((img, orientation))
}

/// Progressive scans a JPEG may have: a few dozen in real files; thousands of tiny
/// scans are a known way to make a small file take minutes to decode.
const JPEG_SCAN_LIMIT: u32 = 500;

/// A JPEG decoded by libjpeg-turbo at the smallest scale that still covers the display
/// edge: 1/8, 1/4 or 1/2 inside the IDCT ("shrink on load", what makes libvips fast),
/// so a 12 MP photo is decoded as 3 MP and then resized as before. Its orientation is
/// read by `image`'s decoder (the EXIF it always read), and CMYK JPEGs, which
/// libjpeg-turbo cannot turn into RGB, go the way they always went.
fn decode_jpeg(bytes: &[u8]) -> Result<(image::RgbImage, image::metadata::Orientation, (u32, u32)), RenditionError> {
    use turbojpeg::{Colorspace, Decompressor, Image, PixelFormat};
    let orientation = {
        let mut decoder = limited_decoder(ImageFormat::Jpeg, bytes)?;
        let (w, h) = decoder.dimensions();
        check_pixels(w, h)?;
        decoder.orientation().map_err(|e| RenditionError::Decode(e.to_string()))?
    };
    let failed = |e: turbojpeg::Error| RenditionError::Decode(e.to_string());
    let mut tj = Decompressor::new().map_err(failed)?;
    let header = tj.read_header(bytes).map_err(failed)?;
    let (w, h) = (u32::try_from(header.width), u32::try_from(header.height));
    let (Ok(w), Ok(h)) = (w, h) else { return Err(RenditionError::TooManyPixels(0)) };
    check_pixels(w, h)?;
    if matches!(header.colorspace, Colorspace::CMYK | Colorspace::YCCK) {
        return decode_other(ImageFormat::Jpeg, bytes).map(with_size);
    }
    let scale = shrink_on_load(header.width.max(header.height));
    tj.set_scaling_factor(scale).map_err(failed)?;
    tj.set_scan_limit(JPEG_SCAN_LIMIT).map_err(failed)?;
    let out = header.scaled(scale);
    let len = out.width * out.height * 3;
    // A progressive JPEG keeps every coefficient of the whole picture until its last
    // scan: two bytes each, up to three full-size components.
    let coefficients = if header.is_progressive { u64::from(w) * u64::from(h) * 6 } else { 0 };
    let _held = reserve(len as u64 + coefficients)?;
    let mut buf = Vec::new();
    buf.try_reserve_exact(len).map_err(|_| RenditionError::TooMuchMemory(len as u64))?;
    // Filled, not allocated zeroed: see `decode_rgb8`.
    buf.resize(len, 0u8);
    let image = Image { pixels: buf.as_mut_slice(), width: out.width, pitch: out.width * 3, height: out.height, format: PixelFormat::RGB };
    tj.decompress(bytes, image).map_err(failed)?;
    let (Ok(ow), Ok(oh)) = (u32::try_from(out.width), u32::try_from(out.height)) else {
        return Err(RenditionError::TooManyPixels(0));
    };
    let img = image::RgbImage::from_raw(ow, oh, buf).ok_or_else(|| RenditionError::Decode("decoder returned a short image".to_owned()))?;
    Ok((img, orientation, (w, h)))
}

/// The smallest IDCT scale (1/8, 1/4, 1/2, else none) that leaves at least a quarter
/// more than the display edge for the resize filter to take off: the display image is
/// never an enlargement, and never a block-scaled decode resized by nearly nothing,
/// which comes out softer (a 3300-pixel photo at 1/2 measured 0.5 dB below its full
/// decode). Only these three scales: libjpeg-turbo's SIMD covers them, and libvips
/// uses the same.
fn shrink_on_load(longest: usize) -> turbojpeg::ScalingFactor {
    let enough = DISPLAY_EDGE as usize * 5 / 4;
    [8, 4, 2]
        .into_iter()
        .map(|denom| turbojpeg::ScalingFactor::new(1, denom))
        .find(|scale| scale.scale(longest) >= enough)
        .unwrap_or(turbojpeg::ScalingFactor::ONE)
}

/// An `image` decoder for `format` under our limits (edges, allocations).
fn limited_decoder(format: ImageFormat, bytes: &[u8]) -> Result<impl ImageDecoder + '_, RenditionError> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_EDGE);
    limits.max_image_height = Some(MAX_EDGE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    reader.into_decoder().map_err(|e| match e {
        // The decoder read dimensions past MAX_EDGE from the header.
        image::ImageError::Limits(_) => RenditionError::TooManyPixels(0),
        other => RenditionError::Decode(other.to_string()),
    })
}

/// JPEG, GIF and WebP through `image`'s decoders, under its limits and the budget.
fn decode_other(format: ImageFormat, bytes: &[u8]) -> Result<(image::RgbImage, image::metadata::Orientation), RenditionError> {
    let mut decoder = limited_decoder(format, bytes)?;
    let (w, h) = decoder.dimensions();
    check_pixels(w, h)?;
    let orientation = decoder.orientation().map_err(|e| RenditionError::Decode(e.to_string()))?;
    let rgb8 = decoder.color_type() == image::ColorType::Rgb8;
    // The decoder's buffer, and for anything but 8-bit RGB the RGB copy made from it.
    let samples = decoder.total_bytes();
    let needed = if rgb8 { samples } else { samples.saturating_add(u64::from(w) * u64::from(h) * 3) };
    let _held = reserve(needed)?;
    let img = if rgb8 {
        decode_rgb8(decoder)?
    } else {
        DynamicImage::from_decoder(decoder).map_err(|e| RenditionError::Decode(e.to_string()))?.into_rgb8()
    };
    Ok((img, orientation))
}

/// What `DynamicImage::from_decoder` does for 8-bit RGB (every camera JPEG), but into
/// a buffer that is filled rather than allocated zeroed: jemalloc meets a zeroed request
/// this large with fresh pages, and faulting in 36 MB for every photo was a seventh of
/// the rendition time. Filled, the buffer reuses the pages of the previous photo's.
#[expect(clippy::slow_vector_initialization, reason = "vec![0; n] is the zeroed allocation this avoids")]
fn decode_rgb8(decoder: impl ImageDecoder) -> Result<image::RgbImage, RenditionError> {
    let (w, h) = decoder.dimensions();
    let len = usize::try_from(decoder.total_bytes()).map_err(|_| RenditionError::TooManyPixels(0))?;
    let mut buf = Vec::with_capacity(len);
    buf.resize(len, 0u8);
    decoder.read_image(&mut buf).map_err(|e| RenditionError::Decode(e.to_string()))?;
    image::RgbImage::from_raw(w, h, buf).ok_or_else(|| RenditionError::Decode("decoder returned a short image".to_owned()))
}

fn turns_sideways(orientation: image::metadata::Orientation) -> bool {
    use image::metadata::Orientation::*;
    matches!(orientation, Rotate90 | Rotate270 | Rotate90FlipH | Rotate270FlipH)
}

/// Scaled down so the longest edge is at most `edge` (`None` when it already fits),
/// with a SIMD convolution (fast_image_resize; Catmull-Rom, its support widened by the
/// scale factor so every source pixel counts). A twelfth of the time of `image`'s own
/// resize on a 12 MP photo.
fn scaled_down(img: &image::RgbImage, edge: u32) -> Result<Option<image::RgbImage>, RenditionError> {
    let (w, h) = img.dimensions();
    let longest = w.max(h);
    if longest <= edge {
        return Ok(None);
    }
    let scale = f64::from(edge) / f64::from(longest);
    let (tw, th) = (((f64::from(w) * scale).round() as u32).max(1), ((f64::from(h) * scale).round() as u32).max(1));
    let mut dst = image::RgbImage::new(tw, th);
    let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::CatmullRom));
    Resizer::new().resize(img, &mut dst, &options).map_err(|e| RenditionError::Encode(e.to_string()))?;
    Ok(Some(dst))
}

/// Baseline JPEG with 4:2:0 chroma, as phones write them, by libjpeg-turbo (its SIMD
/// colour conversion, DCT and entropy coding: encoding both renditions was a fifth of
/// a photo's time with jpeg-encoder; loadtest/README.md, "Beside the peers").
pub fn encode_jpeg(rgb: &image::RgbImage, quality: u8) -> Result<Vec<u8>, RenditionError> {
    let failed = |e: turbojpeg::Error| RenditionError::Encode(e.to_string());
    let (w, h) = (rgb.width() as usize, rgb.height() as usize);
    let mut compressor = turbojpeg::Compressor::new().map_err(failed)?;
    compressor.set_quality(i32::from(quality)).map_err(failed)?;
    compressor.set_subsamp(turbojpeg::Subsamp::Sub2x2).map_err(failed)?;
    let image = turbojpeg::Image { pixels: rgb.as_raw().as_slice(), width: w, pitch: w * 3, height: h, format: turbojpeg::PixelFormat::RGB };
    compressor.compress_to_vec(image).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(format: ImageFormat) -> Vec<u8> {
        let img = DynamicImage::ImageRgb8(image::RgbImage::from_fn(2000, 1000, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
        }));
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, format).unwrap();
        out.into_inner()
    }

    #[test]
    fn renders_each_accepted_format_to_bounded_jpegs() {
        for (format, ct) in [
            (ImageFormat::Jpeg, "image/jpeg"),
            (ImageFormat::Png, "image/png"),
            (ImageFormat::Gif, "image/gif"),
            (ImageFormat::WebP, "image/webp"),
        ] {
            let r = render(&sample(format)).unwrap();
            assert_eq!((r.content_type, r.width, r.height), (ct, 2000, 1000));
            let display = image::load_from_memory(&r.display).unwrap();
            let thumb = image::load_from_memory(&r.thumb).unwrap();
            assert_eq!((display.width(), display.height()), (1600, 800));
            assert_eq!((thumb.width(), thumb.height()), (480, 240));
        }
    }

    /// A real JPEG whose frame header claims `w`×`h`: a few hundred bytes that would
    /// decode to gigabytes.
    pub fn jpeg_claiming(w: u16, h: u16) -> Vec<u8> {
        let img = DynamicImage::ImageRgb8(image::RgbImage::new(8, 8));
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Jpeg).unwrap();
        let mut bytes = out.into_inner();
        let sof = bytes.windows(2).position(|p| p == [0xFF, 0xC0]).unwrap();
        bytes[sof + 5..sof + 7].copy_from_slice(&h.to_be_bytes());
        bytes[sof + 7..sof + 9].copy_from_slice(&w.to_be_bytes());
        bytes
    }

    /// A camera-like photo: the demo's construction scene (edges, flat sky, texture)
    /// with sensor-like noise, as a phone writes it (quality 92, 4:2:0).
    fn camera_jpeg(w: u32, h: u32, orientation: u16) -> Vec<u8> {
        let mut img = crate::media::demo_art::render(crate::media::demo_art::Stage::Framing, 3, w, h);
        let mut seed = 0x2545_f491_u32;
        for px in img.pixels_mut() {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let n = (seed % 9) as i16 - 4;
            for c in px.0.iter_mut() {
                *c = (i16::from(*c) + n).clamp(0, 255) as u8;
            }
        }
        let mut jpeg = Vec::new();
        let mut encoder = jpeg_encoder::Encoder::new(&mut jpeg, 92);
        encoder.set_sampling_factor(jpeg_encoder::SamplingFactor::F_2_2);
        encoder.encode(img.as_raw(), w as u16, h as u16, jpeg_encoder::ColorType::Rgb).unwrap();
        crate::media::fixtures::jpeg_with_exif(&jpeg, &crate::media::fixtures::app1(orientation, "2025:06:01 09:30:00", None))
    }

    /// How close a rendition is to the ideal it stands for (`reference`: the whole
    /// picture scaled down, never encoded): image-compare's SSIM (the lowest of the three
    /// channels, 1 when identical) and the PSNR in dB.
    fn closeness(rendition: &[u8], reference: &image::RgbImage) -> (f64, f64) {
        let img = image::load_from_memory(rendition).unwrap().into_rgb8();
        assert_eq!(img.dimensions(), reference.dimensions());
        let ssim = image_compare::rgb_similarity_structure(&image_compare::Algorithm::MSSIMSimple, &img, reference).unwrap().score;
        let squared: f64 = img.as_raw().iter().zip(reference.as_raw()).map(|(a, b)| (f64::from(*a) - f64::from(*b)).powi(2)).sum();
        (ssim, 10.0 * (255f64.powi(2) / (squared / img.as_raw().len() as f64)).log10())
    }

    #[test]
    fn shrink_on_load_picks_the_smallest_scale_that_covers_the_display_edge() {
        let denom = |longest| shrink_on_load(longest).denom() / shrink_on_load(longest).num();
        assert_eq!(denom(1600), 1);
        // Half of 3000 would be 1500: an enlargement to 1600, so decoded whole; half of
        // 3300 would leave the filter almost nothing to do.
        assert_eq!(denom(3000), 1);
        assert_eq!(denom(3300), 1);
        // A 12 MP phone photo, 4000 or 4032 wide: half.
        assert_eq!(denom(4000), 2);
        assert_eq!(denom(4032), 2);
        assert_eq!(denom(8000), 4);
        assert_eq!(denom(16_384), 8);
    }

    /// Shrink-on-load (libjpeg-turbo at 1/2 scale, or whole) against the full decode the server
    /// made before (`image`'s decoder, 12 MP in memory): the same sizes, and renditions
    /// as close to the ideal (the whole picture scaled down, not encoded) as before,
    /// within 0.025 SSIM and 0.3 dB PSNR (at 1/2: 0.02 and 0.2 dB lower; the JPEG at
    /// quality 82 is itself 38 dB from the ideal).
    #[test]
    fn shrink_on_load_renditions_are_as_good_as_the_full_decode() {
        for (w, h, orientation) in [(4000, 3000, 1), (4032, 3024, 6), (3300, 2200, 3)] {
            let jpeg = camera_jpeg(w, h, orientation);
            let fast = render(&jpeg).unwrap();
            let (img, o) = decode_other(ImageFormat::Jpeg, &jpeg).unwrap();
            let mut ideal = DynamicImage::ImageRgb8(scaled_down(&img, DISPLAY_EDGE).unwrap().unwrap());
            ideal.apply_orientation(o);
            let ideal = ideal.into_rgb8();
            let full = from_pixels(img, o).unwrap();
            assert_eq!((fast.width, fast.height), (full.width, full.height));
            let (was, now) = (closeness(&full.display, &ideal), closeness(&fast.display, &ideal));
            eprintln!(
                "{w}x{h} orientation {orientation}: SSIM {:.4} → {:.4}, PSNR {:.2} → {:.2} dB, display {} → {} bytes",
                was.0,
                now.0,
                was.1,
                now.1,
                full.display.len(),
                fast.display.len()
            );
            assert!(now.0 >= was.0 - 0.025, "SSIM fell from {} to {}", was.0, now.0);
            assert!(now.1 >= was.1 - 0.3, "PSNR fell from {} to {}", was.1, now.1);
            let thumbs = (image::load_from_memory(&fast.thumb).unwrap(), image::load_from_memory(&full.thumb).unwrap());
            assert_eq!((thumbs.0.width(), thumbs.0.height()), (thumbs.1.width(), thumbs.1.height()));
        }
    }

    /// libjpeg-turbo cannot make RGB of a CMYK JPEG; those still render as before, and
    /// greyscale JPEGs come out grey.
    #[test]
    fn cmyk_and_greyscale_jpegs_render() {
        let mut cmyk = Vec::new();
        let pixels: Vec<u8> = (0..400 * 300).flat_map(|i| [(i % 200) as u8, 40, 90, 10]).collect();
        jpeg_encoder::Encoder::new(&mut cmyk, 90).encode(&pixels, 400, 300, jpeg_encoder::ColorType::Cmyk).unwrap();
        let r = render(&cmyk).unwrap();
        assert_eq!((r.width, r.height), (400, 300));
        let mut grey = Vec::new();
        let pixels: Vec<u8> = (0..3400 * 1000).map(|i| (i % 251) as u8).collect();
        jpeg_encoder::Encoder::new(&mut grey, 90).encode(&pixels, 3400, 1000, jpeg_encoder::ColorType::Luma).unwrap();
        let r = render(&grey).unwrap();
        assert_eq!((r.width, r.height), (3400, 1000));
        let display = image::load_from_memory(&r.display).unwrap().into_rgb8();
        assert_eq!(display.dimensions(), (1600, 471));
        assert!(display.pixels().all(|p| p.0[0].abs_diff(p.0[1]) <= 2 && p.0[1].abs_diff(p.0[2]) <= 2));
    }

    #[test]
    fn decompression_bombs_are_refused_before_decoding() {
        let bomb = jpeg_claiming(15_000, 15_000);
        assert!(bomb.len() < 2_000);
        assert!(matches!(render(&bomb), Err(RenditionError::TooManyPixels(225))));
        // Past the edge limit the decoder's own limits refuse it, with the same error.
        assert!(matches!(render(&jpeg_claiming(60_000, 10)), Err(RenditionError::TooManyPixels(_))));
    }

    #[test]
    fn exif_orientation_is_applied_and_capture_time_kept() {
        let jpeg = sample(ImageFormat::Jpeg);
        // Orientation 6: the camera was turned; the stored pixels are landscape.
        let turned = crate::media::fixtures::jpeg_with_exif(
            &jpeg,
            &crate::media::fixtures::app1(6, "2024:03:02 10:00:00", None),
        );
        let r = render(&turned).unwrap();
        assert_eq!((r.width, r.height), (1000, 2000));
        let display = image::load_from_memory(&r.display).unwrap();
        assert_eq!((display.width(), display.height()), (800, 1600));
        assert_eq!(r.taken_at, Some(1_709_373_600_000));
        assert_eq!(render(&jpeg).unwrap().taken_at, None);
    }

    /// Scaled before it is turned: the turn must still land the right way up.
    #[test]
    fn a_turned_photo_is_turned_after_scaling_and_keeps_its_colours() {
        let img = DynamicImage::ImageRgb8(image::RgbImage::from_fn(2000, 1000, |x, _| {
            if x < 1000 { image::Rgb([220, 30, 30]) } else { image::Rgb([30, 30, 220]) }
        }));
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Jpeg).unwrap();
        // Orientation 6: shown turned 90° clockwise, so the left (red) half is on top.
        let turned = crate::media::fixtures::jpeg_with_exif(
            &out.into_inner(),
            &crate::media::fixtures::app1(6, "2024:03:02 10:00:00", None),
        );
        let display = image::load_from_memory(&render(&turned).unwrap().display).unwrap().to_rgb8();
        assert_eq!(display.dimensions(), (800, 1600));
        let top = display.get_pixel(400, 300).0;
        let bottom = display.get_pixel(400, 1300).0;
        assert!(top[0] > 180 && top[2] < 80, "top is red: {top:?}");
        assert!(bottom[2] > 180 && bottom[0] < 80, "bottom is blue: {bottom:?}");
    }

    #[test]
    fn text_is_not_an_image() {
        assert!(matches!(render(b"hello, I am a text file named photo.jpg"), Err(RenditionError::NotAnImage)));
    }

    #[test]
    fn a_truncated_jpeg_is_refused_as_incomplete() {
        // A camera JPEG with an EXIF segment: its end marker is only at the end.
        let photo = crate::media::fixtures::jpeg_with_exif(
            &sample(ImageFormat::Jpeg),
            &crate::media::fixtures::app1(1, "2024:03:02 10:00:00", None),
        );
        assert!(render(&photo).is_ok());
        let third = &photo[..photo.len() / 3];
        assert!(matches!(render(third), Err(RenditionError::Truncated)));
        // Cut just before the end marker, too.
        assert!(matches!(render(&photo[..photo.len() - 2]), Err(RenditionError::Truncated)));
        // An end marker inside the EXIF segment (its thumbnail's) does not count.
        let mut with_thumb_end = crate::media::fixtures::app1(1, "2024:03:02 10:00:00", None);
        with_thumb_end.extend_from_slice(&[0xFF, 0xD9]);
        let len = u16::try_from(with_thumb_end.len() - 2).unwrap().to_be_bytes();
        with_thumb_end[2..4].copy_from_slice(&len);
        let photo = crate::media::fixtures::jpeg_with_exif(&sample(ImageFormat::Jpeg), &with_thumb_end);
        assert!(render(&photo).is_ok());
        assert!(matches!(render(&photo[..photo.len() / 2]), Err(RenditionError::Truncated)));
    }

    #[test]
    fn a_truncated_png_is_refused() {
        let png = sample(ImageFormat::Png);
        assert!(matches!(render(&png[..png.len() / 3]), Err(RenditionError::Truncated | RenditionError::Decode(_))));
    }

    #[test]
    fn a_gif_signature_followed_by_text_is_damaged_not_huge() {
        let fake = b"GIF89a\nThese are my site notes: framing inspected, windows arrive Tuesday.";
        assert!(matches!(render(fake), Err(RenditionError::Damaged("GIF"))));
        // A real GIF passes the same check.
        assert!(render(&sample(ImageFormat::Gif)).is_ok());
    }

    #[test]
    fn sixteen_bit_pngs_are_reduced_while_decoding() {
        let png = crate::media::fixtures::png16_rgba(1200, 900).unwrap();
        let r = render(&png).unwrap();
        assert_eq!((r.content_type, r.width, r.height), ("image/png", 1200, 900));
        let display = image::load_from_memory(&r.display).unwrap().to_rgb8();
        let px = display.get_pixel(600, 450).0;
        assert!(px.iter().zip([0x40, 0x80, 0xC0]).all(|(a, b)| a.abs_diff(b) <= 3), "{px:?}");
    }

    /// The reported file: 8000×8000 16-bit RGBA, half a megabyte, 512 MB of samples
    /// (949 MB peak RSS before). It is decoded holding its 8-bit RGB picture (192 MB)
    /// and the renditions, within the budget loadtest/README.md documents. Measured as
    /// the growth of this process's peak resident memory, reset just before.
    /// Peak memory is a whole-process figure, and the other tests of this binary
    /// allocate in parallel: so the measurement runs alone, in a child process that
    /// runs only this test.
    #[test]
    fn the_16_bit_png_bomb_stays_within_its_budget() {
        const ALONE: &str = "SITECAST_MEASURE_ALONE";
        if std::env::var_os(ALONE).is_none() {
            let name = "media::renditions::tests::the_16_bit_png_bomb_stays_within_its_budget";
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args([name, "--exact", "--test-threads=1", "--nocapture"])
                .env(ALONE, "1")
                .output()
                .unwrap();
            let log = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{log}");
            assert!(log.contains("1 passed"), "the measurement ran: {log}");
            return;
        }
        let png = crate::media::fixtures::png16_rgba(8000, 8000).unwrap();
        assert!(png.len() < 2 * 1024 * 1024, "{} bytes", png.len());
        let before = peak_rss_after_reset();
        let r = render(&png).unwrap();
        let grown = peak_rss_kib() - before;
        assert_eq!((r.width, r.height), (8000, 8000));
        let budget_kib = (8000 * 8000 * 3 + RENDITION_BYTES) / 1024 + 48 * 1024;
        assert!(grown <= budget_kib, "decoding grew the peak by {} MB", grown / 1024);
    }

    fn peak_rss_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// Resets the peak to the current resident size (Linux: clear_refs "5").
    fn peak_rss_after_reset() -> u64 {
        std::fs::write("/proc/self/clear_refs", "5").unwrap();
        peak_rss_kib()
    }
}
