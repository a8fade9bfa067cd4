import { expect, type Locator, type Page } from '@playwright/test';

export interface FilePayload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/**
 * A real JPEG or PNG drawn on a canvas in the page: a small site scene (sky, ground,
 * a timber frame) with a label, so uploads are genuine images and screenshots look
 * like a gallery rather than test noise.
 */
export async function makePhoto(page: Page, name: string, options: { mimeType?: 'image/jpeg' | 'image/png'; hue?: number; label?: string } = {}): Promise<FilePayload> {
  const mimeType = options.mimeType ?? 'image/jpeg';
  const base64 = await page.evaluate(
    ({ mimeType, hue, label }) => {
      const w = 960;
      const h = 720;
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const g = canvas.getContext('2d');
      if (!g) throw new Error('no 2d context');
      const sky = g.createLinearGradient(0, 0, 0, h * 0.65);
      sky.addColorStop(0, `hsl(${hue}, 70%, 62%)`);
      sky.addColorStop(1, `hsl(${hue + 20}, 80%, 88%)`);
      g.fillStyle = sky;
      g.fillRect(0, 0, w, h);
      g.fillStyle = 'hsl(30, 35%, 42%)';
      g.fillRect(0, h * 0.65, w, h * 0.35);
      g.fillStyle = 'hsl(30, 25%, 60%)';
      g.fillRect(w * 0.2, h * 0.62, w * 0.6, h * 0.05);
      // Studs, top plate and a gable of rafters.
      g.strokeStyle = 'hsl(35, 60%, 72%)';
      g.lineWidth = 10;
      for (let x = w * 0.22; x <= w * 0.78; x += w * 0.07) {
        g.beginPath();
        g.moveTo(x, h * 0.62);
        g.lineTo(x, h * 0.36);
        g.stroke();
      }
      g.beginPath();
      g.moveTo(w * 0.2, h * 0.36);
      g.lineTo(w * 0.8, h * 0.36);
      g.lineTo(w * 0.5, h * 0.16);
      g.closePath();
      g.stroke();
      g.fillStyle = 'rgba(15, 23, 42, 0.72)';
      g.fillRect(0, h - 86, w, 86);
      g.fillStyle = '#fff';
      g.font = '600 38px sans-serif';
      g.fillText(label, 32, h - 32);
      return canvas.toDataURL(mimeType, 0.86).split(',')[1] ?? '';
    },
    { mimeType, hue: options.hue ?? 205, label: options.label ?? name },
  );
  return { name, mimeType, buffer: Buffer.from(base64, 'base64') };
}

export function textFile(name: string): FilePayload {
  return { name, mimeType: 'text/plain', buffer: Buffer.from('Site visit notes: framing passed inspection.\n') };
}

/** The caption the server gives an upload: its file name without the extension (SPEC §3). */
export const captionOf = (fileName: string) => fileName.replace(/\.[^.]+$/, '');

/** The project's photo section: "Project Media" (admin) or "Project Photos". */
export function photoSection(page: Page, name: 'Project Media' | 'Project Photos'): Locator {
  return page.getByRole('region', { name });
}

/** Sets the filters to every year and month, so every photo shows whatever today's date. */
export async function showAllDates(section: Locator): Promise<void> {
  await section.getByLabel('Year').selectOption('all');
  await section.getByLabel('Month').selectOption('all');
  await expect(section.getByLabel('Month')).toHaveValue('all');
}

/** The file input behind "Browse Files" (the drop zone's picker). */
export function fileInput(scope: Locator): Locator {
  return scope.locator('input[type="file"]');
}

/** The gallery tile of the photo with this caption (its main button names it). */
export function tile(scope: Locator, caption: string): Locator {
  const named = scope.page().getByRole('button', { name: new RegExp(`^(View|Favorite) ${escape(caption)}( full size)?$`) });
  return scope.getByTestId('photo-tile').filter({ has: named });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Uploads one photo as the page's user the way any tus client does (`/api/uploads`:
 * create, then one PATCH with every byte), and answers the stored photo's id.
 */
export async function uploadOverTus(page: Page, projectId: string, file: FilePayload): Promise<string> {
  const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');
  const created = await page.request.post('/api/uploads', {
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(file.buffer.length),
      'Upload-Metadata': `projectId ${b64(projectId)},filename ${b64(file.name)}`,
    },
  });
  expect(created.status()).toBe(201);
  const location = created.headers()['location'];
  const patched = await page.request.patch(location, {
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    data: file.buffer,
  });
  expect(patched.status()).toBe(204);
  const photoId = patched.headers()['sitecast-photo'];
  expect(photoId, `stored, not refused: ${patched.headers()['sitecast-refused'] ?? ''}`).toBeTruthy();
  return photoId;
}

/** The gallery tile of the photo with this id: pinned, wherever other photos arrive. */
export function tileById(scope: Locator, photoId: string): Locator {
  return scope.locator(`[data-testid="photo-tile"][data-photo-id="${photoId}"]`);
}
