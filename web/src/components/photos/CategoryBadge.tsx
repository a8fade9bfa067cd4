import type { ImageCategory } from '../../protocol/types';
import { CATEGORY_BADGE_CLASSES, categoryLabel } from '../../lib/imageCategories';
import { cn } from '../../lib/cn';

export function CategoryBadge({ category, className }: { category: ImageCategory; className?: string }) {
  return (
    <span
      data-testid="category-badge"
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset',
        CATEGORY_BADGE_CLASSES[category] ?? CATEGORY_BADGE_CLASSES.other,
        className,
      )}
    >
      {categoryLabel(category)}
    </span>
  );
}
