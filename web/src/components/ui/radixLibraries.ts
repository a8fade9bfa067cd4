import { lazyModule } from '../../lib/lazyModule';

// Radix's dialog and dropdown menu, with what they bring (focus trapping, scroll locking,
// positioning with floating-ui), are a third of a signed-in screen's scripts, and no
// screen shows a dialog or an open menu at first: they come when the page is idle, or
// when one is first opened (docs/LIMITS.md, "First paint"). Until then a menu's trigger
// is drawn as the same plain button, and a closed dialog is nothing.

export const dialogLibrary = lazyModule(() => import('@radix-ui/react-dialog'));
export const menuLibrary = lazyModule(() => import('@radix-ui/react-dropdown-menu'));
