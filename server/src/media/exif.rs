//! When and where a photo was taken, from its EXIF data.

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

/// Where the photo was taken, (latitude, longitude) in degrees, from its GPS tags.
/// A position of exactly 0, 0 is what a camera without a fix writes: it says nothing.
pub fn location(bytes: &[u8]) -> Option<(f64, f64)> {
    let exif = Reader::new().read_from_container(&mut Cursor::new(bytes)).ok()?;
    let degrees = |tag, reference, negative: u8| {
        let value = match &exif.get_field(tag, In::PRIMARY)?.value {
            Value::Rational(parts) if parts.len() >= 3 => {
                parts[0].to_f64() + parts[1].to_f64() / 60.0 + parts[2].to_f64() / 3600.0
            }
            _ => return None,
        };
        let sign = match &exif.get_field(reference, In::PRIMARY)?.value {
            Value::Ascii(parts) => match parts.first().and_then(|p| p.first()) {
                Some(c) if c.eq_ignore_ascii_case(&negative) => -1.0,
                Some(_) => 1.0,
                None => return None,
            },
            _ => return None,
        };
        value.is_finite().then_some(sign * value)
    };
    let lat = degrees(Tag::GPSLatitude, Tag::GPSLatitudeRef, b'S')?;
    let lon = degrees(Tag::GPSLongitude, Tag::GPSLongitudeRef, b'W')?;
    let on_earth = (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon);
    (on_earth && (lat, lon) != (0.0, 0.0)).then_some((lat, lon))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::fixtures::{app1, gps_app1, jpeg_with_exif};

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

    #[test]
    fn reads_where_it_was_taken() {
        let jpeg = tiny_jpeg();
        let at = location(&jpeg_with_exif(&jpeg, &gps_app1(40.748_44, -73.985_66))).expect("a location");
        assert!((at.0 - 40.748_44).abs() < 1e-6 && (at.1 + 73.985_66).abs() < 1e-6, "{at:?}");
        let south_east = location(&jpeg_with_exif(&jpeg, &gps_app1(-33.856_78, 151.215_3))).expect("a location");
        assert!(south_east.0 < 0.0 && south_east.1 > 0.0, "{south_east:?}");
        assert_eq!(location(&jpeg_with_exif(&jpeg, &gps_app1(0.0, 0.0))), None);
        assert_eq!(location(&jpeg_with_exif(&jpeg, &app1(1, "2025:06:14 09:30:00", None))), None);
        assert_eq!(location(&jpeg), None);
    }
}
