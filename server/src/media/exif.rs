//! When a photo was taken, from its EXIF data.

use std::io::Cursor;

use exif::{In, Reader, Tag, Value};
use time::{Date, Month, PrimitiveDateTime, Time, UtcOffset};

/// Capture time in ms since the epoch. `DateTimeOriginal` is the camera's local time;
/// with `OffsetTimeOriginal` it is placed exactly, without it it is kept as if it were
/// UTC, so the date a gallery shows is the date on the camera.
pub fn taken_at(bytes: &[u8]) -> Option<i64> {
    let exif = Reader::new().read_from_container(&mut Cursor::new(bytes)).ok()?;
    let ascii = |tag| match exif.get_field(tag, In::PRIMARY).map(|f| &f.value) {
        Some(Value::Ascii(parts)) => parts.first().cloned(),
        _ => None,
    };
    let raw = ascii(Tag::DateTimeOriginal).or_else(|| ascii(Tag::DateTime))?;
    let mut dt = exif::DateTime::from_ascii(&raw).ok()?;
    if let Some(offset) = ascii(Tag::OffsetTimeOriginal) {
        let _ = dt.parse_offset(&offset);
    }
    let date = Date::from_calendar_date(i32::from(dt.year), Month::try_from(dt.month).ok()?, dt.day).ok()?;
    let time = Time::from_hms(dt.hour, dt.minute, dt.second).ok()?;
    let offset = UtcOffset::from_whole_seconds(i32::from(dt.offset.unwrap_or(0)) * 60).ok()?;
    let at = PrimitiveDateTime::new(date, time).assume_offset(offset);
    // Cameras with an unset clock write 0000 or 1970-ish dates; those say nothing.
    (at.year() >= 1990).then(|| (at.unix_timestamp_nanos() / 1_000_000) as i64)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A minimal EXIF APP1 segment (big-endian TIFF) with Orientation in IFD0 and
    /// DateTimeOriginal (+ OffsetTimeOriginal when given) in the Exif IFD.
    pub fn app1(orientation: u16, taken: &str, offset: Option<&str>) -> Vec<u8> {
        let mut tiff: Vec<u8> = b"MM\0\x2a\0\0\0\x08".to_vec();
        let put16 = |v: &mut Vec<u8>, x: u16| v.extend_from_slice(&x.to_be_bytes());
        let put32 = |v: &mut Vec<u8>, x: u32| v.extend_from_slice(&x.to_be_bytes());
        // IFD0 at 8: two entries (Orientation, ExifIFDPointer), next IFD 0.
        let ifd0_len = 2 + 2 * 12 + 4;
        let exif_ifd = 8 + ifd0_len as u32;
        put16(&mut tiff, 2);
        put16(&mut tiff, 0x0112);
        put16(&mut tiff, 3);
        put32(&mut tiff, 1);
        put16(&mut tiff, orientation);
        put16(&mut tiff, 0);
        put16(&mut tiff, 0x8769);
        put16(&mut tiff, 4);
        put32(&mut tiff, 1);
        put32(&mut tiff, exif_ifd);
        put32(&mut tiff, 0);
        // Exif IFD: DateTimeOriginal (20 bytes ASCII) and maybe OffsetTimeOriginal (7).
        let entries: u16 = if offset.is_some() { 2 } else { 1 };
        let data_at = exif_ifd + 2 + u32::from(entries) * 12 + 4;
        put16(&mut tiff, entries);
        put16(&mut tiff, 0x9003);
        put16(&mut tiff, 2);
        put32(&mut tiff, 20);
        put32(&mut tiff, data_at);
        if offset.is_some() {
            put16(&mut tiff, 0x9011);
            put16(&mut tiff, 2);
            put32(&mut tiff, 7);
            put32(&mut tiff, data_at + 20);
        }
        put32(&mut tiff, 0);
        tiff.extend_from_slice(taken.as_bytes());
        tiff.push(0);
        if let Some(o) = offset {
            tiff.extend_from_slice(o.as_bytes());
            tiff.push(0);
        }
        let mut seg = vec![0xFF, 0xE1];
        put16(&mut seg, (2 + 6 + tiff.len()) as u16);
        seg.extend_from_slice(b"Exif\0\0");
        seg.extend_from_slice(&tiff);
        seg
    }

    /// A JPEG with the given EXIF segment spliced in after SOI.
    pub fn jpeg_with_exif(jpeg: &[u8], app1: &[u8]) -> Vec<u8> {
        let mut out = jpeg[..2].to_vec();
        out.extend_from_slice(app1);
        out.extend_from_slice(&jpeg[2..]);
        out
    }

    fn tiny_jpeg() -> Vec<u8> {
        let img = image::DynamicImage::ImageRgb8(image::RgbImage::new(4, 2));
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Jpeg).unwrap();
        out.into_inner()
    }

    #[test]
    fn reads_capture_time_with_and_without_offset() {
        let jpeg = tiny_jpeg();
        let plain = jpeg_with_exif(&jpeg, &app1(1, "2025:06:14 09:30:00", None));
        // 2025-06-14T09:30:00Z
        assert_eq!(taken_at(&plain), Some(1_749_893_400_000));
        let zoned = jpeg_with_exif(&jpeg, &app1(1, "2025:06:14 09:30:00", Some("+02:00")));
        assert_eq!(taken_at(&zoned), Some(1_749_893_400_000 - 2 * 3_600_000));
    }

    #[test]
    fn no_exif_or_an_unset_clock_means_unknown() {
        let jpeg = tiny_jpeg();
        assert_eq!(taken_at(&jpeg), None);
        assert_eq!(taken_at(&jpeg_with_exif(&jpeg, &app1(1, "0000:00:00 00:00:00", None))), None);
        assert_eq!(taken_at(b"not an image"), None);
    }
}
