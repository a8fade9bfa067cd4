// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueueFile } from '../../lib/uploadQueue';
import { dialogLibrary } from '../ui/radixLibraries';
import { SelectedPhotosPanel, type SelectedPhoto, type SelectedPhotosPanelProps } from './SelectedPhotosPanel';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Radix's dialog is a chunk of its own, which a page fetches when idle (ui/radixLibraries):
// here it is there first, so a dialog opens in the same act() as the tap.
beforeAll(async () => {
  await dialogLibrary.load();
});

let phone = false;
let root: Root | null = null;
let host: HTMLDivElement | null = null;

beforeEach(() => {
  window.matchMedia = vi.fn((query: string) => ({
    matches: query.includes('max-width: 640px') ? phone : false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
});

afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
  host = null;
  phone = false;
  document.body.innerHTML = '';
});

const item = (n: number, status: Partial<QueueFile> = {}): SelectedPhoto => {
  const name = `IMG_${n}.jpg`;
  return {
    key: `k${n}`,
    file: new File([new Uint8Array(1000)], name, { type: 'image/jpeg' }),
    previewUrl: `blob:preview-${n}`,
    caption: `IMG_${n}`,
    status: { key: `k${n}`, name, size: 1000, sent: 0, state: 'uploading', ...status },
  };
};

function render(over: Partial<SelectedPhotosPanelProps> = {}) {
  const props: SelectedPhotosPanelProps = {
    items: [item(1, { state: 'held', sent: 1000 }), item(2, { sent: 250 }), item(3, { state: 'queued' })],
    note: 'Framing inspected',
    stage: 'editing',
    waitingToPublish: false,
    speed: null,
    actions: { onPause: vi.fn(), onResume: vi.fn() },
    onChange: vi.fn(),
    onApplyToAll: vi.fn(),
    onNote: vi.fn(),
    onRemove: vi.fn(),
    onDiscard: vi.fn(),
    onPublish: vi.fn(),
    onPauseAll: vi.fn(),
    onResumeAll: vi.fn(),
    ...over,
  };
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(<SelectedPhotosPanel {...props} />));
  return props;
}

const button = (name: string) => [...document.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name);
const label = (text: string) => [...document.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(text));

describe('the selected photos, while their bytes go', () => {
  it('on a wide screen, shows each photo’s caption, category and progress, and which are sent', () => {
    const props = render();
    expect(document.querySelectorAll('[data-testid="selected-photo"]')).toHaveLength(3);
    expect(label('Caption for IMG_1.jpg')).toBeDefined();
    expect((document.getElementById('caption-k1') as HTMLInputElement).disabled).toBe(false);
    const states = [...document.querySelectorAll('[data-testid="selected-photo"]')].map((li) => li.querySelector('p[title]:not([title$=".jpg"])')?.textContent);
    expect(states).toEqual(['Sent', '25%', 'Waiting']);
    expect(document.querySelector('[data-testid="upload-totals"]')?.textContent).toContain('Sending 3 photos while you write');
    expect(document.querySelector('[data-testid="publish-bar"]')).toBeNull();
    act(() => button('Publish')!.click());
    expect(props.onPublish).toHaveBeenCalled();
    // A selection's photo is removed, not cancelled, while it is written.
    expect(button('Cancel IMG_2.jpg')).toBeUndefined();
    expect(button('Remove IMG_2.jpg')).toBeDefined();
  });

  it('says when every photo is sent and Publish only makes them visible', () => {
    render({ items: [item(1, { state: 'held', sent: 1000 }), item(2, { state: 'held', sent: 1000 })] });
    expect(document.querySelector('[data-testid="upload-totals"]')?.textContent).toContain('All photos sent. Publish makes them visible.');
  });

  it('locks the fields once published and says when Publish waits for the connection', () => {
    render({ stage: 'publishing', waitingToPublish: true });
    expect(button('Waiting for connection')?.disabled).toBe(true);
    expect((document.getElementById('caption-k1') as HTMLInputElement).disabled).toBe(true);
    expect(button('Remove IMG_1.jpg')).toBeUndefined();
    expect(button('Discard')?.disabled).toBe(true);
    act(() => root!.unmount());
    render({ stage: 'published', actions: { onPause: vi.fn(), onResume: vi.fn(), onCancel: vi.fn() } });
    expect(button('Publishing...')?.getAttribute('aria-busy')).toBe('true');
    expect(button('Cancel IMG_2.jpg')).toBeDefined();
  });
});

describe('the selected photos on a phone', () => {
  it('are a grid of thumbnails under the note, with Publish and the count in the bar at the foot', () => {
    phone = true;
    const props = render();
    const bar = document.querySelector('[data-testid="publish-bar"]')!;
    expect(bar.className).toContain('fixed');
    expect(bar.textContent).toContain('3 photos');
    expect(bar.querySelector('button')?.textContent).toBe('Publish');
    // One Publish only: the bar's.
    expect([...document.querySelectorAll('button')].filter((b) => b.textContent === 'Publish')).toHaveLength(1);
    const note = document.getElementById('batch-note')!;
    const grid = document.querySelector('[data-testid="selected-grid"]')!;
    expect(note.compareDocumentPosition(grid) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(grid.className).toContain('grid-cols-3');
    // No caption inputs in the grid: a tap on a photo opens them.
    expect(document.getElementById('caption-k2')).toBeNull();
    act(() => button('Edit IMG_2.jpg')!.click());
    const dialog = document.querySelector('[role="dialog"]')!;
    expect(dialog.textContent).toContain('IMG_2.jpg');
    const caption = document.getElementById('caption-k2') as HTMLInputElement;
    expect(caption.value).toBe('IMG_2');
    expect(label('Caption for IMG_2.jpg')).toBeDefined();
    act(() => [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Remove photo')!.click());
    expect(props.onRemove).toHaveBeenCalledWith('k2');
    // Each thumbnail says its state to a screen reader and shows its progress.
    expect(document.querySelector('[role="progressbar"][aria-label="Uploading IMG_2.jpg"]')?.getAttribute('aria-valuenow')).toBe('25');
    expect(button('Edit IMG_1.jpg')?.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(button('Edit IMG_1.jpg')!.getAttribute('aria-describedby')!)?.textContent).toBe('Sent');
  });
});
