//! A photo's markup drawn onto its display image, for downloads "with markup"
//! (docs/FEATURES.md, "Markup on photos"). The shapes become an SVG drawn by resvg with the
//! bundled font, by the same rules and numbers the web app's overlay uses
//! (web/src/lib/markupStyle.ts), so the download is the drawing the screen showed. Points
//! are fractions of the photo; sizes are fractions of its shorter side, so any rendition
//! gets the same picture.

use std::fmt::Write;
use std::sync::{Arc, LazyLock};

use protocol::{Geometry, MarkupColor, Point, Shape, StrokeWidth};

use super::renditions::{encode_jpeg, RenditionError};

/// DejaVu Sans Bold (free licence: assets/fonts/LICENSE-DejaVu.txt), also served to
/// the browser, so labels and pin numbers have the same shapes on screen and on paper.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");
pub const FONT_FAMILY: &str = "DejaVu Sans";
const QUALITY: u8 = 88;

static OPTIONS: LazyLock<resvg::usvg::Options<'static>> = LazyLock::new(|| {
    let mut fonts = resvg::usvg::fontdb::Database::new();
    fonts.load_font_data(FONT.to_vec());
    resvg::usvg::Options { font_family: FONT_FAMILY.to_owned(), fontdb: Arc::new(fonts), ..Default::default() }
});

pub fn hex(color: MarkupColor) -> &'static str {
    match color {
        MarkupColor::Red => "#E53935",
        MarkupColor::Orange => "#FB8C00",
        MarkupColor::Yellow => "#FDD835",
        MarkupColor::Green => "#43A047",
        MarkupColor::Blue => "#1E88E5",
        MarkupColor::White => "#FFFFFF",
        MarkupColor::Black => "#212121",
    }
}

/// The halo drawn under each shape so it reads on sky and on concrete: dark, but
/// light under black.
fn halo(color: MarkupColor) -> (&'static str, f32) {
    match color {
        MarkupColor::Black => ("#FFFFFF", 0.6),
        _ => ("#000000", 0.5),
    }
}

/// Stroke width as a fraction of the photo's shorter side.
pub fn stroke(width: StrokeWidth) -> f32 {
    match width {
        StrokeWidth::Thin => 0.004,
        StrokeWidth::Medium => 0.008,
        StrokeWidth::Thick => 0.014,
    }
}

/// A label's font size as a fraction of the shorter side.
pub fn font_size(width: StrokeWidth) -> f32 {
    match width {
        StrokeWidth::Thin => 0.03,
        StrokeWidth::Medium => 0.045,
        StrokeWidth::Thick => 0.065,
    }
}

/// A pin's radius as a fraction of the shorter side.
pub fn pin_radius(width: StrokeWidth) -> f32 {
    match width {
        StrokeWidth::Thin => 0.016,
        StrokeWidth::Medium => 0.022,
        StrokeWidth::Thick => 0.03,
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // XML 1.0 has no place for other control characters or noncharacters: new
            // text refuses them (`protocol::text`); text stored before is drawn without.
            c if c != '\t' && (c.is_control() || !protocol::text::is_xml_char(c)) => {}
            c => out.push(c),
        }
    }
    out
}

