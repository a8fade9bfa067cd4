//! The display-size image and the thumbnail made from every stored photo, EXIF
//! orientation applied. Decoding runs under pixel and allocation limits, so a small
//! file that claims to be gigantic (a decompression bomb) is refused, not decoded.

use std::io::Cursor;

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
    let mut img = DynamicImage::from_decoder(decoder).map_err(|e| RenditionError::Decode(e.to_string()))?;
    img.apply_orientation(orientation);
    // The thumbnail is made from the display image: a third of the pixels to read.
    let display_img = fit(&img, DISPLAY_EDGE);
    let thumb = encode_jpeg(&fit(&display_img, THUMB_EDGE), 78)?;
    let display = encode_jpeg(&display_img, 82)?;
    let taken_at = super::exif::taken_at(bytes);
    Ok(Renditions { content_type, width: img.width(), height: img.height(), display, thumb, taken_at })
}

/// Downscales by area averaging (`thumbnail`): every source pixel counts once, which
/// is as sharp as a filtered resize when shrinking by 2x or more, and several times
/// faster on a 12-megapixel photo.
fn fit(img: &DynamicImage, edge: u32) -> DynamicImage {
    let longest = img.width().max(img.height());
    if longest <= edge {
        img.clone()
    } else if longest >= 2 * edge {
        img.thumbnail(edge, edge)
    } else {
        // Close to the target size, area averaging would alias; filter instead.
        img.resize(edge, edge, image::imageops::FilterType::Triangle)
    }
}

pub fn encode_jpeg(img: &DynamicImage, quality: u8) -> Result<Vec<u8>, RenditionError> {
    let mut out = Vec::new();
    let rgb = img.to_rgb8();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality)
        .encode_image(&rgb)
        .map_err(|e| RenditionError::Encode(e.to_string()))?;
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

    #[test]
    fn text_is_not_an_image() {
        assert!(matches!(render(b"hello, I am a text file named photo.jpg"), Err(RenditionError::NotAnImage)));
    }
}
