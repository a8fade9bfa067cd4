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
mod tests {
    use super::*;
    use crate::media::fixtures::{app1, jpeg_with_exif};

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