/// The markup as an SVG of `w` × `h` pixels (the image it is drawn on).
pub fn svg(shapes: &[Shape], w: f32, h: f32) -> String {
    let side = w.min(h);
    let px = |p: &Point| (p.x * w, p.y * h);
    let mut out = format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#);
    let mut pins = 0;
    for shape in shapes {
        let color = hex(shape.color);
        let (halo, halo_opacity) = halo(shape.color);
        let sw = stroke(shape.width) * side;
        // One stroked outline, drawn as a halo then in colour.
        let stroked = |out: &mut String, element: &str| {
            let _ = write!(
                out,
                r#"<{element} fill="none" stroke="{halo}" stroke-opacity="{halo_opacity}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round"/>"#,
                sw * 1.8
            );
            let _ = write!(out, r#"<{element} fill="none" stroke="{color}" stroke-width="{sw}" stroke-linecap="round" stroke-linejoin="round"/>"#);
        };
        match &shape.geometry {
            Geometry::Line { from, to } => {
                let ((x1, y1), (x2, y2)) = (px(from), px(to));
                stroked(&mut out, &format!(r#"line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}""#));
            }
            Geometry::Arrow { from, to } => {
                let ((x1, y1), (x2, y2)) = (px(from), px(to));
                let len = (x2 - x1).hypot(y2 - y1);
                if len <= f32::EPSILON {
                    continue;
                }
                let (dx, dy) = ((x2 - x1) / len, (y2 - y1) / len);
                let head = 4.5 * sw;
                let (bx, by) = (x2 - head * dx, y2 - head * dy);
                let (nx, ny) = (-dy * 2.25 * sw, dx * 2.25 * sw);
                if len > head {
                    stroked(&mut out, &format!(r#"line x1="{x1}" y1="{y1}" x2="{bx}" y2="{by}""#));
                }
                let points = format!("{x2},{y2} {},{} {},{}", bx + nx, by + ny, bx - nx, by - ny);
                let _ = write!(
                    out,
                    r#"<polygon points="{points}" fill="none" stroke="{halo}" stroke-opacity="{halo_opacity}" stroke-width="{}" stroke-linejoin="round"/>"#,
                    sw * 0.8
                );
                let _ = write!(out, r#"<polygon points="{points}" fill="{color}"/>"#);
            }
            Geometry::Rect { from, to } => {
                let ((x1, y1), (x2, y2)) = (px(from), px(to));
                let (x, y, rw, rh) = (x1.min(x2), y1.min(y2), (x2 - x1).abs(), (y2 - y1).abs());
                stroked(&mut out, &format!(r#"rect x="{x}" y="{y}" width="{rw}" height="{rh}""#));
            }
            Geometry::Ellipse { from, to } => {
                let ((x1, y1), (x2, y2)) = (px(from), px(to));
                let (cx, cy, rx, ry) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0, (x2 - x1).abs() / 2.0, (y2 - y1).abs() / 2.0);
                stroked(&mut out, &format!(r#"ellipse cx="{cx}" cy="{cy}" rx="{rx}" ry="{ry}""#));
            }
            Geometry::Pen { points } => {
                let list: Vec<String> = points.iter().map(&px).map(|(x, y)| format!("{x},{y}")).collect();
                stroked(&mut out, &format!(r#"polyline points="{}""#, list.join(" ")));
            }
            Geometry::Text { at, text } => {
                let size = font_size(shape.width) * side;
                let (x, y) = px(at);
                for (i, line) in text.lines().enumerate() {
                    let baseline = y + size * (0.93 + 1.2 * i as f32);
                    let line = escape(line);
                    let font = format!(r#"x="{x}" y="{baseline}" font-family="{FONT_FAMILY}" font-weight="bold" font-size="{size}""#);
                    let _ = write!(
                        out,
                        r#"<text {font} fill="{halo}" fill-opacity="{halo_opacity}" stroke="{halo}" stroke-opacity="{halo_opacity}" stroke-width="{}" stroke-linejoin="round">{line}</text>"#,
                        0.16 * size
                    );
                    let _ = write!(out, r#"<text {font} fill="{color}">{line}</text>"#);
                }
            }
            Geometry::Pin { at, .. } => {
                pins += 1;
                let r = pin_radius(shape.width) * side;
                let (cx, cy) = px(at);
                let (border, digits) = match shape.color {
                    MarkupColor::White => ("#212121", "#212121"),
                    MarkupColor::Yellow => ("#FFFFFF", "#212121"),
                    _ => ("#FFFFFF", "#FFFFFF"),
                };
                let _ = write!(out, r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{color}" stroke="{border}" stroke-width="{}"/>"#, 0.18 * r);
                let _ = write!(
                    out,
                    r#"<text x="{cx}" y="{}" font-family="{FONT_FAMILY}" font-weight="bold" font-size="{}" text-anchor="middle" fill="{digits}">{pins}</text>"#,
                    cy + 0.4 * r,
                    1.1 * r
                );
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// The display image (a JPEG) with the shapes drawn on, as a JPEG of the same size.
pub fn flatten(display: &[u8], shapes: &[Shape]) -> Result<Vec<u8>, RenditionError> {
    let rgb = image::load_from_memory_with_format(display, image::ImageFormat::Jpeg)
        .map_err(|e| RenditionError::Decode(e.to_string()))?
        .to_rgb8();
    let (w, h) = rgb.dimensions();
    let mut rgba = Vec::with_capacity(rgb.as_raw().len() / 3 * 4);
    for p in rgb.pixels() {
        rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
    }
    drop(rgb);
    let size = resvg::tiny_skia::IntSize::from_wh(w, h).ok_or_else(|| RenditionError::Decode("an empty image".to_owned()))?;
    // Opaque pixels are their own premultiplied form.
    let mut canvas = resvg::tiny_skia::Pixmap::from_vec(rgba, size).ok_or_else(|| RenditionError::Decode("an empty image".to_owned()))?;
    let tree = resvg::usvg::Tree::from_str(&svg(shapes, w as f32, h as f32), &OPTIONS)
        .map_err(|e| RenditionError::Encode(format!("markup did not draw: {e}")))?;
    resvg::render(&tree, resvg::tiny_skia::Transform::identity(), &mut canvas.as_mut());
    let mut out = image::RgbImage::new(w, h);
    for (dst, src) in out.pixels_mut().zip(canvas.pixels()) {
        let c = src.demultiply();
        *dst = image::Rgb([c.red(), c.green(), c.blue()]);
    }
    encode_jpeg(&out, QUALITY)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(color: MarkupColor, geometry: Geometry) -> Shape {
        Shape { id: "s".into(), color, width: StrokeWidth::Thick, geometry, author_id: String::new() }
    }

    fn grey(w: u32, h: u32) -> Vec<u8> {
        encode_jpeg(&image::RgbImage::from_pixel(w, h, image::Rgb([128, 128, 128])), 95).unwrap()
    }

    fn pixel(jpeg: &[u8], x: u32, y: u32) -> [u8; 3] {
        image::load_from_memory(jpeg).unwrap().to_rgb8().get_pixel(x, y).0
    }

    fn near(a: [u8; 3], b: [u8; 3], tolerance: i32) -> bool {
        a.iter().zip(b).all(|(x, y)| (i32::from(*x) - i32::from(y)).abs() <= tolerance)
    }

    #[test]
    fn shapes_land_where_their_fractions_say_and_nowhere_else() {
        let rect = shape(MarkupColor::Red, Geometry::Rect { from: Point { x: 0.25, y: 0.25 }, to: Point { x: 0.75, y: 0.75 } });
        let out = flatten(&grey(800, 400), &[rect]).unwrap();
        let img = image::load_from_memory(&out).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), (800, 400));
        // The rectangle's left edge (x = 200) in red, its middle and the corners as they were.
        assert!(near(pixel(&out, 200, 200), [0xE5, 0x39, 0x35], 40), "{:?}", pixel(&out, 200, 200));
        for (x, y) in [(400, 200), (10, 10), (790, 390)] {
            assert!(near(pixel(&out, x, y), [128, 128, 128], 6), "({x}, {y}): {:?}", pixel(&out, x, y));
        }
        // The halo darkens just outside the stroke (stroke 0.014 × 400 = 5.6 px wide).
        let outside = pixel(&out, 200 - 4, 200);
        assert!(outside[0] < 110, "{outside:?}");
    }

    #[test]
    fn labels_and_pins_draw_text_with_the_bundled_font() {
        let label = shape(MarkupColor::Yellow, Geometry::Text { at: Point { x: 0.1, y: 0.1 }, text: "HHHH".into() });
        let out = flatten(&grey(1000, 1000), &[label]).unwrap();
        let img = image::load_from_memory(&out).unwrap().to_rgb8();
        // Size 0.065 × 1000 = 65 px: the box right of and below `at` has yellow in it.
        let yellow = (100..400).flat_map(|x| (100..165).map(move |y| (x, y))).filter(|&(x, y)| near(img.get_pixel(x, y).0, [0xFD, 0xD8, 0x35], 30)).count();
        assert!(yellow > 500, "{yellow} yellow pixels");
        // A pin is a filled disc with its number.
        let pin = shape(MarkupColor::Blue, Geometry::Pin { at: Point { x: 0.5, y: 0.5 }, note: "Why?".into() });
        let out = flatten(&grey(1000, 1000), &[pin]).unwrap();
        assert!(near(pixel(&out, 500 - 20, 500), [0x1E, 0x88, 0xE5], 30));
        assert!(near(pixel(&out, 500 + 40, 500), [128, 128, 128], 6));
    }

    #[test]
    fn the_svg_escapes_text_and_numbers_pins_in_order() {
        let at = Point { x: 0.5, y: 0.5 };
        let shapes = [
            shape(MarkupColor::Red, Geometry::Text { at, text: "<b>&\"".into() }),
            shape(MarkupColor::Red, Geometry::Pin { at, note: String::new() }),
            shape(MarkupColor::Red, Geometry::Pin { at, note: String::new() }),
        ];
        let svg = svg(&shapes, 100.0, 100.0);
        assert!(svg.contains("&lt;b&gt;&amp;&quot;"), "{svg}");
        assert!(svg.contains(">1</text>") && svg.contains(">2</text>"));
        assert!(resvg::usvg::Tree::from_str(&svg, &OPTIONS).is_ok());
    }
}
