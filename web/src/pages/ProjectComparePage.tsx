import { useParams } from 'react-router';
import { useAppStore } from '../store';
import { projectCompareBase } from '../lib/comparePaths';
import { useCloseTo } from '../lib/useCloseTo';
import { CompareScreen } from '../components/compare/CompareScreen';
import { appMarkupSource } from '../components/markup/markupSources';
import { useProjectPhotos } from '../components/photos/usePhotos';
import { useProjectSubscription } from './useProjectSubscription';

/** `/projects/:id/compare?a=&b=`: before/after of a project the user may see. */
export function ProjectComparePage() {
  const { id = '' } = useParams();
  const load = useProjectSubscription(id);
  const title = useAppStore((s) => s.projects[id]?.title ?? '');
  const { photos, loaded } = useProjectPhotos(id);
  const close = useCloseTo(projectCompareBase(id));
  return (
    <CompareScreen
      photos={photos}
      loaded={load === 'ready' && loaded}
      projectTitle={title}
      basePath={projectCompareBase(id)}
      onClose={close}
      linkNote="Anyone who can see this project can open it."
      markupSource={appMarkupSource}
    />
  );
}
