import { useLayoutEffect, useRef, useState } from 'react';
import { cn } from '../../lib/cn';

/** SPEC §9: a photo that fails to load shows this instead. */
export const PLACEHOLDER_IMAGE = '/placeholder-image.jpg';

/**
 * A photo that loads lazily, fades in once decoded, and falls back to the placeholder
 * when it fails (SPEC §4 Other flows). Give it a `key` of its source so a new photo
 * starts hidden again.
 */
export function PhotoImage({
  src,
  alt,
  className,
  eager = false,
  fadeMs = 500,
}: {
  src: string;
  alt: string;
  className?: string;
  eager?: boolean;
  fadeMs?: number;
}) {
  const ref = useRef<HTMLImageElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);

  // A cached image can finish before React attaches onLoad.
  useLayoutEffect(() => {
    const img = ref.current;
    if (img?.complete && img.naturalWidth > 0) setLoaded(true);
  }, []);

  return (
    <img
      ref={ref}
      src={failed ? PLACEHOLDER_IMAGE : src}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      draggable={false}
      onLoad={() => setLoaded(true)}
      onError={() => {
        if (failed) setLoaded(true);
        else setFailed(true);
      }}
      data-state={failed ? 'failed' : loaded ? 'loaded' : 'loading'}
      style={{ transitionDuration: `${fadeMs}ms` }}
      className={cn('transition-opacity ease-out', loaded ? 'opacity-100' : 'opacity-0', className)}
    />
  );
}
