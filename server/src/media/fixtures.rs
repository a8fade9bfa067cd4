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

/// A HEIC made from `jpeg` by libheif's own encoder (`heif-enc`, Debian's
/// libheif-examples), its EXIF carried over as heif-enc does.
pub fn heic_from_jpeg(jpeg: &[u8]) -> std::io::Result<Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("sitecast-heic-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir)?;
    let (input, output) = (dir.join("in.jpg"), dir.join("out.heic"));
    std::fs::write(&input, jpeg)?;
    let run = std::process::Command::new("heif-enc").args(["-q", "60"]).arg(&input).arg("-o").arg(&output).output();
    let made = match run {
        Ok(out) if out.status.success() => std::fs::read(&output),
        Ok(out) => Err(std::io::Error::other(format!("heif-enc failed: {}", String::from_utf8_lossy(&out.stderr)))),
        Err(e) => Err(std::io::Error::other(format!("heif-enc is needed (apt-get install libheif-examples; scripts/test-deps.sh): {e}"))),
    };
    let _ = std::fs::remove_dir_all(&dir);
    made
}

/// `heif` with an `irot` property (`quarter_turns` × 90° anticlockwise) on its primary
/// image, as an iPhone writes a photo taken upright: the pixels stay as the sensor
/// saw them and the file says how to turn them. Rewrites heif-enc's layout (meta
/// before mdat, iloc extents by absolute offset); `None` for any other.
pub fn heif_with_rotation(heif: &[u8], quarter_turns: u8) -> Option<Vec<u8>> {
    let be32 = |at: usize| -> Option<usize> { Some(u32::from_be_bytes(heif.get(at..at + 4)?.try_into().ok()?) as usize) };
    let find = |from: usize, to: usize, name: &[u8; 4]| -> Option<(usize, usize)> {
        let mut at = from;
        while at + 8 <= to {
            let size = be32(at)?;
            if size < 8 {
                return None;
            }
            if heif.get(at + 4..at + 8)? == name {
                return Some((at, size));
            }
            at += size;
        }
        None
    };
    let (meta, meta_len) = find(0, heif.len(), b"meta")?;
    let (iprp, iprp_len) = find(meta + 12, meta + meta_len, b"iprp")?;
    let (ipco, ipco_len) = find(iprp + 8, iprp + iprp_len, b"ipco")?;
    let (ipma, ipma_len) = find(iprp + 8, iprp + iprp_len, b"ipma")?;
    let (iloc, iloc_len) = find(meta + 12, meta + meta_len, b"iloc")?;
    let (pitm, _) = find(meta + 12, meta + meta_len, b"pitm")?;
    let primary = u16::from_be_bytes(heif.get(pitm + 12..pitm + 14)?.try_into().ok()?);
    // Properties so far (the new one's 1-based index follows them).
    let mut count = 0u8;
    let mut at = ipco + 8;
    while at < ipco + ipco_len {
        count += 1;
        at += be32(at)?;
    }
    let irot = [0, 0, 0, 9, b'i', b'r', b'o', b't', quarter_turns & 3];
    // ipma version 0, flags 0: entries of item id (2), count (1), 1-byte associations.
    if heif.get(ipma + 8..ipma + 12)? != [0, 0, 0, 0] || count >= 127 {
        return None;
    }
    let mut out = Vec::with_capacity(heif.len() + 10);
    let mut entry_count_at = None;
    // Copy up to the end of ipco, add irot, then ipma with the association added.
    out.extend_from_slice(&heif[..ipco + ipco_len]);
    out.extend_from_slice(&irot);
    let ipma_start = out.len();
    out.extend_from_slice(&heif[ipma..ipma + 16]);
    let entries = be32(ipma + 12)?;
    let mut at = ipma + 16;
    for _ in 0..entries {
        let item = u16::from_be_bytes(heif.get(at..at + 2)?.try_into().ok()?);
        let n = *heif.get(at + 2)? as usize;
        out.extend_from_slice(heif.get(at..at + 2)?);
        if item == primary {
            entry_count_at = Some(out.len());
            out.push(u8::try_from(n + 1).ok()?);
        } else {
            out.push(n as u8);
        }
        out.extend_from_slice(heif.get(at + 3..at + 3 + n)?);
        if item == primary {
            out.push(0x80 | (count + 1));
        }
        at += 3 + n;
    }
    entry_count_at?;
    out.extend_from_slice(&heif[ipma + ipma_len..]);
    let grown = 10u32;
    let bump = |out: &mut Vec<u8>, at: usize| {
        let size = u32::from_be_bytes([out[at], out[at + 1], out[at + 2], out[at + 3]]) + grown;
        out[at..at + 4].copy_from_slice(&size.to_be_bytes());
    };
    for at in [meta, iprp] {
        bump(&mut out, at);
    }
    let ipco_size = u32::try_from(ipco_len + 9).ok()?;
    out[ipco..ipco + 4].copy_from_slice(&ipco_size.to_be_bytes());
    let ipma_size = u32::try_from(ipma_len + 1).ok()?;
    out[ipma_start..ipma_start + 4].copy_from_slice(&ipma_size.to_be_bytes());
    // iloc: version 0/1, offset_size 4, length_size 4, base_offset_size 0 or 4; every
    // extent lies in mdat, after what grew.
    if iloc > ipco {
        return None;
    }
    let version = heif[iloc + 8];
    let (sizes, base_size) = (heif[iloc + 12], usize::from(heif[iloc + 13] >> 4));
    if version > 1 || sizes != 0x44 || !(base_size == 0 || base_size == 4) {
        return None;
    }
    let items = u16::from_be_bytes(heif.get(iloc + 14..iloc + 16)?.try_into().ok()?);
    let mut at = iloc + 16;
    for _ in 0..items {
        at += 2; // item id
        if version == 1 {
            at += 2; // construction method
        }
        at += 2; // data reference index
        let based = base_size == 4 && be32(at)? != 0;
        if based {
            bump(&mut out, at);
        }
        at += base_size;
        let extents = u16::from_be_bytes(heif.get(at..at + 2)?.try_into().ok()?);
        at += 2;
        for _ in 0..extents {
            if !based {
                bump(&mut out, at);
            }
            at += 8;
        }
    }
    (at <= iloc + iloc_len).then_some(out)
}
