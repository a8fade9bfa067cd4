import { describe, expect, it } from 'vitest';
import { locationLabel, mapLink, mapPlatform } from './mapLinks';

const point = { lat: 40.712341234, lon: -74.005671 };

describe('photo locations', () => {
  it('shows five decimals', () => {
    expect(locationLabel(point)).toBe('40.71234, -74.00567');
    expect(locationLabel({ lat: 0, lon: 1.5 })).toBe('0.00000, 1.50000');
  });

  it('picks the map app by platform', () => {
    expect(mapPlatform('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126 Mobile Safari/537.36')).toBe('android');
    expect(mapPlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148')).toBe('apple');
    expect(mapPlatform('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15')).toBe('apple');
    expect(mapPlatform('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126 Safari/537.36')).toBe('other');
    expect(mapPlatform('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Gecko/20100101 Firefox/127.0')).toBe('other');
  });

  it('links to geo: on Android, Apple Maps on Apple devices, OpenStreetMap elsewhere', () => {
    expect(mapLink(point, 'android')).toBe('geo:40.71234,-74.00567?q=40.71234,-74.00567(Photo%20location)');
    expect(mapLink(point, 'apple', 'Maple St')).toBe('https://maps.apple.com/?ll=40.71234,-74.00567&q=Maple%20St');
    expect(mapLink(point, 'other')).toBe('https://www.openstreetmap.org/?mlat=40.71234&mlon=-74.00567#map=18/40.71234/-74.00567');
  });
});
