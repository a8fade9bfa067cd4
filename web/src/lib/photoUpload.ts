/** The server's limits on one upload request (HTTP `POST /api/projects/{id}/photos`). */
export const MAX_FILES_PER_UPLOAD = 50;
export const MAX_FILE_BYTES = 30 * 1024 * 1024;

/**
 * SPEC §9 image formats, and HEIC/HEIF (what iPhones save by default;
 * docs/FEATURES.md, "Photos"); the server recognises exactly these by their content.
 */
export const SUPPORTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic', 'image/heif'] as const;

/**
 * What the file inputs offer: the types, and HEIC/HEIF by extension too, since some
 * pickers (Windows, older Android) know no MIME type for them.
 */
export const FILE_INPUT_ACCEPT = [...SUPPORTED_IMAGE_TYPES, '.heic', '.heif'].join(',');

/** The formats as the drop zone names them. */
export const SUPPORTED_FORMATS_TEXT = 'JPEG, PNG, GIF, WebP, HEIC';

export const NOT_IMAGES_MESSAGE = 'Some files were skipped because they are not images';
export const UPLOAD_FAILED_MESSAGE = 'Failed to upload photos. Please try again.';

/** What a file picker or a drop hands over; `File` satisfies it. */
export interface CandidateFile {
  name: string;
  type: string;
  size: number;
}

export interface Triage<F extends CandidateFile> {
  accepted: F[];
  /** Not images at all (SPEC §5 Upload: skipped with NOT_IMAGES_MESSAGE). */
  notImages: F[];
  /** Images in a format the server cannot read (BMP, SVG, TIFF, …). */
  unsupported: F[];
  tooLarge: F[];
  /** Past the per-publish count limit, counting what is already selected. */
  overLimit: F[];
}

/**
 * The image type a file is taken for: its own, or HEIC/HEIF by its name where the
 * browser gave none (or only "application/octet-stream"), as some do for those files.
 */
export function imageTypeOf(file: CandidateFile): string {
  const type = file.type.toLowerCase();
  if (type !== '' && type !== 'application/octet-stream') return type;
  const extension = /\.(hei[cf])$/i.exec(file.name)?.[1]?.toLowerCase();
  return extension ? `image/${extension}` : type;
}

/**
 * Sorts files offered to the drop zone: only supported images within the size limit
 * are kept, up to the per-publish count (one Publish sends one request).
 */
export function triageFiles<F extends CandidateFile>(files: readonly F[], alreadySelected: number): Triage<F> {
  const result: Triage<F> = { accepted: [], notImages: [], unsupported: [], tooLarge: [], overLimit: [] };
  for (const file of files) {
    const type = imageTypeOf(file);
    if (!type.startsWith('image/')) result.notImages.push(file);
    else if (!(SUPPORTED_IMAGE_TYPES as readonly string[]).includes(type)) result.unsupported.push(file);
    else if (file.size > MAX_FILE_BYTES) result.tooLarge.push(file);
    else if (alreadySelected + result.accepted.length >= MAX_FILES_PER_UPLOAD) result.overLimit.push(file);
    else result.accepted.push(file);
  }
  return result;
}

/** SPEC §8: "{n} photos uploaded successfully", in the singular for one. */
export function uploadedMessage(count: number): string {
  return count === 1 ? '1 photo uploaded successfully' : `${count} photos uploaded successfully`;
}

/** SPEC §8 Favourites success toasts. */
export function favouriteMessage(caption: string | null, added: boolean): string {
  const name = caption?.trim();
  if (name) return added ? `"${name}" added to favorites` : `"${name}" removed from favorites`;
  return added ? 'Image added to favorites' : 'Image removed from favorites';
}

/** "2.4 MB": a file size for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
