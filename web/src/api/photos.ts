/**
 * Photo paths served over HTTP. Photos arrive as resumable uploads (`lib/tusUpload`
 * and the uploads store, over tus at `/api/uploads`); their bytes come from `/media`.
 */

/**
 * All of a project's photos as one zip; with `favourites`, only this user's favourites;
 * with `markup`, marked-up photos come flattened (JPEG with the markup drawn on), the
 * rest as their originals.
 */
export const photosZipPath = (projectId: string, favourites = false, markup = false) => {
  const query = [favourites && 'favourites=true', markup && 'markup=true'].filter(Boolean).join('&');
  return `/media/projects/${encodeURIComponent(projectId)}/photos.zip${query ? `?${query}` : ''}`;
};

/** One photo at display size with its markup flattened on; `download` makes it an attachment. */
export const markedPhotoPath = (imageId: string, download = false) =>
  `/media/images/${encodeURIComponent(imageId)}/marked${download ? '?download=1' : ''}`;
