import { describe, expect, it } from 'vitest';
import { photo } from '../testing/fixtures';
import { lightboxDateLabel, photoDate, photoDayLabel, tileDateLabel, timeApartLabel } from './photoDates';

const uploadedAt = (y: number, m: number, d: number, h = 12) => photo({ createdAt: new Date(y, m, d, h).getTime() });
/** A capture time as the server keeps it: the camera's clock, as if UTC. */
const takenAt = (y: number, m: number, d: number, h = 9) => Date.UTC(y, m, d, h);

describe('photo date: capture when known, upload otherwise', () => {
  it('uses the upload date, in local time, when the photo has no capture time', () => {
    const p = uploadedAt(2026, 10, 5);
    expect(photoDate(p)).toEqual({ ms: p.createdAt, source: 'uploaded', year: 2026, month: 10, day: 5 });
  });

  it('prefers the capture date, read on the camera clock', () => {
    const p = { ...uploadedAt(2026, 10, 5), takenAt: takenAt(2026, 10, 3) };
    expect(photoDate(p)).toEqual({ ms: p.takenAt, source: 'taken', year: 2026, month: 10, day: 3 });
    // Just before midnight on the camera is still that day, whatever the viewer's zone.
    const late = { ...p, takenAt: Date.UTC(2026, 9, 31, 23, 59) };
    expect(photoDate(late)).toMatchObject({ year: 2026, month: 9, day: 31 });
  });
});

describe('tile date label', () => {
  const now = new Date(2026, 10, 21);
  it('omits the year for the current year', () => {
    expect(tileDateLabel(photoDate(uploadedAt(2026, 10, 19, 9)), now)).toBe('Nov 19');
    expect(tileDateLabel(photoDate(uploadedAt(2026, 0, 1, 0)), now)).toBe('Jan 1');
    expect(tileDateLabel(photoDate({ ...uploadedAt(2026, 10, 19), takenAt: takenAt(2026, 10, 2) }), now)).toBe('Nov 2');
  });
  it('shows the year for other years', () => {
    expect(tileDateLabel(photoDate(uploadedAt(2025, 11, 31, 23)), now)).toBe('Dec 31, 2025');
    expect(tileDateLabel(photoDate(uploadedAt(2027, 1, 3)), now)).toBe('Feb 3, 2027');
    expect(tileDateLabel(photoDate({ ...uploadedAt(2026, 0, 4), takenAt: takenAt(2025, 11, 30) }), now)).toBe('Dec 30, 2025');
  });
});

describe('lightbox date label', () => {
  it('says a photo without a capture time was uploaded, month spelt out', () => {
    expect(lightboxDateLabel(uploadedAt(2026, 10, 19))).toBe('Uploaded November 19, 2026');
  });
  it('gives both dates, the upload year only when it differs', () => {
    expect(lightboxDateLabel({ ...uploadedAt(2026, 10, 5), takenAt: takenAt(2026, 10, 3) })).toBe('Taken Nov 3, 2026 · uploaded Nov 5');
    expect(lightboxDateLabel({ ...uploadedAt(2027, 0, 2), takenAt: takenAt(2026, 11, 30) })).toBe('Taken Dec 30, 2026 · uploaded Jan 2, 2027');
  });
});

describe('compare view dates', () => {
  it('names the day a compared photo was taken, or uploaded when unknown', () => {
    expect(photoDayLabel(uploadedAt(2026, 10, 19))).toBe('Uploaded Nov 19, 2026');
    expect(photoDayLabel({ ...uploadedAt(2026, 10, 19), takenAt: takenAt(2026, 10, 3) })).toBe('Taken Nov 3, 2026');
  });

  it('says how far apart two photos are, in days, weeks, months or years', () => {
    const day = (d: number, m = 0, y = 2026) => uploadedAt(y, m, d);
    expect(timeApartLabel(day(5), day(5))).toBe('Same day');
    expect(timeApartLabel(day(5), day(6))).toBe('1 day apart');
    expect(timeApartLabel(day(20), day(7))).toBe('13 days apart');
    expect(timeApartLabel(day(1), day(15))).toBe('2 weeks apart');
    expect(timeApartLabel(day(1), day(1, 3))).toBe('3 months apart');
    expect(timeApartLabel(day(1, 0, 2025), day(1, 0, 2026))).toBe('1 year apart');
    // A capture date counts on the camera's clock.
    expect(timeApartLabel({ ...day(9), takenAt: takenAt(2026, 0, 2) }, day(9))).toBe('7 days apart');
  });
});
