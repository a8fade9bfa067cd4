import { useCallback, useRef, useState, type ReactNode } from 'react';
import type { ProjectImage } from '../../protocol/types';
import { fitContain } from '../../lib/compareDivider';
import type { MarkupAccess } from '../../lib/markupRules';
import { MarkupEditor } from './MarkupEditor';
import { MarkupOverlay } from './MarkupOverlay';
import type { Markup } from '../../protocol/types';
import type { MarkupSource } from './markupSources';

/** The content box of the element behind the callback ref, followed as it resizes (the node changes between viewing and editing). */
function useMeasured() {
  const [size, setSize] = useState({ width: 0, height: 0 });
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((node: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!node) return;
    const measure = () => setSize((s) => (s.width === node.clientWidth && s.height === node.clientHeight ? s : { width: node.clientWidth, height: node.clientHeight }));
    measure();
    observer.current = new ResizeObserver(measure);
    observer.current.observe(node);
  }, []);
  return [ref, size] as const;
}

/**
 * A photo as large as its space allows, in a box of exactly the photo's shape, so the
 * markup overlay (in the photo's own coordinates) covers the photo and nothing else:
 * no letterbox inside the box for a shape to drift into. The editor's toolbar sits
 * above it while drawing.
 */
export function PhotoStage({
  photo,
  doc,
  source,
  show,
  editing,
  access,
  myId,
  onStopEditing,
  children,
}: {
  photo: ProjectImage;
  doc: Markup | null;
  source: MarkupSource | undefined;
  show: boolean;
  editing: boolean;
  access: MarkupAccess;
  myId: string | undefined;
  onStopEditing: () => void;
  /** The photo itself (images filling the box). */
  children: ReactNode;
}) {
  const [ref, space] = useMeasured();
  const box = fitContain(space.width, space.height, photo.width / photo.height);
  const frame = (overlay: ReactNode) => (
    <div ref={ref} className="relative min-h-0 w-full flex-1">
      <div
        data-testid="photo-stage"
        className="absolute"
        style={{ left: (space.width - box.width) / 2, top: (space.height - box.height) / 2, width: box.width, height: box.height }}
      >
        {children}
        {overlay}
      </div>
    </div>
  );

  if (editing && doc && source?.save) {
    return (
      <MarkupEditor
        doc={doc}
        photoWidth={photo.width}
        photoHeight={photo.height}
        boxWidth={box.width}
        access={access}
        myId={myId}
        source={source}
        imageId={photo.id}
        onDone={onStopEditing}
        toolbarClassName="w-full px-1 pb-2"
      >
        {({ toolbar, surface }) => (
          <div className="flex size-full min-h-0 flex-col">
            {toolbar}
            {frame(surface)}
          </div>
        )}
      </MarkupEditor>
    );
  }
  return <div className="flex size-full min-h-0 flex-col">{frame(show && doc && doc.shapes.length > 0 ? <MarkupOverlay markup={doc} width={photo.width} height={photo.height} /> : null)}</div>;
}
