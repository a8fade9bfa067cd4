import { lazyPart } from '../lazyPart';

/**
 * "Create New Project" and a project's Edit: mounted while open, and loaded then (or
 * once the page is idle), so the dashboard, the projects list and the project page draw
 * without the form (docs/LIMITS.md, "First paint").
 */
export const ProjectFormDialog = lazyPart(() => import('./ProjectFormDialog').then((m) => m.ProjectFormDialog), {
  what: 'The project form',
  overlay: { isOpen: () => true, close: (p) => p.onClose() },
});
