//! The display-size image and the thumbnail made from every stored photo, EXIF
//! orientation applied. Decoding runs under pixel and allocation limits, so a small
//! file that claims to be gigantic (a decompression bomb) is refused, not decoded.

use std::io::Cursor;

use fast_image_resize::{FilterType, ResizeAlg, ResizeOptions, Resizer};
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};

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
}

pub struct Renditions {
    pub content_type: &'static str,
    pub width: u32,
    pub height: u32,
    pub display: Vec<u8>,
    pub thumb: Vec<u8>,
    /// Capture time from EXIF, when the photo has one.
    pub taken_at: Option<i64>,
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
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_EDGE);
    limits.max_image_height = Some(MAX_EDGE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(|e| match e {
        // The decoder read dimensions past MAX_EDGE from the header.
        image::ImageError::Limits(_) => RenditionError::TooManyPixels(0),
        other => RenditionError::Decode(other.to_string()),
    })?;
    let (w, h) = decoder.dimensions();
    let pixels = u64::from(w) * u64::from(h);
    if pixels > MAX_PIXELS {
        return Err(RenditionError::TooManyPixels(pixels / 1_000_000));
    }
    let orientation = decoder.orientation().map_err(|e| RenditionError::Decode(e.to_string()))?;
    let img = if decoder.color_type() == image::ColorType::Rgb8 {
        decode_rgb8(decoder)?
    } else {
        DynamicImage::from_decoder(decoder).map_err(|e| RenditionError::Decode(e.to_string()))?.into_rgb8()
    };
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
    let taken_at = super::exif::taken_at(bytes);
    Ok(Renditions { content_type, width, height, display, thumb, taken_at })
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

/// Baseline JPEG with 4:2:0 chroma, as phones write them (jpeg-encoder, SIMD).
pub fn encode_jpeg(rgb: &image::RgbImage, quality: u8) -> Result<Vec<u8>, RenditionError> {
    let (w, h) = rgb.dimensions();
    let (w, h) = (u16::try_from(w), u16::try_from(h));
    let (Ok(w), Ok(h)) = (w, h) else {
        return Err(RenditionError::Encode("image too large for JPEG".to_owned()));
    };
    let mut out = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut out, quality);
    encoder.set_sampling_factor(jpeg_encoder::SamplingFactor::F_2_2);
    encoder.encode(rgb.as_raw(), w, h, jpeg_encoder::ColorType::Rgb).map_err(|e| RenditionError::Encode(e.to_string()))?;
    Ok(out)
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
}
