//! Photo fixtures for tests (here and in the integration suite): EXIF segments as a
//! camera writes them, spliced into real encoded images.

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
/// An APP1 segment with GPS tags for `lat`, `lon` (degrees), as a phone writes them:
/// degrees, minutes and seconds as rationals, and N/S, E/W references.
pub fn gps_app1(lat: f64, lon: f64) -> Vec<u8> {
    use exif::experimental::Writer;
    use exif::{Field, In, Rational, Tag, Value};
    let dms = |v: f64| {
        let v = v.abs();
        let d = v.trunc();
        let m = ((v - d) * 60.0).trunc();
        let s = ((v - d) * 60.0 - m) * 60.0;
        Value::Rational(vec![
            Rational { num: d as u32, denom: 1 },
            Rational { num: m as u32, denom: 1 },
            Rational { num: (s * 10_000.0).round() as u32, denom: 10_000 },
        ])
    };
    let reference = |r: &str| Value::Ascii(vec![r.as_bytes().to_vec()]);
    let fields = [
        Field { tag: Tag::GPSLatitudeRef, ifd_num: In::PRIMARY, value: reference(if lat < 0.0 { "S" } else { "N" }) },
        Field { tag: Tag::GPSLatitude, ifd_num: In::PRIMARY, value: dms(lat) },
        Field { tag: Tag::GPSLongitudeRef, ifd_num: In::PRIMARY, value: reference(if lon < 0.0 { "W" } else { "E" }) },
        Field { tag: Tag::GPSLongitude, ifd_num: In::PRIMARY, value: dms(lon) },
    ];
    let mut writer = Writer::new();
    for field in &fields {
        writer.push_field(field);
    }
    let mut tiff = std::io::Cursor::new(Vec::new());
    // Four well-formed fields always write; an empty segment would read as no location.
    if writer.write(&mut tiff, false).is_err() {
        return Vec::new();
    }
    let tiff = tiff.into_inner();
    let mut seg = vec![0xFF, 0xE1];
    seg.extend_from_slice(&((2 + 6 + tiff.len()) as u16).to_be_bytes());
    seg.extend_from_slice(b"Exif\0\0");
    seg.extend_from_slice(&tiff);
    seg
}

pub fn jpeg_with_exif(jpeg: &[u8], app1: &[u8]) -> Vec<u8> {
    let mut out = jpeg[..2].to_vec();
    out.extend_from_slice(app1);
    out.extend_from_slice(&jpeg[2..]);
    out
}


/// A `w`×`h` 16-bit RGBA PNG of one flat colour, written row by row: for 8000×8000 a
/// file of about half a megabyte whose samples take 512 MB.
pub fn png16_rgba(w: u32, h: u32) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Sixteen);
        encoder.set_compression(png::Compression::Balanced);
        encoder.set_filter(png::Filter::Up);
        let mut writer = encoder.write_header()?;
        let mut stream = writer.stream_writer()?;
        let row: Vec<u8> = [0x40u8, 0x00, 0x80, 0x00, 0xC0, 0x00, 0xFF, 0xFF].repeat(w as usize);
        for _ in 0..h {
            std::io::Write::write_all(&mut stream, &row)?;
        }
        stream.finish()?;
        writer.finish()?;
    }
    Ok(out)
}
