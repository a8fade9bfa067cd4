import { MessageCircle } from 'lucide-react';

/** A gallery tile's comment count, shown once a photo has comments (the tile places it). */
export function CommentCountBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  const label = count === 1 ? '1 comment' : `${count} comments`;
  return (
    <span
      data-testid="comment-count"
      title={label}
      className="pointer-events-none inline-flex items-center gap-1 rounded-full bg-slate-950/65 px-2 py-0.5 text-xs font-semibold tabular-nums text-white shadow-sm backdrop-blur-sm"
    >
      <MessageCircle className="size-3.5" aria-hidden="true" />
      {count}
      <span className="sr-only">{count === 1 ? ' comment' : ' comments'}</span>
    </span>
  );
}
