import { lazyPart } from '../lazyPart';

/**
 * The uploader, with the upload queue and tus-js-client: only builders and admins use
 * it, so the project page draws without it; it comes when opened, or once the page is
 * idle for those who may upload (docs/LIMITS.md, "First paint").
 */
export const PhotoUploader = lazyPart(() => import('./PhotoUploader').then((m) => m.PhotoUploader), { what: 'The uploader' });
