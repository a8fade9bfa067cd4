import { useMemo } from 'react';
import { commentParts, type Mentionable } from '../../lib/commentText';

/** A comment's text with links made clickable and mentions of the project's people marked. */
export function CommentBody({ body, people }: { body: string; people: Mentionable[] }) {
  const parts = useMemo(() => commentParts(body, people), [body, people]);
  return (
    <p className="text-sm leading-relaxed break-words whitespace-pre-wrap text-white/90" data-testid="comment-body">
      {parts.map((part, i) =>
        part.kind === 'link' ? (
          <a
            key={i}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="text-amber-300 underline decoration-amber-300/40 underline-offset-2 hover:decoration-amber-300"
          >
            {part.text}
          </a>
        ) : part.kind === 'mention' ? (
          <span key={i} className="rounded bg-amber-400/15 px-0.5 font-medium text-amber-200">
            {part.text}
          </span>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
