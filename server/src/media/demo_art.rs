//! Pictures for the demo projects: a house drawn at a stage of its construction, so the
//! demo gallery tells a building story without shipping binary files.

use image::{Rgb, RgbImage};

/// Stages of a build, in order.
#[derive(Clone, Copy, Debug)]
pub enum Stage {
    Site,
    Foundation,
    Framing,
    Roofing,
    Finished,
}

struct Canvas {
    img: RgbImage,
}

impl Canvas {
    fn rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: [u8; 3]) {
        let (w, h) = (self.img.width() as i32, self.img.height() as i32);
        for y in y0.max(0)..y1.min(h) {
            for x in x0.max(0)..x1.min(w) {
                self.img.put_pixel(x as u32, y as u32, Rgb(c));
            }
        }
    }

    /// A filled triangle with a flat base from (x0, base) to (x1, base), apex at (ax, ay).
    fn gable(&mut self, x0: i32, x1: i32, base: i32, ax: i32, ay: i32, c: [u8; 3]) {
        for y in ay.max(0)..base {
            let t = (y - ay) as f32 / (base - ay).max(1) as f32;
            let left = ax as f32 + (x0 - ax) as f32 * t;
            let right = ax as f32 + (x1 - ax) as f32 * t;
            self.rect(left as i32, y, right as i32 + 1, y + 1, c);
        }
    }

    fn line(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, thickness: i32, c: [u8; 3]) {
        let steps = (x1 - x0).abs().max((y1 - y0).abs()).max(1);
        for i in 0..=steps {
            let x = x0 + (x1 - x0) * i / steps;
            let y = y0 + (y1 - y0) * i / steps;
            self.rect(x - thickness / 2, y - thickness / 2, x + thickness / 2 + 1, y + thickness / 2 + 1, c);
        }
    }

    fn circle(&mut self, cx: i32, cy: i32, r: i32, c: [u8; 3]) {
        for y in -r..=r {
            let half = ((r * r - y * y) as f32).sqrt() as i32;
            self.rect(cx - half, cy + y, cx + half + 1, cy + y + 1, c);
        }
    }
}

/// A deterministic little pseudo-random sequence (xorshift), so demo photos are the
/// same on every machine.
struct Noise(u32);

impl Noise {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
}

pub fn render(stage: Stage, variant: u32, width: u32, height: u32) -> RgbImage {
    let mut c = Canvas { img: RgbImage::new(width, height) };
    let (w, h) = (width as i32, height as i32);
    let horizon = h * 62 / 100;
    // Sky: a vertical gradient whose warmth varies per photo (morning, noon, evening).
    let warm = (variant % 3) as f32 * 0.18;
    for y in 0..horizon {
        let t = y as f32 / horizon as f32;
        let r = (90.0 + 120.0 * t + 60.0 * warm) as u8;
        let g = (150.0 + 80.0 * t) as u8;
        let b = (225.0 + 25.0 * t - 60.0 * warm) as u8;
        c.rect(0, y, w, y + 1, [r, g, b]);
    }
    c.circle(w * (15 + (variant as i32 * 23) % 70) / 100, h / 7, h / 14, [255, 236, 170]);
    let finished = matches!(stage, Stage::Finished);
    let ground = if finished { [96, 150, 72] } else { [146, 112, 78] };
    c.rect(0, horizon, w, h, ground);

    let (hx0, hx1) = (w * 28 / 100, w * 72 / 100);
    let wall_top = horizon - h * 24 / 100;
    let base = horizon + h * 4 / 100;
    let roof_apex = wall_top - h * 17 / 100;
    let mid = (hx0 + hx1) / 2;

    match stage {
        Stage::Site => {
            for i in 0..6 {
                let x = hx0 + (hx1 - hx0) * i / 5;
                c.rect(x - 3, base - 30, x + 3, base + 4, [230, 200, 120]);
            }
            c.rect(hx0, base - 22, hx1, base - 20, [250, 250, 250]);
            c.gable(w * 8 / 100, w * 24 / 100, h * 88 / 100, w * 16 / 100, h * 76 / 100, [120, 90, 60]);
        }
        _ => c.rect(hx0 - 20, base - 14, hx1 + 20, base + 6, [178, 178, 172]),
    }
    if matches!(stage, Stage::Framing) {
        let timber = [214, 176, 120];
        let mut x = hx0;
        while x <= hx1 {
            c.rect(x - 4, wall_top, x + 4, base - 14, timber);
            x += (hx1 - hx0) / 12;
        }
        c.rect(hx0 - 4, wall_top - 8, hx1 + 4, wall_top, timber);
        // A roof truss: two rafters, the bottom chord, a king post and two webs.
        let (left, right) = (hx0 - 30, hx1 + 30);
        c.line(left, wall_top - 8, mid, roof_apex, 7, timber);
        c.line(mid, roof_apex, right, wall_top - 8, 7, timber);
        c.line(mid, roof_apex, mid, wall_top - 8, 6, timber);
        c.line((left + mid) / 2, wall_top - 8, mid, (roof_apex + wall_top) / 2, 5, timber);
        c.line((right + mid) / 2, wall_top - 8, mid, (roof_apex + wall_top) / 2, 5, timber);
    }
    if matches!(stage, Stage::Roofing | Stage::Finished) {
        let wall = if finished { [236, 228, 212] } else { [196, 164, 112] };
        c.rect(hx0, wall_top, hx1, base - 14, wall);
        c.gable(hx0 - 36, hx1 + 36, wall_top + 4, mid, roof_apex, if finished { [120, 54, 44] } else { [70, 72, 78] });
        let window = if finished { [150, 200, 235] } else { [60, 50, 40] };
        for wx in [hx0 + (hx1 - hx0) / 8, hx1 - (hx1 - hx0) / 8 - (hx1 - hx0) / 6] {
            c.rect(wx, wall_top + 40, wx + (hx1 - hx0) / 6, wall_top + 40 + (base - wall_top) / 3, window);
        }
        let door = if finished { [110, 70, 40] } else { [60, 50, 40] };
        c.rect(mid - 28, base - 14 - (base - wall_top) / 2, mid + 28, base - 14, door);
    }
    if finished {
        c.circle(w * 85 / 100, horizon - h * 8 / 100, h / 9, [58, 120, 52]);
        c.rect(w * 85 / 100 - 8, horizon - h * 2 / 100, w * 85 / 100 + 8, horizon + h * 6 / 100, [100, 70, 40]);
    }

    // Grain, as a camera sensor would add; it also gives the JPEGs a realistic size.
    let mut noise = Noise(0x9e37_79b9 ^ variant.wrapping_mul(2_654_435_761));
    for p in c.img.pixels_mut() {
        let n = (noise.next() % 17) as i16 - 8;
        for ch in p.0.iter_mut() {
            *ch = (*ch as i16 + n).clamp(0, 255) as u8;
        }
    }
    c.img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_every_stage_deterministically() {
        for stage in [Stage::Site, Stage::Foundation, Stage::Framing, Stage::Roofing, Stage::Finished] {
            let a = render(stage, 1, 320, 240);
            assert_eq!(a.dimensions(), (320, 240));
            assert_eq!(a, render(stage, 1, 320, 240));
        }
        assert_ne!(render(Stage::Site, 1, 64, 48), render(Stage::Finished, 1, 64, 48));
    }
}
