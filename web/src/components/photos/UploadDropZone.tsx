import { useId, useRef, useState, type DragEvent } from 'react';
import { ImagePlus, UploadCloud } from 'lucide-react';
import { cn } from '../../lib/cn';
import { MAX_FILES_PER_UPLOAD, SUPPORTED_IMAGE_TYPES } from '../../lib/photoUpload';
import { Button } from '../ui/Button';

/** SPEC §2 Photo upload: drag-and-drop or Browse Files, images only. */
export function UploadDropZone({ onFiles, disabled, compact }: { onFiles: (files: File[]) => void; disabled?: boolean; compact?: boolean }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
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

  return (
    <div
      data-testid="upload-drop-zone"
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      className={cn(
        'flex flex-col items-center justify-center rounded-xl border-2 border-dashed text-center transition-colors',
        compact ? 'px-4 py-6' : 'px-6 py-10',
        dragging
          ? 'border-brand-500 bg-brand-50 dark:bg-brand-500/10'
          : 'border-slate-300 bg-slate-50/60 dark:border-slate-700 dark:bg-slate-800/30',
        disabled && 'opacity-60',
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
      <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
        {dragging ? 'Drop the photos to add them' : 'Drag and drop photos here, or'}
      </p>
      <Button variant="outline" size="sm" className="mt-3" onClick={() => inputRef.current?.click()} disabled={disabled}>
        Browse Files
      </Button>
      <label htmlFor={inputId} className="sr-only">
        Choose photos to upload
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        multiple
        accept={SUPPORTED_IMAGE_TYPES.join(',')}
        className="sr-only"
        tabIndex={-1}
        disabled={disabled}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          // Cleared so choosing the same file again still fires a change.
          e.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
      <p className="mt-4 text-xs text-slate-500 dark:text-slate-400">Supported formats: JPEG, PNG, GIF, WebP</p>
      <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">Up to 30 MB per photo, {MAX_FILES_PER_UPLOAD} photos at a time</p>
    </div>
  );
}
