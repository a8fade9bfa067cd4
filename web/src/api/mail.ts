import { apiFetch } from './http';

export type MailKind = 'new_photos' | 'comments' | 'status_changes';

/** What each kind of mail is called on the unsubscribe page. */
export const MAIL_KIND_LABELS: Record<MailKind, string> = {
  new_photos: 'new photos',
  comments: 'comments and mentions',
  status_changes: 'status changes',
};

/**
 * One-click unsubscribe with the signed token from a mail's link (RFC 8058;
 * docs/FEATURES.md, "Comments, notifications and mail").
 * Works signed out: the token is the proof.
 */
export async function unsubscribe(token: string): Promise<MailKind> {
  const reply = await apiFetch<{ kind: MailKind }>(`/api/mail/unsubscribe?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    body: {},
  });
  return reply.kind;
}
