import { useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { Camera, ImagePlus, UploadCloud } from 'lucide-react';
import { cn } from '../../lib/cn';
import { FILE_INPUT_ACCEPT, MAX_FILES_PER_UPLOAD, SUPPORTED_FORMATS_TEXT } from '../../lib/photoUpload';
import { useMediaQuery } from '../../lib/useMediaQuery';
import { Button } from '../ui/Button';

/**
 * SPEC §2 Photo upload: drag-and-drop or Browse Files, images only. On a phone or
 * tablet (a coarse pointer) "Take Photo" opens the camera directly (crews on
 * site), beside Browse Files, which opens the library. Once photos are chosen it is
 * `compact`: on a phone little more than its buttons, to add more.
 */
export function UploadDropZone({ onFiles, disabled, compact }: { onFiles: (files: File[]) => void; disabled?: boolean; compact?: boolean }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const cameraId = useId();
  const touch = useMediaQuery('(pointer: coarse)');
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed; count them to know when the pointer really left.
  const depth = useRef(0);

  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');
  const onDragEnter = (e: DragEvent) => {
    if (disabled || !hasFiles(e)) return;
    e.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragOver = (e: DragEvent) => {
    if (disabled || !hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (disabled) return;
    const files = Array.from(e.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  };
  const onChosen = (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    // Cleared so choosing the same file again still fires a change.
    e.target.value = '';
    if (files.length > 0) onFiles(files);
  };

  return (
    <div
      data-testid="upload-drop-zone"
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      className={cn(
        'flex flex-col items-center justify-center rounded-xl border-2 border-dashed text-center transition-colors',
        compact ? 'px-4 py-4 sm:py-6' : 'px-6 py-10',
        dragging
          ? 'border-brand-500 bg-brand-50 dark:bg-brand-500/10'
          : 'border-slate-300 bg-slate-50/60 dark:border-slate-700 dark:bg-slate-800/30',
        // Not faded while a batch publishes: the text keeps its contrast (WCAG AA), and
        // the disabled buttons say it takes nothing now.
        disabled && 'cursor-not-allowed',
      )}
    >
      <div
        className={cn(
          'flex size-12 items-center justify-center rounded-full transition-colors',
          compact && !dragging && 'hidden',
          dragging ? 'bg-brand-500 text-slate-950' : 'bg-white text-brand-600 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700',
        )}
      >
        {dragging ? <ImagePlus className="size-6" aria-hidden="true" /> : <UploadCloud className="size-6" aria-hidden="true" />}
      </div>
      <h3 className={cn('text-base font-semibold text-slate-900 dark:text-white', (!compact || dragging) && 'mt-4')}>Upload Project Photos</h3>
      <p className={cn('mt-1 text-sm text-slate-500 dark:text-slate-400', compact && !dragging && 'max-sm:hidden')}>
        {dragging ? 'Drop the photos to add them' : 'Drag and drop photos here, or'}
      </p>
      <div className="mt-3 flex flex-wrap justify-center gap-2">
        {touch && (
          <Button variant="outline" size="sm" onClick={() => cameraRef.current?.click()} disabled={disabled}>
            <Camera className="size-4" aria-hidden="true" />
            Take Photo
          </Button>
        )}
        <Button variant="outline" size="sm" onClick={() => inputRef.current?.click()} disabled={disabled}>
          Browse Files
        </Button>
      </div>
      <label htmlFor={inputId} className="sr-only">
        Choose photos to upload
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        multiple
        accept={FILE_INPUT_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        disabled={disabled}
        onChange={onChosen}
      />
      {touch && (
        <>
          <label htmlFor={cameraId} className="sr-only">
            Take a photo to upload
          </label>
          <input
            ref={cameraRef}
            id={cameraId}
            type="file"
            accept="image/*"
            capture="environment"
            className="sr-only"
            tabIndex={-1}
            disabled={disabled}
            data-testid="camera-input"
            onChange={onChosen}
          />
        </>
      )}
      {/* On a phone with photos chosen, the selection and its note come first: the rules were read already. */}
      <p className={cn('mt-4 text-xs text-slate-500 dark:text-slate-400', compact && 'max-sm:hidden')}>Supported formats: {SUPPORTED_FORMATS_TEXT}</p>
      <p className={cn('mt-0.5 text-xs text-slate-500 dark:text-slate-400', compact && 'max-sm:hidden')}>
        Up to 30 MB per photo, {MAX_FILES_PER_UPLOAD} photos at a time
      </p>
    </div>
  );
}
