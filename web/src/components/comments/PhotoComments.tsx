import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from '../../lib/toast';
import { MessageCircle, Pencil, Trash2 } from 'lucide-react';
import type { Comment, ProjectImage } from '../../protocol/types';
import { cn } from '../../lib/cn';
import { relativeTime } from '../../lib/dates';
import type { Mentionable } from '../../lib/commentText';
import { threadComments, useAppStore } from '../../store';
import { commands } from '../../sync/commands';
import { RequestError } from '../../sync/requests';
import { Avatar } from '../Avatar';
import { CommentBody } from './CommentBody';
import { CommentComposer } from './CommentComposer';

function failure(title: string, error: unknown) {
  const detail = error instanceof RequestError && error.fromServer ? error.message : undefined;
  toast.error(title, detail && detail !== title ? { description: detail } : undefined);
}

/** Re-renders every half minute so "2 min ago" moves on. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function CommentItem({
  comment,
  people,
  now,
  canEdit,
  canDelete,
  focused = false,
}: {
  comment: Comment;
  people: Mentionable[];
  now: number;
  canEdit: boolean;
  canDelete: boolean;
  /** The comment a link (a search result) points at: scrolled to and marked. */
  focused?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const name = comment.author.name ?? comment.author.email;
  const edited = comment.updatedAt > comment.createdAt;

  const save = async (body: string) => {
    try {
      await commands.editComment(comment, body);
      setEditing(false);
      return true;
    } catch (err) {
      failure('Could not save the comment', err);
      return false;
    }
  };
  const remove = async () => {
    try {
      await commands.deleteComment(comment);
    } catch (err) {
      failure('Could not delete the comment', err);
      setConfirming(false);
    }
  };

  return (
    <li
      className={cn('group flex gap-3', focused && '-mx-2 rounded-lg bg-amber-400/15 px-2 py-1.5 ring-1 ring-amber-300/40')}
      data-testid="comment"
      data-comment-id={comment.id}
      data-focused={focused || undefined}
      aria-current={focused ? 'true' : undefined}
    >
      <Avatar name={name} size="sm" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2">
          <span className="text-sm font-semibold text-white">{name}</span>
          {comment.author.company && comment.author.company.trim() !== name.trim() && (
            <span className="text-xs text-white/65" data-testid="comment-company">
              {comment.author.company}
            </span>
          )}
          <time dateTime={new Date(comment.createdAt).toISOString()} title={new Date(comment.createdAt).toLocaleString('en-US')} className="text-xs text-white/65">
            {relativeTime(comment.createdAt, now)}
          </time>
          {edited && <span className="text-xs text-white/65">(edited)</span>}
        </div>
        {editing ? (
          <div className="mt-1.5">
            <CommentComposer
              people={people}
              initial={comment.body}
              placeholder="Edit your comment"
              submitLabel="Save comment"
              autoFocus
              onSubmit={save}
              onCancel={() => setEditing(false)}
            />
          </div>
        ) : (
          <CommentBody body={comment.body} people={people} />
        )}
        {!editing && (canEdit || canDelete) && (
          <div className="mt-1 flex items-center gap-3 text-xs text-white/65">
            {confirming ? (
              <>
                <span>Delete this comment?</span>
                <button type="button" onClick={() => void remove()} className="font-medium text-red-300 hover:text-red-200">
                  Delete
                </button>
                <button type="button" onClick={() => setConfirming(false)} className="hover:text-white">
                  Keep
                </button>
              </>
            ) : (
              <>
                {canEdit && (
                  <button type="button" onClick={() => setEditing(true)} className="inline-flex items-center gap-1 hover:text-white" aria-label={`Edit comment by ${name}`}>
                    <Pencil className="size-3" aria-hidden="true" /> Edit
                  </button>
                )}
                {canDelete && (
                  <button type="button" onClick={() => setConfirming(true)} className="inline-flex items-center gap-1 hover:text-red-300" aria-label={`Delete comment by ${name}`}>
                    <Trash2 className="size-3" aria-hidden="true" /> Delete
                  </button>
                )}
              </>
            )}
          </div>
        )}
      </div>
    </li>
  );
}

/**
 * A photo's comments beside it in the lightbox (below it on phones): listed when the
 * photo is shown, kept current by the project's live events, with a box to add one.
 */
export function PhotoComments({ photo, focusComment = null }: { photo: ProjectImage; focusComment?: string | null }) {
  const user = useAppStore((s) => s.user);
  const thread = useAppStore((s) => s.threads[photo.id]);
  const epoch = useAppStore((s) => s.liveEpoch);
  const [failed, setFailed] = useState(false);
  const now = useNow();
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let current = true;
    setFailed(false);
    commands.listComments(photo.id).catch(() => current && setFailed(true));
    return () => {
      current = false;
      useAppStore.getState().threadClosed(photo.id);
    };
  }, [photo.id, epoch]);

  const comments = useMemo(() => threadComments(thread), [thread]);
  const people = useMemo<Mentionable[]>(
    () => (thread?.people ?? []).map((p) => ({ id: p.id, name: p.name ?? p.email })),
    [thread?.people],
  );
  const count = thread?.loaded ? comments.length : photo.commentCount;

  // New comments (anyone's) scroll into view; a linked one (a search result)
  // is scrolled to instead, once the thread has it.
  const last = comments.at(-1)?.id;
  const focusHeld = focusComment !== null && comments.some((c) => c.id === focusComment);
  useEffect(() => {
    if (focusHeld) return;
    if (last) end.current?.scrollIntoView({ block: 'nearest' });
  }, [last, focusHeld]);
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!focusHeld || !focusComment) return;
    list.current?.querySelector(`[data-comment-id="${CSS.escape(focusComment)}"]`)?.scrollIntoView({ block: 'center' });
  }, [focusHeld, focusComment]);

  const add = async (body: string) => {
    try {
      await commands.addComment(photo.id, body);
      return true;
    } catch (err) {
      failure('Could not post the comment', err);
      return false;
    }
  };

  return (
    <section aria-label="Comments" className="flex min-h-0 flex-1 flex-col" data-testid="photo-comments">
      <h2 className="flex items-center gap-2 px-4 pt-4 pb-2 text-sm font-semibold text-white">
        <MessageCircle className="size-4 text-white/60" aria-hidden="true" />
        Comments
        <span className="rounded-full bg-white/10 px-2 py-0.5 text-xs font-medium tabular-nums text-white/75" data-testid="comments-count">
          {count}
        </span>
      </h2>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-2" aria-live="polite">
        {!thread?.loaded ? (
          failed ? (
            <p className="text-sm text-white/60">Comments could not be loaded.</p>
          ) : (
            <p className="text-sm text-white/65">Loading comments…</p>
          )
        ) : comments.length === 0 ? (
          <p className="py-6 text-center text-sm text-white/65">No comments yet. Ask a question or leave a note about this photo.</p>
        ) : (
          <ul className="space-y-4" ref={list}>
            {comments.map((c) => (
              <CommentItem
                key={c.id}
                comment={c}
                people={people}
                now={now}
                canEdit={c.author.id === user?.id}
                canDelete={c.author.id === user?.id || user?.role === 'admin'}
                focused={c.id === focusComment}
              />
            ))}
          </ul>
        )}
        <div ref={end} />
      </div>
      <div className="px-4 pt-2 pb-[max(1rem,env(safe-area-inset-bottom))]">
        <CommentComposer people={people} placeholder="Add a comment…" submitLabel="Post comment" onSubmit={add} />
      </div>
    </section>
  );
}
