/**
 * "Taken near …" in the lightbox: a photo's kept location, and a link that
 * opens it in the map app the device has — Android's `geo:` handler, Apple Maps on
 * iPhones, iPads and Macs, OpenStreetMap in any other browser.
 */

import type { GeoPoint } from '../protocol/types';

export type MapPlatform = 'android' | 'apple' | 'other';

/** Five decimals: about a metre, as exact as a phone's GPS gets. */
export function formatCoordinate(value: number): string {
  return value.toFixed(5);
}

/** "40.71234, -74.00567" */
export function locationLabel(point: GeoPoint): string {
  return `${formatCoordinate(point.lat)}, ${formatCoordinate(point.lon)}`;
}

/** The platform whose map app a link should open, from the browser's user agent. */
export function mapPlatform(userAgent: string): MapPlatform {
  if (/Android/i.test(userAgent)) return 'android';
  // iPadOS reports itself as a Mac, and a Mac has Apple Maps too.
  if (/iPhone|iPad|iPod|Macintosh|Mac OS X/i.test(userAgent)) return 'apple';
  return 'other';
}

/** The link to the point in the platform's map app; `label` names the pin where the app shows one. */
export function mapLink(point: GeoPoint, platform: MapPlatform, label = 'Photo location'): string {
  const lat = formatCoordinate(point.lat);
  const lon = formatCoordinate(point.lon);
  switch (platform) {
    case 'android':
      return `geo:${lat},${lon}?q=${lat},${lon}(${encodeURIComponent(label)})`;
    case 'apple':
      return `https://maps.apple.com/?ll=${lat},${lon}&q=${encodeURIComponent(label)}`;
    default:
      return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=18/${lat}/${lon}`;
  }
}
